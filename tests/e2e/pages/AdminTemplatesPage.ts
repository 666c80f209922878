import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/users/:id/templates: the figures, the table, the preview and the approve/reject dialog. */
export class AdminTemplatesPage {
  readonly heading: Locator;
  readonly previewDialog: Locator;
  readonly reviewDialog: Locator;
  readonly rejectionReason: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Template Approval' });
    this.previewDialog = page.getByRole('dialog', { name: 'Template Preview' });
    this.reviewDialog = page.getByRole('alertdialog');
    this.rejectionReason = this.reviewDialog.getByLabel('Rejection Reason', { exact: true });
  }

  async goto(userId: string): Promise<void> {
    await this.page.goto(`/admin/users/${userId}/templates`);
    await expect(this.heading).toBeVisible();
  }

  /** Opens the page from the row actions of the admin user table (the dashboard's search first). */
  async openFromTable(username: string): Promise<void> {
    await this.page.getByPlaceholder(/Search/i).fill(username);
    await this.page.getByRole('button', { name: `Actions for ${username}` }).click();
    await this.page.getByRole('menuitem', { name: 'Templates' }).click();
    await this.page.waitForURL(/\/admin\/users\/\d+\/templates$/);
    await expect(this.heading).toBeVisible();
  }

  /** The figure of one stat card: Total, Pending Approval, Approved or Rejected. */
  stat(label: 'Total' | 'Pending Approval' | 'Approved' | 'Rejected'): Locator {
    return this.page
      .locator('[aria-busy] > div')
      .filter({ has: this.page.getByText(label, { exact: true }) })
      .locator('p.text-2xl');
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name, exact: true }) });
  }

  approveButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Approve ${name}`, exact: true });
  }

  rejectButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Reject ${name}`, exact: true });
  }

  async openPreview(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
    await expect(this.previewDialog).toBeVisible();
  }

  async closePreview(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.previewDialog).toBeHidden();
  }

  async startReject(name: string): Promise<void> {
    await this.rejectButton(name).click();
    await expect(this.reviewDialog.getByRole('heading', { name: 'Reject Template' })).toBeVisible();
  }

  async confirmReject(): Promise<void> {
    await this.reviewDialog.getByRole('button', { name: 'Confirm Reject', exact: true }).click();
  }

  async approve(name: string): Promise<void> {
    await this.approveButton(name).click();
    await expect(this.reviewDialog.getByRole('heading', { name: 'Approve Template' })).toBeVisible();
    await this.reviewDialog.getByRole('button', { name: 'Confirm Approve', exact: true }).click();
  }
}
