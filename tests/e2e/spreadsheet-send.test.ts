import { readFile } from 'node:fs/promises';
import { expect, test, type Locator } from '@playwright/test';
import ExcelJS from 'exceljs';
import { fillMessage, messages } from '@shared/messages';
import { CustomizeMessagePage } from './pages/CustomizeMessagePage';
import { QuickSendPage } from './pages/QuickSendPage';
import { SheetStep } from './pages/SheetStep';
import { approvedTemplate, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

const m = messages.sheetScreens;
const ui = messages.sendScreens;

/**
 * On the web shell: a spreadsheet read in the browser's Web Worker, its rows checked
 * (invalid rows listed and downloadable, repeated numbers removed), the checked rows uploaded
 * through the resumable API, the cost previewed for the whole upload and the campaign sent from it.
 */
/** The cost summary prices exactly `recipients` messages: the total is that many times the per-message price. */
async function expectCostFor(summary: Locator, recipients: number): Promise<void> {
  await expect(summary).toContainText(`Recipients${recipients}Template`);
  const text = (await summary.textContent()) ?? '';
  const price = Number(/Per-message price₹([\d.]+)/.exec(text)?.[1]);
  const total = Number(/Total cost₹([\d.,]+)/.exec(text)?.[1]?.replace(/,/g, ''));
  expect(price).toBeGreaterThan(0);
  expect(total).toBeCloseTo(price * recipients, 2);
}

test.describe('sending from a spreadsheet read in the browser', () => {
  test('Customize Message: a dropped CSV with invalid and repeated rows is counted, checked, priced and sent', async ({ page, baseURL }) => {
    const user = await signedInUser(page, baseURL ?? '', 100, { name: 'Kavya Iyer', prefix: 'sheet_csv' });
    const name = unique('order_ready');
    await approvedTemplate(baseURL ?? '', user, { name, category: 'UTILITY', bodyText: 'Hello {{1}}, your order {{2}} is ready.', variableExamples: { '1': 'Priya', '2': 'A-100' } });
    const [first, second] = [testPhone(), testPhone()];
    const csv = [
      'Name,Mobile,Order',
      `Asha,${first},A-1`,
      'Ravi,not a number,A-2',
      `Kiran,+${second},A-3`,
      // Repeats: the number and every value of an earlier row (a second order would be sent).
      `Asha,${first},A-1`,
      'Meena,12,A-5',
      `Kiran,${second},A-3`,
      '',
    ].join('\r\n');

    const customize = new CustomizeMessagePage(page);
    const sheet = new SheetStep(page, 'customize-file-input');
    await customize.goto();
    await customize.template.selectOption({ label: name.replace(/_/g, ' ') });

    await sheet.drop('customers.csv', 'text/csv', csv);
    await expect(sheet.rowCount).toHaveText('6 rows in customers.csv · 3 columns');
    await expect(customize.recipientColumn).toHaveValue('Mobile');
    // Not touched yet: not shown as errors.
    await expect(customize.mapping('1')).not.toHaveAttribute('aria-invalid', 'true');
    await customize.mapping('1').selectOption('Name');
    await customize.mapping('2').selectOption('Order');

    await sheet.checkButton.click();
    await expect(sheet.uploaded).toHaveText(fillMessage(m.uploadComplete, { count: '2' }));
    await expect(sheet.validRows).toHaveText('2');
    await expect(sheet.invalidRows).toHaveText('2');
    await expect(sheet.duplicates).toHaveText('2');
    // Every row not sent, the repeats with the row they repeat.
    await expect(sheet.invalidList.locator('tbody tr')).toHaveCount(4);
    await expect(sheet.invalidList).toContainText('not a number');
    await expect(sheet.invalidList).toContainText(fillMessage(messages.sending.skipped.duplicate_in_list, { row: 2 }));

    const download = page.waitForEvent('download');
    await sheet.downloadInvalid.click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(m.invalidCsvName);
    const invalidCsv = await readFile((await saved.path()) ?? '', 'utf8');
    expect(invalidCsv.split(/\r?\n/)[0]).toBe('line,value,reason');
    expect(invalidCsv).toContain('3,not a number,');
    expect(invalidCsv).toContain('6,12,');
    expect(invalidCsv).toContain(`5,${first},`);

    await expect(customize.sendButton).toHaveText('Send Messages (2)');
    await customize.sendButton.click();
    // The exact cost of the whole upload (the 2 checked rows), from the dry run of this very send.
    await expect(customize.costDialog).toBeVisible();
    await expectCostFor(customize.costDialog.getByTestId('cost-summary'), 2);
    await customize.costDialog.getByRole('button', { name: ui.sendCampaign, exact: true }).click();

    await expect(customize.resultDialog.getByRole('heading', { name: ui.campaignAccepted })).toBeVisible();
    const progress = customize.resultDialog.getByTestId('campaign-progress');
    await expect(progress.getByTestId('campaign-processed')).toHaveText('2 of 2 processed (100%)', { timeout: 30_000 });
  });

  test('Quick Send: a chosen XLSX gives its numbers, checked and sent to the template', async ({ page, baseURL }) => {
    const user = await signedInUser(page, baseURL ?? '', 100, { name: 'Arjun Nair', prefix: 'sheet_xlsx' });
    const name = unique('pickup_ready');
    await approvedTemplate(baseURL ?? '', user, { name, category: 'UTILITY', bodyText: 'Your order is ready for pickup.' });
    const phones = [testPhone(), testPhone(), testPhone()];
    const book = new ExcelJS.Workbook();
    const rows = book.addWorksheet('Recipients');
    rows.addRow(['Customer', 'WhatsApp']);
    rows.addRow(['Asha', Number(phones[0])]);
    rows.addRow(['Ravi', phones[1]]);
    rows.addRow(['Kiran', 'call me']);
    rows.addRow(['Meena', phones[2]]);
    rows.addRow(['Asha again', phones[0]]);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());

    const quick = new QuickSendPage(page);
    const sheet = new SheetStep(page, 'quick-send-file-input');
    await quick.goto();
    await quick.template.selectOption({ label: name.replace(/_/g, ' ') });
    await quick.fromSpreadsheet.check();
    // The "Choose file" button is reachable by keyboard and opens the file dialog.
    await sheet.chooseFile.focus();
    await expect(sheet.chooseFile).toBeFocused();
    await sheet.choose('recipients.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xlsx);

    await expect(sheet.rowCount).toHaveText('5 rows in recipients.xlsx · 2 columns');
    await expect(page.getByLabel(m.recipientColumnLabel, { exact: true })).toHaveValue('WhatsApp');
    await expect(quick.sendButton).toContainText('(5)');
    await quick.sendButton.click();
    await expect(sheet.validRows).toHaveText('3');
    await expect(sheet.invalidRows).toHaveText('1');
    await expect(sheet.duplicates).toHaveText('1');
    await expect(quick.costDialog).toBeVisible();
    await expectCostFor(quick.costDialog.getByTestId('cost-summary'), 3);
    await quick.confirmSend();

    await expect(quick.resultDialog.getByRole('heading', { name: ui.campaignAccepted })).toBeVisible();
    const progress = quick.resultDialog.getByTestId('campaign-progress');
    await expect(progress.getByTestId('campaign-processed')).toHaveText('3 of 3 processed (100%)', { timeout: 30_000 });
  });

  test('a file that is not a spreadsheet is refused before anything is read', async ({ page, baseURL }) => {
    await signedInUser(page, baseURL ?? '', 0, { name: 'Dev Rao', prefix: 'sheet_bad' });
    const customize = new CustomizeMessagePage(page);
    const sheet = new SheetStep(page, 'customize-file-input');
    await customize.goto();
    await sheet.drop('notes.txt', 'text/plain', 'hello');
    await expect(sheet.error).toHaveText(m.unsupportedType);
    await expect(sheet.table).toHaveCount(0);
  });
});
