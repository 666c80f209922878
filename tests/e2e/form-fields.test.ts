import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminWalletPage } from './pages/AdminWalletPage';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, createUser, unique } from './support';

const v = messages.validation;

/**
 * A field that failed its check: it holds the focus, says it is invalid, and its description
 * (aria-describedby) is the catalogue's message shown under it.
 */
async function expectFirstInvalid(field: Locator, message: string): Promise<void> {
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
}

function signupField(page: Page, label: string): Locator {
  return page.getByLabel(label, { exact: true });
}

test.describe('form fields', () => {
  test('text, email, username, phone and password fields show the catalogue message and take the focus in turn', async ({ page }) => {
    await page.goto('/signup');
    const submit = () => page.getByRole('button', { name: 'Create Account' }).click();

    await submit();
    await expectFirstInvalid(signupField(page, 'Full Name'), v.nameRequired);
    await expect(signupField(page, 'Email')).toHaveAccessibleDescription(v.emailRequired);

    await signupField(page, 'Full Name').fill('Kiran Rao');
    await signupField(page, 'Email').fill('kiran-at-example');
    await submit();
    await expectFirstInvalid(signupField(page, 'Email'), v.emailInvalid);

    const username = unique('fields');
    await signupField(page, 'Email').fill(`${username}@example.in`);
    await signupField(page, 'Username').fill('kiran rao!');
    await submit();
    await expectFirstInvalid(signupField(page, 'Username'), v.usernameChars);

    await signupField(page, 'Username').fill(username);
    await signupField(page, 'Phone Number').fill('98765');
    await submit();
    await expectFirstInvalid(signupField(page, 'Phone Number'), v.signupPhoneFormat);

    await signupField(page, 'Phone Number').fill('');
    await signupField(page, 'Password').fill('abc');
    await submit();
    await expectFirstInvalid(signupField(page, 'Password'), v.passwordMin);

    // Editing a field takes its message away until the next submit.
    await page.keyboard.type('def');
    await expect(signupField(page, 'Password')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(v.passwordMin, { exact: true })).toBeHidden();

    // The password field's own button shows and hides what was typed.
    await expect(signupField(page, 'Password')).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    await expect(signupField(page, 'Password')).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(signupField(page, 'Password')).toHaveAttribute('type', 'password');

    await signupField(page, 'Confirm Password').fill('abcdeX');
    await submit();
    await expectFirstInvalid(signupField(page, 'Confirm Password'), v.passwordsDoNotMatch);
  });

  test('an amount field shows the catalogue message and takes the focus before the reason below it', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');
    await page.goto(`/admin/users/${user.id}/wallet`);

    const wallet = new AdminWalletPage(page);
    await wallet.fill('add', 'five hundred', '');
    await wallet.submit('add');
    await expectFirstInvalid(wallet.amount, messages.adminWallet.amountInvalid);
    await expect(wallet.reason).toHaveAccessibleDescription(messages.adminWallet.reasonRequired);

    // A quick amount fills the field and clears its message; the reason is then the first one wrong.
    await page.getByRole('group', { name: 'Quick amounts' }).getByRole('button').first().click();
    await expect(wallet.amount).not.toHaveAttribute('aria-invalid', 'true');
    await wallet.submit('add');
    await expectFirstInvalid(wallet.reason, messages.adminWallet.reasonRequired);
    await expect(wallet.balance).toHaveText('₹1,000.00');
  });

  test('the forgot-password step marks its fields and says once what is missing', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await expect(page.getByText(v.usernameAndPhoneRequired, { exact: true }).first()).toBeVisible();
    const username = page.getByLabel('Username', { exact: true });
    await expect(username).toBeFocused();
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    // The phone field keeps digits only as they are typed.
    await page.getByLabel('Phone Number', { exact: true }).fill('+91 98765-43210');
    await expect(page.getByLabel('Phone Number', { exact: true })).toHaveValue('919876543210');
  });
});
