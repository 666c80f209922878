import type { Locator, Page } from '@playwright/test';

/** The Meta Cloud API card of the Provider tab of /admin/users/:id/settings (business info and secrets). */
export class CloudApiCard {
  readonly form: Locator;
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

  constructor(page: Page) {
    this.form = page.getByRole('form', { name: 'Meta Cloud API settings' });
    this.businessName = this.form.getByLabel('Business Name', { exact: true });
    this.whatsappNumber = this.form.getByLabel('WhatsApp Number', { exact: true });
    this.numberId = this.form.getByLabel('Phone Number ID', { exact: true });
    this.wabaId = this.form.getByLabel('WhatsApp Business Account ID', { exact: true });
    this.webhookUrl = this.form.getByLabel('Business Webhook URL', { exact: true });
    this.accessToken = this.form.getByLabel('Access Token', { exact: true });
    this.accessTokenStatus = this.form.getByTestId('business-accessToken-status');
    this.appSecret = this.form.getByLabel('App Secret', { exact: true });
    this.active = this.form.getByRole('switch', { name: 'Active' });
    this.save = this.form.getByRole('button', { name: 'Save Cloud API Settings' });
  }
}
