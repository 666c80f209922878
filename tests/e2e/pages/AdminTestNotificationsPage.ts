import type { Locator, Page } from '@playwright/test';
import { messages } from '@shared/messages';

const text = messages.notificationTest;

/** /admin/test-notifications: style buttons, demos and the live counters. */
export class AdminTestNotificationsPage {
  readonly list: Locator;
  readonly clearAll: Locator;
  readonly sequential: Locator;
  readonly campaignFlow: Locator;

  constructor(private readonly page: Page) {
    this.list = page.getByRole('list', { name: text.current });
    this.clearAll = page.getByRole('button', { name: text.clearAll });
    this.sequential = page.getByRole('button', { name: text.sequential });
    this.campaignFlow = page.getByRole('button', { name: text.campaignFlow });
  }

  async goto(): Promise<void> {
    await this.page.goto('/admin/test-notifications');
  }

  button(label: string): Locator {
    return this.page.getByRole('button', { name: label, exact: true });
  }

  cycle(): Locator {
    return this.page.getByRole('button', { name: /Next Sample Message/ });
  }

  /** A counter's figure, by its card label. */
  counter(label: string): Locator {
    return this.page.getByText(label, { exact: true }).locator('xpath=ancestor::div[contains(@class, "p-5")][1]').locator('p.text-2xl');
  }

  items(type?: string): Locator {
    return type ? this.list.locator(`li[data-type="${type}"]`) : this.list.locator('li');
  }
}
