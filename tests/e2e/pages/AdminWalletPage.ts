import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/users/:id/wallet: the user's balance and the add/deduct form. */
export class AdminWalletPage {
  readonly balance: Locator;
  readonly newBalance: Locator;
  readonly amount: Locator;
  readonly reason: Locator;

  constructor(private readonly page: Page) {
    this.balance = page.getByTestId('wallet-balance');
    this.newBalance = page.getByTestId('wallet-new-balance');
    this.amount = page.getByLabel('Amount (₹)', { exact: true });
    this.reason = page.getByLabel('Reason', { exact: true });
  }

  /** Opens the wallet from the row actions of the admin user table. */
  async openFromTable(username: string): Promise<void> {
    await this.page.getByRole('button', { name: `Actions for ${username}` }).click();
    await this.page.getByRole('menuitem', { name: 'Wallet' }).click();
    await this.page.waitForURL(/\/admin\/users\/\d+\/wallet$/);
    await expect(this.page.getByRole('heading', { name: 'Wallet Management' })).toBeVisible();
  }

  modeRadio(mode: 'add' | 'deduct'): Locator {
    return this.page.getByRole('radio', { name: mode === 'add' ? 'Add Credits' : 'Deduct Credits' });
  }

  /** Clicks the visible segment: the radio itself is visually hidden inside its label. */
  async chooseMode(mode: 'add' | 'deduct'): Promise<void> {
    await this.page.locator('label').filter({ has: this.modeRadio(mode) }).click();
    await expect(this.modeRadio(mode)).toBeChecked();
  }

  async fill(mode: 'add' | 'deduct', amount: string, reason: string): Promise<void> {
    await this.chooseMode(mode);
    await this.amount.fill(amount);
    await this.reason.fill(reason);
  }

  async submit(mode: 'add' | 'deduct'): Promise<void> {
    await this.page.getByRole('button', { name: mode === 'add' ? 'Add Credits' : 'Deduct Credits', exact: true }).click();
  }

  /** The user id in the current /admin/users/:id/... address. */
  userId(): string {
    const id = /\/admin\/users\/(\d+)\//.exec(this.page.url())?.[1];
    if (!id) throw new Error(`no user id in ${this.page.url()}`);
    return id;
  }
}
