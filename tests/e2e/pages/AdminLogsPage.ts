import type { Locator, Page } from '@playwright/test';
import { messages } from '@shared/messages';

const text = messages.logs;

/** /admin/logs: the three figure cards, the cleanup and the test-notification buttons. */
export class AdminLogsPage {
  readonly refresh: Locator;
  readonly cleanUp: Locator;
  readonly thresholdDate: Locator;
  readonly lastDailyRun: Locator;
  readonly result: Locator;

  constructor(private readonly page: Page) {
    this.refresh = page.getByRole('button', { name: text.refreshStats });
    this.cleanUp = page.getByRole('button', { name: text.cleanUpNow });
    this.thresholdDate = page.getByTestId('threshold-date');
    this.lastDailyRun = page.getByTestId('last-daily-run');
    this.result = page.getByTestId('cleanup-result');
  }

  async goto(): Promise<void> {
    await this.page.goto('/admin/logs');
  }

  /** The figure on a stat card, by its label. */
  card(label: string): Locator {
    return this.page.getByText(label, { exact: true }).locator('xpath=ancestor::div[contains(@class, "p-5")][1]').locator('p.text-2xl');
  }

  confirmDialog(): Locator {
    return this.page.getByRole('alertdialog');
  }

  testButton(label: string): Locator {
    return this.page.getByRole('button', { name: label, exact: true });
  }
}
