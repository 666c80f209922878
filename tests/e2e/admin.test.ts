import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminUsersPage } from './pages/AdminUsersPage';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, createUser, unique } from './support';

test.describe('admin area', () => {
  test('an admin lands on /admin/dashboard, adds a user and deletes it', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');
    for (const card of ['Total Users', 'Regular Users', 'Configured Users', 'Total Credits']) {
      await expect(page.getByText(card, { exact: true })).toBeVisible();
    }

    const users = new AdminUsersPage(page);
    const username = unique('added');
    await users.addUser({ name: 'Added Person', email: `${username}@example.in`, username, password: 'added-pass-1' });
    await expect(users.row(username)).toBeVisible();
    await expect(users.row(username)).toContainText('1,000');
    await expect(users.row(username)).toContainText(messages.admin.notConfigured);

    await users.search(username.toUpperCase());
    await expect(page.getByRole('row').filter({ hasText: username })).toHaveCount(1);

    await users.deleteUser(username);
    await expect(users.row(username)).toHaveCount(0);
    await page.reload();
    await expect(users.row(username)).toHaveCount(0);
  });

  test('a user visiting /admin/users sees Access Denied, then the user dashboard', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    await page.goto('/admin/users');
    await expect(page.getByText(messages.common.accessDenied)).toBeVisible();
    await page.waitForURL('**/user/dashboard', { timeout: 10_000 });
  });

  test('an admin visiting a user screen is sent to /admin/dashboard', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');
    await page.goto('/user/dashboard');
    await page.waitForURL('**/admin/dashboard');
  });
});
