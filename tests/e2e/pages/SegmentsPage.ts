import { expect, type Locator, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';

const s = messages.contactScreens;

/** /user/segments: the filter editor with its live count, and the saved segments. */
export class SegmentsPage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly tagsAny: Locator;
  readonly tagsAll: Locator;
  readonly tagsNone: Locator;
  readonly addAttributeCondition: Locator;
  readonly optIn: Locator;
  readonly save: Locator;
  readonly saved: Locator;
  readonly count: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 2, name: s.segmentsTitle, exact: true });
    this.name = page.getByLabel(s.segmentNameLabel, { exact: true });
    this.tagsAny = page.getByLabel(s.tagsAnyLabel, { exact: true });
    this.tagsAll = page.getByLabel(s.tagsAllLabel, { exact: true });
    this.tagsNone = page.getByLabel(s.tagsNoneLabel, { exact: true });
    this.addAttributeCondition = page.getByRole('button', { name: s.addAttributeCondition, exact: true });
    this.optIn = page.getByLabel(s.optInLabel, { exact: true });
    this.save = page.getByRole('button', { name: s.save, exact: true });
    this.saved = page.getByRole('list', { name: s.segmentsTitle });
    this.count = page.getByRole('status').filter({ hasText: /can be messaged|Counting/ });
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/segments');
    await expect(this.heading).toBeVisible();
  }

  countText(count: number, optedOut: number): string {
    return fillMessage(s.segmentCount, { count, opted_out: optedOut });
  }

  condition(index: number): { attribute: Locator; op: Locator; value: Locator } {
    return {
      attribute: this.page.getByLabel(`${s.conditionAttributeLabel} ${index}`, { exact: true }),
      op: this.page.getByLabel(`${s.conditionOpLabel} ${index}`, { exact: true }),
      value: this.page.getByLabel(`${s.conditionValueLabel} ${index}`, { exact: true }),
    };
  }
}
