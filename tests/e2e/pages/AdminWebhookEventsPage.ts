import type { Locator, Page } from '@playwright/test';
import { messages } from '@shared/messages';

const text = messages.unknownWebhookEvents;

/** /admin/webhook-events: signed webhook changes the server stored without acting on them. */
export class AdminWebhookEventsPage {
  readonly heading: Locator;
  readonly refresh: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: text.title, level: 2 });
    this.refresh = page.getByRole('button', { name: messages.reportsScreen.refresh });
  }

  /** The row of a stored change, by its field. */
  row(field: string): Locator {
    return this.page.getByTestId('unknown-webhook-event').filter({ hasText: field });
  }

  /** The body viewer of a change, once opened. */
  body(field: string): Locator {
    return this.page.getByLabel(`${text.body}: ${field}`);
  }

  viewButton(field: string): Locator {
    return this.row(field).getByRole('button', { name: `${text.view} ${field}` });
  }
}
