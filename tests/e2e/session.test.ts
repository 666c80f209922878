import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { E2E_PORTS, E2E_SHORT_IDLE_SECONDS } from '../../playwright.config';
import { LoginPage } from './pages/LoginPage';
import { createUser } from './support';

const shortSessionUrl = `http://127.0.0.1:${E2E_PORTS.shortSession}`;

test.describe(`inactivity timeout (server idle timeout ${E2E_SHORT_IDLE_SECONDS} s)`, () => {
  test.use({ baseURL: shortSessionUrl });

  test('the warning dialog counts down and logs out', async ({ page }) => {
    const user = await createUser(shortSessionUrl);
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(messages.session.warningTitle, { timeout: E2E_SHORT_IDLE_SECONDS * 1000 });
    await expect(dialog).toContainText(messages.session.warningSubtitle);
    await expect(dialog).toContainText(/You will be automatically logged out in \d+:\d\d due to inactivity\./);
    await page.waitForURL(/\/login\?reason=inactivity$/, { timeout: E2E_SHORT_IDLE_SECONDS * 1000 });
    // The app reloads /login after an automatic logout (spec 000 §4.1); wait for that page.
    await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
    // It says why.
    await expect(page.getByRole('status').filter({ hasText: messages.auth.sessionExpired })).toBeVisible();
    await expect.poll(() => page.evaluate<string | null>("localStorage.getItem('user')").catch(() => 'reloading')).toBeNull();
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
  });

  test('Stay Logged In keeps the session on the server', async ({ page }) => {
    const user = await createUser(shortSessionUrl);
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(messages.session.warningTitle, { timeout: E2E_SHORT_IDLE_SECONDS * 1000 });
    await dialog.getByRole('button', { name: messages.session.stayLoggedIn }).click();
    await expect(dialog).toBeHidden();
    await page.waitForTimeout((E2E_SHORT_IDLE_SECONDS / 2) * 1000);
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(200);
  });
});
