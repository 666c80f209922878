import { expect, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';

const p = messages.profile;

/** /user/profile's Personal Information card: the business, GSTIN and billing details printed on tax invoices. */
export class ProfileDetailsPage {
  readonly edit: Locator;
  readonly save: Locator;
  readonly businessName: Locator;
  readonly gstin: Locator;
  readonly billingAddress: Locator;
  readonly billingState: Locator;

  constructor(private readonly page: Page) {
    this.edit = page.getByRole('button', { name: 'Edit', exact: true });
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.businessName = page.getByLabel(p.businessNameLabel, { exact: true });
    this.gstin = page.getByLabel(p.gstinLabel, { exact: true });
    this.billingAddress = page.getByLabel(p.billingAddressLabel, { exact: true });
    this.billingState = page.getByLabel(p.billingStateLabel, { exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/profile');
    await expect(this.edit).toBeVisible();
  }

  /** Enters the billing details and saves them. */
  async saveBilling(details: { businessName: string; gstin: string; address: string; state: string }): Promise<void> {
    await this.edit.click();
    await this.businessName.fill(details.businessName);
    await this.gstin.fill(details.gstin);
    await this.billingAddress.fill(details.address);
    await this.billingState.selectOption({ label: details.state });
    await this.save.click();
    await expect(this.page.getByText(messages.auth.profileUpdated).first()).toBeVisible();
  }
}
