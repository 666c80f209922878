import { expect, request, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { createUser } from './support';

const text = messages.notifications;

test.describe('notification bell', () => {
  test('shows kept notifications with the unread count, receives new ones live, marks them read and clears them', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const api = await request.newContext({ baseURL });
    expect((await api.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    expect((await api.post('/api/keys', { data: { name: 'Before' } })).status()).toBe(201);

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAccessibleName(fillMessage(text.bellLabelUnread, { count: 1 }));

    // Posted while the page is open: the stream brings it without a reload.
    expect((await api.post('/api/keys', { data: { name: 'Live' } })).status()).toBe(201);
    await expect(page.getByTestId('notification-unread')).toHaveText('2');

    await bell.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText(text.apiKeyCreatedTitle)).toHaveCount(2);
    await menu.getByRole('button', { name: text.markAllRead }).click();
    await expect(page.getByTestId('notification-unread')).toHaveCount(0);
    await menu.getByRole('button', { name: text.clearAll }).click();
    await expect(menu.getByText(text.empty)).toBeVisible();

    // Kept on the server: still cleared after a reload.
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(bell).toHaveAccessibleName(text.bellLabel);
    await api.dispose();
  });

  test('the wallet page sets the low-balance alert threshold (default ₹100)', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    await page.goto('/user/wallet');
    const field = page.getByLabel('₹', { exact: true });
    await expect(field).toHaveValue('100');
    await field.fill('2000');
    await page.getByRole('button', { name: text.save, exact: true }).click();
    await expect(page.getByText(text.lowBalanceSaved)).toBeVisible();
    // A balance of ₹1,000 is now below the threshold: the bell says so.
    await expect(page.getByTestId('notification-unread')).toHaveText('1');
    await page.getByTestId('notification-bell').click();
    await expect(page.getByRole('menu').getByText(text.lowBalanceTitle)).toBeVisible();
  });
});
