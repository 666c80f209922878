import { expect, type Locator, type Page } from '@playwright/test';

/** The Security tab of the profile page: Change Password. */
export class ProfileSecurityTab {
  readonly form: Locator;
  readonly current: Locator;
  readonly next: Locator;
  readonly confirm: Locator;
  readonly submit: Locator;

  constructor(private readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Change password' });
    this.current = this.form.getByLabel('Current Password', { exact: true });
    this.next = this.form.getByLabel('New Password', { exact: true });
    this.confirm = this.form.getByLabel('Confirm New Password', { exact: true });
    this.submit = this.form.getByRole('button', { name: 'Change Password' });
  }

  /** Opens the profile from the sidebar, then its Security tab. */
  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await this.page.getByRole('tab', { name: 'Security' }).click();
    await expect(this.form).toBeVisible();
  }

  async fill(values: { current: string; next: string; confirm: string }): Promise<void> {
    await this.current.fill(values.current);
    await this.next.fill(values.next);
    await this.confirm.fill(values.confirm);
  }
}
