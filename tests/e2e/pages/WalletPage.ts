import { expect, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';

const w = messages.wallet;
const wh = messages.walletHistory;

/** /user/wallet and the checkout window it opens (Razorpay's, or the development sandbox). */
export class WalletPage {
  readonly balance: Locator;
  readonly refreshBalance: Locator;
  readonly customAmount: Locator;
  readonly sandboxBadge: Locator;
  readonly checkout: Locator;
  readonly history: Locator;
  readonly historyRows: Locator;
  readonly historyKind: Locator;
  readonly historyFrom: Locator;
  readonly historyTo: Locator;
  readonly historyExport: Locator;

  constructor(private readonly page: Page) {
    this.balance = page.getByTestId('wallet-balance');
    this.refreshBalance = page.getByRole('button', { name: w.refreshBalance });
    this.customAmount = page.getByLabel('Custom Amount', { exact: true });
    this.sandboxBadge = page.getByTestId('sandbox-badge');
    this.checkout = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Sandbox checkout' }) });
    this.history = page.getByRole('table', { name: wh.title });
    this.historyRows = page.getByTestId('wallet-history-entry');
    this.historyKind = page.getByLabel(wh.kindLabel, { exact: true });
    this.historyFrom = page.getByLabel(wh.fromLabel, { exact: true });
    this.historyTo = page.getByLabel(wh.toLabel, { exact: true });
    this.historyExport = page.getByRole('button', { name: wh.exportCsv, exact: true });
  }

  /** A history row by the words it holds ("Wallet top-up", "+₹1,000.00"). */
  historyRow(text: string | RegExp): Locator {
    return this.historyRows.filter({ hasText: text });
  }

  /** The receipt button of a top-up row. */
  receiptButton(row: Locator): Locator {
    return row.getByRole('button', { name: new RegExp(`^${wh.receipt} \\(PDF\\)`) });
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/user/wallet${query}`);
    await expect(this.page.getByRole('heading', { name: w.title })).toBeVisible();
  }

  /** A preset button by its visible text, e.g. "₹1,000". */
  preset(label: string): Locator {
    return this.page.getByRole('button', { name: label, exact: true });
  }

  /** The form's pay button: 'Add ₹1,000 Credits' ('Pay ₹1,180.00' with GST), or 'Processing...' while a top-up runs. */
  payButton(): Locator {
    return this.page.getByRole('button', { name: /^(Add (₹[\d,]+ )?Credits|Pay ₹[\d,]+\.\d{2}|Processing\.\.\.)$/ });
  }

  /** The GST shown under the amount before payment. */
  taxSummary(): Locator {
    return this.page.getByTestId('topup-tax');
  }

  /** The Tax Invoices card's row of a document. */
  taxDocumentRow(number: string | RegExp): Locator {
    return this.page.getByTestId('tax-document-row').filter({ hasText: number });
  }

  fieldError(text: string): Locator {
    return this.page.getByRole('alert').filter({ hasText: text });
  }

  async pay(): Promise<void> {
    await this.payButton().click();
  }

  /** Pays in the sandbox checkout window, whose Pay button names the amount ("Pay ₹1,000"). */
  async payInCheckout(amountLabel: string): Promise<void> {
    await expect(this.checkout).toBeVisible();
    await this.checkout.getByRole('button', { name: `Pay ${amountLabel}`, exact: true }).click();
  }

  async cancelCheckout(): Promise<void> {
    await this.checkout.getByRole('button', { name: 'Cancel', exact: true }).click();
  }
}
