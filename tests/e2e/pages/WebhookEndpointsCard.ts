import type { Locator, Page } from '@playwright/test';

/** The Webhooks card of /user/api-management. */
export class WebhookEndpointsCard {
  readonly url: Locator;
  readonly description: Locator;
  readonly add: Locator;
  readonly rows: Locator;
  readonly secretDialog: Locator;
  readonly secret: Locator;

  constructor(private readonly page: Page) {
    this.url = page.getByLabel('Endpoint URL', { exact: true });
    this.description = page.getByLabel('Description (optional)', { exact: true });
    this.add = page.getByRole('button', { name: 'Add endpoint', exact: true });
    this.rows = page.getByTestId('webhook-endpoint-row');
    this.secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    this.secret = page.getByTestId('webhook-secret');
  }

  event(type: string): Locator {
    return this.page.getByRole('checkbox', { name: type, exact: true });
  }

  row(url: string): Locator {
    return this.rows.filter({ hasText: url });
  }
}
