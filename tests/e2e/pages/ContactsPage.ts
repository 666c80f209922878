import { expect, type Locator, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';

const s = messages.contactScreens;

/** /user/contacts and the screens it leads to: a contact's page and its edit form, and the import. */
export class ContactsPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly search: Locator;
  readonly importLink: Locator;
  readonly segmentsLink: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 2, name: s.title, exact: true });
    this.table = page.getByRole('table', { name: s.title });
    this.search = page.getByLabel(s.searchLabel, { exact: true });
    this.importLink = page.getByRole('link', { name: s.importContacts });
    this.segmentsLink = page.getByRole('link', { name: s.segments, exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/contacts');
    await expect(this.heading).toBeVisible();
  }

  row(text: string): Locator {
    return this.table.getByRole('row').filter({ hasText: text });
  }

  /** Opens a contact's page from its row's name. */
  async open(name: string): Promise<ContactDetails> {
    await this.table.getByRole('link', { name, exact: true }).click();
    const details = new ContactDetails(this.page);
    await expect(this.page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
    return details;
  }
}

/** /user/contacts/:phone */
export class ContactDetails {
  readonly edit: Locator;
  readonly tags: Locator;
  readonly tagsField: Locator;
  readonly save: Locator;
  readonly history: Locator;

  constructor(private readonly page: Page) {
    this.edit = page.getByRole('button', { name: s.edit, exact: true });
    this.tags = page.getByRole('list', { name: s.tagsTitle });
    this.tagsField = page.getByRole('textbox', { name: s.tagsLabel, exact: true });
    this.save = page.getByRole('button', { name: s.save, exact: true });
    this.history = page.getByRole('table', { name: s.historyTitle });
  }

  count(kind: keyof typeof s.counts): Locator {
    return this.page.locator('dl div').filter({ has: this.page.getByText(s.counts[kind], { exact: true }) }).locator('dd');
  }

  attribute(name: string): Locator {
    return this.page.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]');
  }
}

/** /user/contacts/import */
export class ContactImportPage {
  readonly file: Locator;
  readonly extraTags: Locator;
  readonly start: Locator;
  readonly downloadInvalid: Locator;

  constructor(private readonly page: Page) {
    this.file = page.getByLabel(s.fileLabel, { exact: true });
    this.extraTags = page.getByLabel(s.extraTagsLabel, { exact: true });
    this.start = page.getByRole('button', { name: s.startImport, exact: true });
    this.downloadInvalid = page.getByRole('button', { name: s.downloadInvalid, exact: true });
  }

  useOf(column: string): Locator {
    return this.page.getByLabel(`${s.useAsLabel}: ${column}`, { exact: true });
  }

  resultText(counts: { created: number; updated: number; skipped: number; invalid: number }): string {
    return fillMessage(s.result, { created: counts.created, updated: counts.updated, skipped: counts.skipped, invalid: counts.invalid });
  }
}
