import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/users/:id/details: basic information, the balance (read only) and the provider state. */
export class AdminUserDetailsPage {
  readonly name: Locator;
  readonly balance: Locator;
  readonly adjustCredits: Locator;
  readonly providerSettings: Locator;
  readonly save: Locator;

  constructor(private readonly page: Page) {
    this.name = page.getByLabel('Full Name', { exact: true });
    this.balance = page.getByTestId('details-credit-balance');
    this.adjustCredits = page.getByRole('link', { name: 'Adjust Credits' });
    this.providerSettings = page.getByRole('link', { name: 'Provider Settings' });
    this.save = page.getByRole('button', { name: 'Save Changes' });
  }

  /** Opens the details from the row actions of the admin user table. */
  async openFromTable(username: string): Promise<void> {
    await this.page.getByPlaceholder(/Search/i).fill(username);
    await this.page.getByRole('button', { name: `Actions for ${username}` }).click();
    await this.page.getByRole('menuitem', { name: 'View Details' }).click();
    await this.page.waitForURL(/\/admin\/users\/\d+\/details$/);
    await expect(this.page.getByRole('heading', { name: 'User Details' })).toBeVisible();
  }

  /** The user id in the current /admin/users/:id/... address. */
  userId(): string {
    const id = /\/admin\/users\/(\d+)\//.exec(this.page.url())?.[1];
    if (!id) throw new Error(`no user id in ${this.page.url()}`);
    return id;
  }
}
