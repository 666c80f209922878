import { expect, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { createUser } from './support';

const text = messages.notifications;

test.describe('notification bell', () => {
  test('shows kept notifications with the unread count, receives new ones live, marks them read and clears them', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    // The page's own session and device: API calls made here are this person at this browser.
    const api = page.request;
    expect((await api.post('/api/keys', { data: { name: 'Before' } })).status()).toBe(201);
    await page.reload();
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
  });

  test('a sign-in from another browser is told live on the first, naming it; signing in again on a known browser is not', async ({ page, browser, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const bell = page.getByTestId('notification-bell');
    // The account's first device: nothing to tell.
    await expect(bell).toHaveAccessibleName(text.bellLabel);

    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const other = await browser.newContext({ userAgent: firefox });
    const otherPage = await other.newPage();
    const otherLogin = new LoginPage(otherPage);
    await otherLogin.goto();
    await otherLogin.login(user.username, user.password);
    await otherPage.waitForURL('**/user/dashboard');

    await expect(page.getByTestId('notification-unread')).toHaveText('1');
    await bell.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText(text.newDeviceTitle)).toBeVisible();
    await expect(menu.getByText(fillMessage(text.newDevice, { device: 'Firefox on Linux' }))).toBeVisible();
    await page.keyboard.press('Escape');

    // Signing out and in again on the first browser: a known device.
    await page.request.post('/api/auth/logout', { data: {} });
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    await expect(page.getByTestId('notification-unread')).toHaveText('1');
    await other.close();
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
