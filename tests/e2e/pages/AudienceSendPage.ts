import type { Locator, Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';

const s = messages.contactScreens;

/** /user/contacts/send: a template to a segment or tagged contacts, with variables from attributes. */
export class AudienceSendPage {
  readonly heading: Locator;
  readonly segment: Locator;
  readonly tagsChoice: Locator;
  readonly tags: Locator;
  readonly template: Locator;
  readonly campaignName: Locator;
  readonly previewButton: Locator;
  readonly preview: Locator;
  readonly send: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 2, name: s.sendTitle, exact: true });
    this.segment = page.getByLabel(s.segmentFilterLabel, { exact: true });
    this.tagsChoice = page.getByRole('radio', { name: s.audienceTags });
    this.tags = page.getByLabel(s.tagsLabel, { exact: true });
    this.template = page.getByLabel(s.templateLabel, { exact: true });
    this.campaignName = page.getByLabel(s.campaignNameLabel, { exact: true });
    this.previewButton = page.getByRole('button', { name: s.previewButton, exact: true });
    this.preview = page.getByRole('definition');
    this.send = page.getByRole('button', { name: s.send, exact: true });
  }

  source(variable: string): Locator {
    return this.page.getByLabel(fillMessage(s.variableSourceLabel, { variable: `{{${variable}}}` }), { exact: true });
  }

  fallback(variable: string): Locator {
    return this.page.getByLabel(fillMessage(s.fallbackLabel, { variable: `{{${variable}}}` }), { exact: true });
  }

  /** A figure of the preview by its term. */
  figure(term: string): Locator {
    return this.page.locator('dl div').filter({ has: this.page.getByText(term, { exact: true }) }).locator('dd');
  }
}
