import type { Locator, Page } from '@playwright/test';

export type PriceCategory = 'marketing' | 'utility' | 'authentication' | 'service';

const priceLabels: Record<PriceCategory, string> = {
  marketing: 'Marketing (₹)',
  utility: 'Utility (₹)',
  authentication: 'Authentication (₹)',
  service: 'Service replies (₹)',
};

/** /admin/users/:id/settings and its tabs. */
export class AdminUserSettingsPage {
  readonly customPricing: Locator;
  readonly effectivePrices: Locator;
  readonly pricingMode: Locator;

  constructor(private readonly page: Page) {
    this.customPricing = page.getByRole('switch', { name: 'Use custom pricing' });
    this.effectivePrices = page.getByTestId('effective-prices');
    this.pricingMode = page.getByTestId('pricing-mode');
  }

  async goto(userId: string): Promise<void> {
    await this.page.goto(`/admin/users/${userId}/settings`);
  }

  async openTab(name: 'Basic Information' | 'Pricing' | 'Security'): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  price(category: PriceCategory): Locator {
    return this.page.getByLabel(priceLabels[category], { exact: true });
  }

  async savePricing(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save Pricing' }).click();
  }
}
