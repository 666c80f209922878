import type { Locator, Page } from '@playwright/test';
import { messages } from '@shared/messages';

const m = messages.sheetScreens;

/** The send screens' spreadsheet step: drop zone, rows read, rows checked, the upload. */
export class SheetStep {
  readonly dropZone: Locator;
  readonly chooseFile: Locator;
  readonly file: Locator;
  readonly rowCount: Locator;
  readonly table: Locator;
  readonly error: Locator;
  readonly checkButton: Locator;
  readonly validRows: Locator;
  readonly invalidRows: Locator;
  readonly duplicates: Locator;
  readonly invalidList: Locator;
  readonly downloadInvalid: Locator;
  readonly uploaded: Locator;

  constructor(
    private readonly page: Page,
    private readonly inputTestId: string,
  ) {
    this.dropZone = page.getByTestId('sheet-drop-zone');
    this.chooseFile = page.getByRole('button', { name: m.chooseFile, exact: true });
    this.file = page.getByTestId('sheet-file');
    this.rowCount = page.getByTestId('sheet-row-count');
    this.table = page.getByTestId('sheet-table');
    this.error = page.getByTestId('sheet-error');
    this.checkButton = page.getByRole('button', { name: m.checkAndUpload, exact: true });
    this.validRows = page.getByTestId('sheet-valid-rows');
    this.invalidRows = page.getByTestId('sheet-invalid-rows');
    this.duplicates = page.getByTestId('sheet-duplicates');
    this.invalidList = page.getByTestId('sheet-invalid-list');
    this.downloadInvalid = page.getByRole('button', { name: m.downloadInvalid, exact: true });
    this.uploaded = page.getByTestId('sheet-uploaded');
  }

  /** Chooses a file through the "Choose file" button and the file dialog it opens. */
  async choose(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.chooseFile.click();
    await (await chooser).setFiles({ name, mimeType, buffer });
  }

  /** Drops a file on the drop zone as a drag from the desktop would. */
  async drop(name: string, mimeType: string, content: string): Promise<void> {
    // A string expression: the e2e sources compile without the DOM library.
    const transfer = await this.page.evaluateHandle(
      `(() => { const data = new DataTransfer(); data.items.add(new File([${JSON.stringify(content)}], ${JSON.stringify(name)}, { type: ${JSON.stringify(mimeType)} })); return data; })()`,
    );
    await this.dropZone.dispatchEvent('dragover', { dataTransfer: transfer });
    await this.dropZone.dispatchEvent('drop', { dataTransfer: transfer });
  }

  input(): Locator {
    return this.page.getByTestId(this.inputTestId);
  }
}
