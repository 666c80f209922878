import { expect, type Locator, type Page } from '@playwright/test';

/** /user/api-management: stat cards, API keys, the testing console, code examples and docs. */
export class ApiManagementPage {
  readonly heading: Locator;
  readonly keyName: Locator;
  readonly createKey: Locator;
  readonly keyRows: Locator;
  readonly newKeyDialog: Locator;
  readonly newKey: Locator;
  readonly consoleKey: Locator;
  readonly template: Locator;
  readonly recipient: Locator;
  readonly sendTest: Locator;
  readonly preview: Locator;
  readonly responseStatus: Locator;
  readonly responseBody: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'API Management', exact: true });
    this.keyName = page.getByLabel('Key name', { exact: true });
    this.createKey = page.getByRole('button', { name: 'Create Key', exact: true });
    this.keyRows = page.getByTestId('api-key-row');
    this.newKeyDialog = page.getByRole('dialog', { name: 'API key created' });
    this.newKey = page.getByTestId('new-api-key');
    this.consoleKey = page.getByLabel('API key', { exact: true });
    this.template = page.getByLabel('Template', { exact: true });
    this.recipient = page.getByLabel('Recipient number', { exact: true });
    this.sendTest = page.getByRole('button', { name: 'Send Test Request', exact: true });
    this.preview = page.getByTestId('template-preview');
    this.responseStatus = page.getByTestId('api-console-status');
    this.responseBody = page.getByTestId('api-console-body');
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/api-management');
    await expect(this.heading).toBeVisible();
  }

  /** The figure of a stat card (the row of cards above the keys), found by its label. */
  stat(label: string): Locator {
    return this.page
      .locator('div[aria-busy]')
      .first()
      .locator('div.rounded-xl', { has: this.page.getByText(label, { exact: true }) })
      .locator('p.text-2xl');
  }

  /** Creates a key and answers the full key from the shown-once dialog, which it then closes. */
  async create(name: string): Promise<string> {
    await this.keyName.fill(name);
    await this.createKey.click();
    await expect(this.newKeyDialog).toBeVisible();
    const key = await this.newKey.inputValue();
    await this.newKeyDialog.getByRole('button', { name: 'Done', exact: true }).click();
    await expect(this.newKeyDialog).toBeHidden();
    return key;
  }

  row(name: string): Locator {
    return this.keyRows.filter({ hasText: name });
  }

  async revoke(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Revoke ${name}`, exact: true }).click();
    const dialog = this.page.getByRole('alertdialog');
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  param(name: string): Locator {
    return this.page.getByLabel(name, { exact: true });
  }

  /** The code example of one language tab. */
  async example(tab: 'cURL' | 'JavaScript' | 'Python'): Promise<Locator> {
    await this.page.getByRole('tab', { name: tab, exact: true }).click();
    return this.page.getByRole('tabpanel', { name: tab }).locator('pre');
  }

  async docsTab(name: 'Overview' | 'Endpoints' | 'Examples' | 'Error Codes'): Promise<Locator> {
    await this.page.getByRole('tab', { name, exact: true }).click();
    return this.page.getByRole('tabpanel', { name });
  }
}
