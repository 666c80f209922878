import { expect, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { ContactsSource } from './ContactsSource';

const ui = messages.sendScreens;

/** /user/whatsapp-bulk: the quick send form with its send-now-or-later choice, its side panel and its three dialogs. */
export class QuickSendPage {
  readonly number: Locator;
  readonly language: Locator;
  readonly template: Locator;
  readonly campaignName: Locator;
  readonly recipients: Locator;
  readonly recipientCount: Locator;
  readonly importInput: Locator;
  readonly importDialog: Locator;
  readonly headerImageInput: Locator;
  readonly preview: Locator;
  readonly campaignPreview: Locator;
  readonly setupPercent: Locator;
  readonly sendButton: Locator;
  readonly costDialog: Locator;
  readonly resultDialog: Locator;
  readonly sendNow: Locator;
  readonly scheduleLater: Locator;
  readonly scheduleTime: Locator;
  readonly scheduleTimeText: Locator;
  readonly timingNote: Locator;
  /** Recipients from a spreadsheet read on this computer instead of typed numbers. */
  readonly fromSpreadsheet: Locator;
  /** Recipients from the contact book: a segment or tags. */
  readonly fromContacts: Locator;
  readonly contacts: ContactsSource;

  constructor(private readonly page: Page) {
    this.number = page.getByLabel('WhatsApp Number', { exact: true });
    this.language = page.getByLabel('Language', { exact: true });
    this.template = page.getByLabel('Template', { exact: true });
    this.campaignName = page.getByLabel('Campaign Name (optional)', { exact: true });
    this.recipients = page.getByLabel('Recipients', { exact: true });
    this.recipientCount = page.getByTestId('recipient-count');
    this.importInput = page.getByTestId('recipients-import-input');
    this.importDialog = page.getByTestId('import-result-dialog');
    this.headerImageInput = page.getByTestId('header-image-input');
    this.preview = page.getByTestId('template-preview');
    this.campaignPreview = page.getByTestId('campaign-preview');
    this.setupPercent = page.getByTestId('setup-percent');
    this.sendButton = page.getByTestId('quick-send-submit');
    this.costDialog = page.getByRole('dialog').filter({ has: page.getByTestId('cost-summary') });
    this.resultDialog = page.getByTestId('send-result-dialog');
    this.sendNow = page.getByRole('radio', { name: ui.sendNow, exact: true });
    this.scheduleLater = page.getByRole('radio', { name: ui.scheduleLater, exact: true });
    this.scheduleTime = page.getByLabel(ui.scheduleTimeLabel, { exact: true });
    this.scheduleTimeText = page.getByTestId('schedule-time-text');
    this.timingNote = page.getByTestId('send-timing-note');
    this.fromSpreadsheet = page.getByRole('radio', { name: messages.sheetScreens.modeSpreadsheet, exact: true });
    this.fromContacts = page.getByRole('radio', { name: messages.sheetScreens.modeContacts, exact: true });
    this.contacts = new ContactsSource(page, 'quick-send');
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/whatsapp-bulk');
    await expect(this.page.getByRole('heading', { name: ui.quickSendTitle })).toBeVisible();
  }

  variable(index: string): Locator {
    return this.page.getByLabel(`Variable {{${index}}}`);
  }

  async importFile(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    await this.importInput.setInputFiles({ name, mimeType, buffer });
  }

  async continueImport(): Promise<void> {
    await this.importDialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(this.importDialog).toBeHidden();
  }

  async confirmSend(): Promise<void> {
    await this.costDialog.getByRole('button', { name: ui.confirmAndSend, exact: true }).click();
  }

  async confirmSchedule(): Promise<void> {
    await this.costDialog.getByRole('button', { name: ui.confirmAndSchedule, exact: true }).click();
  }

  /** A row of the side panel's Campaign Summary by its label. */
  summaryRow(label: string): Locator {
    return this.page.getByTestId('campaign-summary').locator('div').filter({ has: this.page.getByText(label, { exact: true }) }).locator('dd');
  }

  costRow(label: string): Locator {
    return this.costDialog.getByTestId('cost-summary').locator('div').filter({ has: this.page.getByText(label, { exact: true }) });
  }
}
