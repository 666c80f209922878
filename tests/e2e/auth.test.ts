import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { SignupPage } from './pages/SignupPage';
import { createUser, latestCode, unique, uniquePhone } from './support';

test.describe('accounts in the browser', () => {
  test('signup, then login, lands on /user/dashboard', async ({ page }) => {
    const signup = new SignupPage(page);
    const username = unique('web');
    await signup.goto();
    await signup.fill({ name: 'Kiran Rao', email: `${username}@example.in`, username, password: 'kiran-pass-12', phoneNumber: uniquePhone() });
    await expect(signup.strengthHint).toHaveText('Strong');
    await signup.submit();
    await expect(page.getByText(messages.auth.signupSuccess).first()).toBeVisible();
    await page.waitForURL('**/login', { timeout: 5_000 });

    const login = new LoginPage(page);
    await login.login(username, 'kiran-pass-12');
    await page.waitForURL('**/user/dashboard');
    await expect(page.getByText(/Good (morning|afternoon|evening), Kiran Rao/)).toBeVisible();
    expect(JSON.parse((await page.evaluate<string | null>("localStorage.getItem('user')")) ?? 'null')?.username).toBe(username);
  });

  test('shows the spec validation messages before calling the server', async ({ page }) => {
    const signup = new SignupPage(page);
    await signup.goto();
    await signup.submit();
    const nameError = page.getByText(messages.validation.nameRequired, { exact: true });
    await expect(nameError).toBeVisible();
    await expect(page.getByText(messages.validation.confirmPasswordRequired, { exact: true })).toBeVisible();
    await page.getByLabel('Full Name', { exact: true }).fill('K');
    await expect(nameError).toBeHidden();
    await expect(page.getByText(messages.validation.usernameRequired, { exact: true })).toBeVisible();
  });

  test('a wrong password shows the server error', async ({ page }) => {
    const user = await createUser(test.info().project.use.baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, 'not-the-password');
    await expect(page.getByRole('alert').filter({ hasText: messages.auth.invalidCredentials })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a visitor on /user/dashboard goes to /login and comes back after signing in', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    await page.goto('/user/dashboard');
    await page.waitForURL('**/login');
    await new LoginPage(page).login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
  });

  test('an unknown path shows Page not found and Go back returns', async ({ page }) => {
    await page.goto('/contact');
    await page.goto('/this/does/not/exist');
    await expect(page.getByText(messages.common.pageNotFound)).toBeVisible();
    await page.getByRole('button', { name: messages.common.goBack }).click();
    await page.waitForURL('**/contact');
  });

  test('forgot password through to a new password', async ({ page, baseURL }) => {
    const phone = uniquePhone();
    const user = await createUser(baseURL ?? '', { phoneNumber: phone });
    const login = new LoginPage(page);
    await login.goto();
    await login.requestCode(user.username, phone);
    await expect(page.getByText(messages.auth.otpSent).first()).toBeVisible();
    await expect(page.getByText(new RegExp(phone.slice(-4)))).toBeVisible();

    await login.verifyCode(await latestCode(baseURL ?? '', phone));
    await expect(page.getByText(messages.auth.otpVerified).first()).toBeVisible();

    await login.setNewPassword('fresh-pass-99');
    await expect(page.getByText(messages.auth.resetSuccess).first()).toBeVisible();
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(user.username);
    await login.password.fill('fresh-pass-99');
    await login.signIn.click();
    await page.waitForURL('**/user/dashboard');
  });
});
