import { expect, type Locator, type Page } from '@playwright/test';

/** /user/templates: the owner's template cards with View, Edit, Submit and Delete. */
export class TemplatesPage {
  readonly createTemplate: Locator;
  readonly syncFromMeta: Locator;

  constructor(private readonly page: Page) {
    this.createTemplate = page.getByRole('link', { name: 'Create Template' }).first();
    this.syncFromMeta = page.getByRole('button', { name: 'Sync from Meta' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/templates');
    await expect(this.createTemplate).toBeVisible();
  }

  /** The card of one template, found by its name heading. */
  card(name: string): Locator {
    return this.page.getByTestId('template-card').filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** The status badge: the first badge of the card, before its category. */
  async expectStatus(name: string, label: string): Promise<void> {
    await expect(this.card(name).getByText(label, { exact: true }).first()).toBeVisible();
  }

  editButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Edit ${name}`, exact: true });
  }

  submitButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Submit ${name}`, exact: true });
  }

  async edit(name: string): Promise<void> {
    await this.editButton(name).click();
    await this.page.waitForURL(/\/user\/templates\/\d+\/edit$/);
  }

  async submit(name: string): Promise<void> {
    await this.submitButton(name).click();
  }

  /** Delete, confirmed in the dialog. */
  async delete(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    const dialog = this.page.getByRole('alertdialog');
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toBeHidden();
  }
}
