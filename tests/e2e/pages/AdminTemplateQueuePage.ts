import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/templates: the review queue across users, its filters, and the sidebar badge. */
export class AdminTemplateQueuePage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly status: Locator;
  readonly category: Locator;
  readonly navLink: Locator;
  readonly badge: Locator;
  readonly reviewDialog: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Template Review', level: 2 });
    this.search = page.getByLabel('Search', { exact: true });
    this.status = page.getByLabel('Status', { exact: true });
    this.category = page.getByLabel('Category', { exact: true });
    const nav = page.getByRole('navigation', { name: 'Main' });
    this.navLink = nav.getByRole('link', { name: /^Template Review/ });
    this.badge = nav.getByTestId('nav-badge-pendingTemplates');
    this.reviewDialog = page.getByRole('alertdialog');
  }

  async open(): Promise<void> {
    await this.navLink.click();
    await this.page.waitForURL(/\/admin\/templates$/);
    await expect(this.heading).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name, exact: true }) });
  }

  /** The rows of the table body, without the header row. */
  bodyRows(): Locator {
    return this.page.getByRole('table', { name: 'Templates for review' }).locator('tbody tr');
  }

  async approve(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Approve ${name}`, exact: true }).click();
    await this.reviewDialog.getByRole('button', { name: 'Confirm Approve', exact: true }).click();
    await expect(this.reviewDialog).toBeHidden();
  }

  async reject(name: string, reason: string): Promise<void> {
    await this.page.getByRole('button', { name: `Reject ${name}`, exact: true }).click();
    await this.reviewDialog.getByLabel('Rejection Reason', { exact: true }).fill(reason);
    await this.reviewDialog.getByRole('button', { name: 'Confirm Reject', exact: true }).click();
    await expect(this.reviewDialog).toBeHidden();
  }
}
