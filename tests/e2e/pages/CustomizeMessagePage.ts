import { expect, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { ContactsSource } from './ContactsSource';

const ui = messages.sendScreens;

/** /user/customize-message: configuration, spreadsheet (read, checked and uploaded locally), mapping, preview and the send dialogs. */
export class CustomizeMessagePage {
  readonly number: Locator;
  readonly language: Locator;
  readonly template: Locator;
  readonly fileInput: Locator;
  readonly rowCount: Locator;
  readonly sheetTable: Locator;
  readonly recipientColumn: Locator;
  readonly generatePreview: Locator;
  readonly generatedPreview: Locator;
  readonly sendButton: Locator;
  readonly costDialog: Locator;
  readonly resultDialog: Locator;
  readonly setupPercent: Locator;
  readonly sheetError: Locator;
  readonly validRows: Locator;
  readonly invalidRows: Locator;
  readonly duplicates: Locator;
  readonly invalidList: Locator;
  readonly uploaded: Locator;
  /** Rows from the contact book (a segment or tags) instead of a spreadsheet. */
  readonly fromContacts: Locator;
  readonly contacts: ContactsSource;

  constructor(private readonly page: Page) {
    this.number = page.getByLabel('WhatsApp Number', { exact: true });
    this.language = page.getByLabel('Language', { exact: true });
    this.template = page.getByLabel('Template', { exact: true });
    this.fileInput = page.getByTestId('customize-file-input');
    this.rowCount = page.getByTestId('sheet-row-count');
    this.sheetTable = page.getByTestId('sheet-table');
    this.recipientColumn = page.getByLabel('Recipient Phone Column', { exact: true });
    this.generatePreview = page.getByRole('button', { name: ui.generatePreview, exact: true });
    this.generatedPreview = page.getByTestId('generated-preview');
    this.sendButton = page.getByTestId('customize-send');
    this.costDialog = page.getByRole('dialog').filter({ has: page.getByTestId('cost-summary') });
    this.resultDialog = page.getByTestId('send-result-dialog');
    this.setupPercent = page.getByTestId('setup-percent');
    this.sheetError = page.getByTestId('sheet-error');
    this.validRows = page.getByTestId('sheet-valid-rows');
    this.invalidRows = page.getByTestId('sheet-invalid-rows');
    this.duplicates = page.getByTestId('sheet-duplicates');
    this.invalidList = page.getByTestId('sheet-invalid-list');
    this.uploaded = page.getByTestId('sheet-uploaded');
    this.fromContacts = page.getByRole('radio', { name: messages.sheetScreens.modeContacts, exact: true });
    this.contacts = new ContactsSource(page, 'customize');
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/customize-message');
    await expect(this.page.getByRole('heading', { name: ui.customizeTitle })).toBeVisible();
  }

  mapping(variable: string): Locator {
    return this.page.getByLabel(`Variable {{${variable}}}`, { exact: true });
  }

  async upload(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType, buffer });
  }
}
