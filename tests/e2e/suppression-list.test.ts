import { expect, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { SuppressionListPage } from './pages/SuppressionListPage';
import { createUser } from './support';

const s = messages.suppressions;

test.describe('the suppression list', () => {
  test('a user adds a number with a reason, searches, removes it, and imports a small CSV', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '', { name: 'Meera Shah' });
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    await page.getByRole('link', { name: 'Suppression list' }).first().click();
    const list = new SuppressionListPage(page);
    await expect(list.heading).toBeVisible();
    await expect(page.getByText(s.empty)).toBeVisible();

    await list.phone.fill('98111 00091');
    await list.reason.fill('Asked on a call');
    await list.add.click();
    await expect(list.row('+91 98111 00091')).toContainText('Asked on a call');
    await expect(list.row('+91 98111 00091')).toContainText(s.sources.manual);

    await list.importFile.setInputFiles({ name: 'opt-outs.csv', mimeType: 'text/csv', buffer: Buffer.from('phone,reason\n919811100092,Wrote in\nabc,\n9811100091,\n') });
    await expect(page.getByText(fillMessage(s.imported, { added: '1', skipped: '1', invalid: '1' }))).toBeVisible();
    await expect(list.row('+91 98111 00092')).toContainText(s.sources.import);

    await list.search.fill('00092');
    await expect(list.row('+91 98111 00092')).toBeVisible();
    await expect(list.row('+91 98111 00091')).toHaveCount(0);
    await list.search.fill('');
    await expect(list.row('+91 98111 00091')).toBeVisible();

    await list.removeButton('+91 98111 00091').click();
    await expect(page.getByText(fillMessage(s.removed, { phone: '+91 98111 00091' }))).toBeVisible();
    await expect(list.row('+91 98111 00091')).toHaveCount(0);
    await expect(list.row('+91 98111 00092')).toBeVisible();
  });
});
