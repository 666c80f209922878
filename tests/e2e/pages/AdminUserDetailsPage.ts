import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/users/:id/details: basic information (left) and business information (right). */
export class AdminUserDetailsPage {
  readonly name: Locator;
  readonly businessName: Locator;
  readonly whatsappNumber: Locator;
  readonly numberId: Locator;
  readonly wabaId: Locator;
  readonly webhookUrl: Locator;
  readonly accessToken: Locator;
  readonly accessTokenStatus: Locator;
  readonly appSecret: Locator;
  readonly active: Locator;
  readonly save: Locator;

  constructor(private readonly page: Page) {
    this.name = page.getByLabel('Full Name', { exact: true });
    this.businessName = page.getByLabel('Business Name', { exact: true });
    this.whatsappNumber = page.getByLabel('WhatsApp Number', { exact: true });
    this.numberId = page.getByLabel('Phone Number ID', { exact: true });
    this.wabaId = page.getByLabel('WhatsApp Business Account ID', { exact: true });
    this.webhookUrl = page.getByLabel('Webhook URL', { exact: true });
    this.accessToken = page.getByLabel('Access Token', { exact: true });
    this.accessTokenStatus = page.getByTestId('business-accessToken-status');
    this.appSecret = page.getByLabel('App Secret', { exact: true });
    this.active = page.getByRole('switch', { name: 'Active' });
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
