import type { Locator, Page } from '@playwright/test';

export interface SignupDetails {
  name: string;
  email: string;
  username: string;
  password: string;
  phoneNumber?: string;
}

export class SignupPage {
  readonly strengthHint: Locator;

  constructor(private readonly page: Page) {
    this.strengthHint = page.getByText(/^(Weak|Medium|Strong)$/);
  }

  async goto(): Promise<void> {
    await this.page.goto('/signup');
  }

  async fill(details: SignupDetails): Promise<void> {
    await this.page.getByLabel('Full Name', { exact: true }).fill(details.name);
    await this.page.getByLabel('Email', { exact: true }).fill(details.email);
    await this.page.getByLabel('Username', { exact: true }).fill(details.username);
    if (details.phoneNumber) await this.page.getByLabel(/^Phone Number/).fill(details.phoneNumber);
    await this.page.getByLabel('Password', { exact: true }).fill(details.password);
    await this.page.getByLabel('Confirm Password', { exact: true }).fill(details.password);
  }

  async submit(): Promise<void> {
    await this.page.getByRole('button', { name: /Create Account|Sign Up/ }).click();
  }
}
