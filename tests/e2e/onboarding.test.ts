import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { signedInUser } from './sending-support';

const o = messages.onboarding;

test.describe('onboarding checklist', () => {
  test('a new account with ₹0 sees the checklist, which ticks itself off and stays hidden once dismissed', async ({ page, baseURL }) => {
    await signedInUser(page, baseURL ?? '', 0, { name: 'Naveen Reddy', prefix: 'onboard' });
    const checklist = page.getByRole('region', { name: o.title });
    await expect(checklist).toBeVisible();
    const steps = checklist.getByRole('listitem');
    await expect(steps).toHaveText([o.steps.topUp, o.steps.createTemplate, o.steps.templateApproved, o.steps.firstSend, o.steps.createApiKey].map((text) => new RegExp(text)));
    await expect(checklist.locator('[data-done="true"]')).toHaveCount(0);
    await expect(checklist).toContainText('0 of 5 done');

    // Each step is a way to do it.
    await checklist.getByRole('link', { name: new RegExp(o.steps.createApiKey) }).click();
    await page.waitForURL('**/user/api-management');
    const created = await page.request.post('/api/keys', { data: { name: 'Shop website' } });
    expect(created.status()).toBe(201);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(checklist.getByRole('link', { name: new RegExp(`${o.steps.createApiKey} \\(done\\)`) })).toBeVisible();
    await expect(checklist).toContainText('1 of 5 done');

    await checklist.getByRole('button', { name: o.dismiss }).click();
    await expect(checklist).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('available-credits')).toBeVisible();
    await expect(checklist).toBeHidden();
  });
});
