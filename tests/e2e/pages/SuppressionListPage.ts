import { expect, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';

const s = messages.suppressions;

/** /user/suppression-list: add, search, remove, import and export suppressed numbers. */
export class SuppressionListPage {
  readonly heading: Locator;
  readonly phone: Locator;
  readonly reason: Locator;
  readonly add: Locator;
  readonly search: Locator;
  readonly importFile: Locator;
  readonly table: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 2, name: s.title, exact: true });
    this.phone = page.getByLabel(s.phoneLabel, { exact: true });
    this.reason = page.getByLabel(s.reasonLabel, { exact: true });
    this.add = page.getByRole('button', { name: s.add, exact: true });
    this.search = page.getByLabel(s.searchLabel, { exact: true });
    this.importFile = page.locator('input[type="file"]');
    this.table = page.getByRole('table', { name: s.title });
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/suppression-list');
    await expect(this.heading).toBeVisible();
  }

  row(text: string): Locator {
    return this.table.getByRole('row').filter({ hasText: text });
  }

  removeButton(formattedPhone: string): Locator {
    return this.page.getByRole('button', { name: s.removeLabel.replace('{phone}', formattedPhone), exact: true });
  }
}
