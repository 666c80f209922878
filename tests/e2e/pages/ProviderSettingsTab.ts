import { expect, type Locator, type Page } from '@playwright/test';

/** The channel card of the Provider tab of /admin/users/:id/settings. */
export class ProviderSettingsTab {
  readonly channelId: Locator;
  readonly apiKey: Locator;
  readonly reveal: Locator;
  readonly badge: Locator;
  readonly webhookUrl: Locator;
  readonly copy: Locator;
  readonly save: Locator;
  readonly reset: Locator;
  readonly details: Locator;

  constructor(private readonly page: Page) {
    this.channelId = page.getByLabel('Channel ID', { exact: true });
    this.apiKey = page.getByLabel('API Key', { exact: true });
    this.reveal = page.getByRole('button', { name: 'Hold to reveal API key' });
    this.badge = page.getByTestId('api-key-badge');
    this.webhookUrl = this.page.getByRole('form', { name: 'Channel provider settings' }).getByLabel('Webhook URL', { exact: true });
    this.copy = page.getByRole('button', { name: /webhook URL/ });
    this.save = page.getByRole('button', { name: 'Save Settings' });
    this.reset = page.getByRole('button', { name: 'Reset' });
    this.details = page.getByRole('form', { name: 'Channel provider settings' });
  }

  async open(userId: string): Promise<void> {
    await this.page.goto(`/admin/users/${userId}/settings?tab=provider`);
    await expect(this.page.getByRole('tab', { name: 'Provider' })).toHaveAttribute('aria-selected', 'true');
    await expect(this.channelId).toBeVisible();
  }

  /** Holds the reveal button with the mouse for `ms`, runs `whileHeld`, then lets go. */
  async holdReveal(ms: number, whileHeld: () => Promise<void>): Promise<void> {
    await this.reveal.hover();
    await this.page.mouse.down();
    await this.page.waitForTimeout(ms);
    await whileHeld();
    await this.page.mouse.up();
  }
}
