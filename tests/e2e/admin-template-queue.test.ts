import { expect, request, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminTemplateQueuePage } from './pages/AdminTemplateQueuePage';
import { AdminTemplatesPage } from './pages/AdminTemplatesPage';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, adminApi, createUser, unique } from './support';

/** Submits a template for review as `user`, through the API. */
async function pendingTemplate(baseURL: string, user: { username: string; password: string }, name: string, category: 'MARKETING' | 'UTILITY'): Promise<void> {
  const api = await request.newContext({ baseURL });
  expect((await api.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
  const created = await api.post('/api/templates', {
    multipart: { name, category, language: 'en_US', headerType: 'none', bodyText: 'Hello {{1}}, your order is ready', variableExamples: '{"1":"Asha"}', submit_to_whatsapp: 'true' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await api.dispose();
}

async function pendingCount(baseURL: string): Promise<number> {
  const admin = await adminApi(baseURL);
  const body = (await (await admin.get('/api/admin/templates/pending-count')).json()) as { pending: number };
  await admin.dispose();
  return body.pending;
}

test.describe('admin template review queue', () => {
  test('an admin finds pending templates of every user, filters them, and approves or rejects in place while the badge follows', async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    const tag = unique('q').toLowerCase();
    const asha = await createUser(base, { name: 'Asha Venkataraman Subramanian', username: `${tag}_asha` });
    const ravi = await createUser(base, { name: 'Ravi Kumar', username: `${tag}_ravi` });
    // 60 characters with no space: it must not wrap mid-word in the table.
    const longName = `${tag}_${'promotional_offer_'.repeat(3)}`.slice(0, 60).replace(/_+$/, '');
    await pendingTemplate(base, asha, longName, 'MARKETING');
    await pendingTemplate(base, ravi, `${tag}_utility`, 'UTILITY');
    await pendingTemplate(base, ravi, `${tag}_rejected`, 'MARKETING');

    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');

    const queue = new AdminTemplateQueuePage(page);
    const before = await pendingCount(base);
    await expect(queue.badge).toContainText(String(before));
    await queue.open();

    await queue.search.fill(tag);
    await expect(queue.bodyRows()).toHaveCount(3);
    // Oldest submission first, with its owner.
    await expect(queue.bodyRows().first()).toContainText(asha.name);
    const nameCell = queue.row(longName).getByRole('rowheader').locator('span');
    await expect(nameCell).toHaveAttribute('title', longName);
    await expect(nameCell).toHaveCSS('text-overflow', 'ellipsis');
    await expect(nameCell).toHaveCSS('white-space', 'nowrap');

    await queue.category.selectOption('UTILITY');
    await expect(queue.bodyRows()).toHaveCount(1);
    await expect(queue.row(`${tag}_utility`)).toBeVisible();
    await queue.category.selectOption('');
    await queue.search.fill(`${tag}_ravi`);
    await expect(queue.bodyRows()).toHaveCount(2);

    await queue.reject(`${tag}_rejected`, 'The body promotes a lottery');
    await expect(page.getByText(messages.templates.rejected, { exact: true }).first()).toBeVisible();
    await expect(queue.bodyRows()).toHaveCount(1);
    await queue.approve(`${tag}_utility`);
    await expect(queue.bodyRows()).toHaveCount(1);
    await expect(queue.bodyRows().first()).toContainText(messages.admin.templateQueueEmpty);
    await expect(queue.badge).toContainText(String(before - 2));

    // The decisions are there under the other statuses, and on the owner's own page.
    await queue.status.selectOption('REJECTED');
    await expect(queue.row(`${tag}_rejected`)).toBeVisible();
    // Approved by the admin, it is in review at Meta (the simulator) until Meta's answer: under All
    // statuses, where the list follows it.
    await queue.status.selectOption('ALL');
    await expect(queue.row(`${tag}_utility`)).toContainText('Approved', { timeout: 20_000 });
    await queue.status.selectOption('APPROVED');
    await expect(queue.row(`${tag}_utility`)).toBeVisible();
    await queue.status.selectOption('PENDING');
    await queue.search.fill(tag);
    await expect(queue.bodyRows()).toHaveCount(1);
    await queue.bodyRows().first().getByRole('link', { name: `@${asha.username}` }).click();
    const userPage = new AdminTemplatesPage(page);
    await expect(userPage.heading).toBeVisible();
    const ownRow = userPage.row(longName);
    await expect(ownRow.getByRole('rowheader').locator('span')).toHaveAttribute('title', longName);
    await expect(ownRow.getByRole('rowheader').locator('span')).toHaveCSS('text-overflow', 'ellipsis');
  });
});
