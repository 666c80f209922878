import type { Locator, Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';

const s = messages.contactScreens;

/**
 * The Contacts recipient source of a send screen (Quick Send, Customize Message): a segment or
 * tagged contacts, variables from attributes with fallbacks, the dry-run preview and the send.
 */
export class ContactsSource {
  readonly root: Locator;
  readonly segment: Locator;
  readonly tagsChoice: Locator;
  readonly tags: Locator;
  readonly tagsMatch: Locator;
  readonly previewButton: Locator;
  readonly sample: Locator;
  readonly send: Locator;

  constructor(
    private readonly page: Page,
    idPrefix: 'quick-send' | 'customize',
  ) {
    this.root = page.getByTestId(`${idPrefix}-contacts-source`);
    this.segment = this.root.getByLabel(s.segmentFilterLabel, { exact: true });
    this.tagsChoice = this.root.getByRole('radio', { name: s.audienceTags, exact: true });
    this.tags = this.root.getByLabel(s.tagsLabel, { exact: true });
    this.tagsMatch = this.root.getByLabel(s.tagsMatchLabel, { exact: true });
    this.previewButton = this.root.getByTestId(`${idPrefix}-audience-preview`);
    this.sample = this.root.getByTestId(`${idPrefix}-audience-sample`);
    this.send = this.root.getByTestId(`${idPrefix}-audience-send`);
  }

  source(variable: string): Locator {
    return this.root.getByLabel(fillMessage(s.variableSourceLabel, { variable: `{{${variable}}}` }), { exact: true });
  }

  fallback(variable: string): Locator {
    return this.root.getByLabel(fillMessage(s.fallbackLabel, { variable: `{{${variable}}}` }), { exact: true });
  }

  fixedText(variable: string): Locator {
    return this.root.getByLabel(fillMessage(s.fixedTextLabel, { variable: `{{${variable}}}` }), { exact: true });
  }

  /** A figure of the preview by its term. */
  figure(term: string): Locator {
    return this.root.locator('dl div').filter({ has: this.page.getByText(term, { exact: true }) }).locator('dd');
  }
}
