import { expect, type Locator, type Page } from '@playwright/test';

/** The /login screen in its four modes. */
export class LoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly signIn: Locator;

  constructor(private readonly page: Page) {
    this.username = page.getByLabel('Username', { exact: true });
    this.password = page.getByLabel('Password', { exact: true });
    this.signIn = page.getByRole('button', { name: 'Sign In', exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto('/login');
  }

  async login(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.signIn.click();
  }

  async requestCode(username: string, phone: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Forgot Password?' }).click();
    await this.page.getByLabel('Username', { exact: true }).fill(username);
    await this.page.getByLabel('Phone Number', { exact: true }).fill(phone);
    await this.page.getByRole('button', { name: 'Send OTP' }).click();
  }

  async verifyCode(code: string): Promise<void> {
    const otp = this.page.getByLabel('OTP', { exact: true });
    await otp.fill(code);
    await expect(this.page.getByRole('button', { name: 'Verify OTP' })).toBeEnabled();
    await this.page.getByRole('button', { name: 'Verify OTP' }).click();
  }

  async setNewPassword(password: string): Promise<void> {
    await this.page.getByLabel('New Password', { exact: true }).fill(password);
    await this.page.getByLabel('Confirm Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Reset Password' }).click();
  }
}
