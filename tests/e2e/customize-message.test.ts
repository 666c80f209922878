import { expect, request, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { fillMessage, messages } from '@shared/messages';
import { xlsOf } from '@shared/spreadsheetReaders/legacyXlsFixtures';
import { CustomizeMessagePage } from './pages/CustomizeMessagePage';
import { LoginPage } from './pages/LoginPage';
import { approvedTemplate, testPhone } from './sending-support';
import { createUser, unique } from './support';
import { Toasts } from './pages/Toasts';

const m = messages.sheetScreens;
const ui = messages.sendScreens;

async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Customers');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

test.describe('customize message', () => {
  test('a user uploads a spreadsheet, maps its columns to the variables, previews the first messages and sends one per row', async ({
    page,
    baseURL,
  }) => {
    const user = await createUser(baseURL ?? '', { name: 'Meena Rao' });
    const name = unique('order_ready');
    await approvedTemplate(baseURL ?? '', user, {
      name,
      category: 'UTILITY',
      bodyText: 'Hello {{1}}, your order {{2}} is ready for pickup.',
      variableExamples: { '1': 'Priya', '2': 'A-100' },
    });
    const phones = [testPhone(), testPhone('0001'), testPhone(), testPhone('0000')];
    const file = await workbook([
      ['Customer', 'Mobile', 'Order No'],
      ['Asha', phones[0] ?? '', 'A-1'],
      ['Ravi', Number(phones[1]), 'A-2'],
      ['Kiran', phones[2] ?? '', 'A-3'],
      ['Meena', phones[3] ?? '', 'A-4'],
    ]);

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const customize = new CustomizeMessagePage(page);
    await customize.goto();
    await expect(customize.language).toHaveValue('en_US');
    await expect(customize.number).not.toHaveValue('');
    await customize.template.selectOption({ label: name.replace(/_/g, ' ') });
    await expect(customize.setupPercent).toHaveText('50% complete');

    // A file that is not a spreadsheet is refused before anything is read.
    await customize.upload('customers.pdf', 'application/pdf', Buffer.from('%PDF-1.4'));
    await expect(customize.sheetError).toHaveText(m.unsupportedType);

    await customize.upload('customers.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', file);
    await expect(customize.rowCount).toHaveText('4 rows in customers.xlsx · 3 columns');
    await expect(customize.sheetTable.locator('tbody tr')).toHaveCount(4);
    // The phone column is recognised by its name; untouched empty mappings are not shown as errors.
    await expect(customize.recipientColumn).toHaveValue('Mobile');
    await expect(customize.setupPercent).toHaveText('75% complete');
    await expect(customize.mapping('1')).not.toHaveAttribute('aria-invalid', 'true');

    await customize.mapping('1').selectOption('Customer');
    await customize.mapping('2').selectOption('Order No');
    await expect(customize.setupPercent).toHaveText('100% complete');
    await expect(page.getByTestId('template-preview')).toContainText('Hello Asha, your order A-1 is ready for pickup.');

    await customize.generatePreview.click();
    const previews = customize.generatedPreview.getByRole('listitem');
    await expect(previews).toHaveCount(3);
    await expect(previews.nth(0)).toContainText(`+${phones[0]}`);
    await expect(previews.nth(0)).toContainText('Hello Asha, your order A-1 is ready for pickup.');
    await expect(previews.nth(1)).toContainText('Hello Ravi, your order A-2 is ready for pickup.');
    await expect(previews.nth(2)).toContainText('Hello Kiran, your order A-3 is ready for pickup.');

    await expect(customize.sendButton).toHaveText('Send Messages (4)');
    // Send checks every row and uploads them, then previews the cost of the upload exactly.
    await customize.sendButton.click();
    await expect(customize.validRows).toHaveText('4');
    await expect(customize.costDialog).toBeVisible();
    await expect(customize.costDialog).toContainText('Utility (transactional)');
    await expect(customize.costDialog).toContainText('₹0.60');
    // 'Review Details' goes back to the form without sending.
    await customize.costDialog.getByRole('button', { name: ui.reviewDetails, exact: true }).click();
    await expect(customize.costDialog).toBeHidden();
    await customize.sendButton.click();
    await customize.costDialog.getByRole('button', { name: ui.sendCampaign, exact: true }).click();

    await expect(customize.resultDialog.getByRole('heading', { name: ui.campaignAccepted })).toBeVisible();
    await expect(customize.resultDialog).toContainText('4 messages queued');
    const progress = customize.resultDialog.getByTestId('campaign-progress');
    await expect(progress.getByTestId('campaign-status')).toHaveText('Completed', { timeout: 30_000 });
    await expect(progress.getByTestId('campaign-processed')).toHaveText('4 of 4 processed (100%)');
    await expect(progress.locator('div').filter({ has: page.getByText('Failed', { exact: true }) }).getByRole('definition')).toHaveText('1');
    await customize.resultDialog.getByRole('button', { name: 'OK', exact: true }).click();
    await expect(customize.resultDialog).toBeHidden();

    // Number, template, file, column, mappings, preview and rows are cleared for the next campaign.
    await expect(customize.number).toHaveValue('');
    await expect(customize.template).toHaveValue('');
    await expect(customize.sheetTable).toHaveCount(0);
    await expect(customize.generatedPreview).toHaveCount(0);
    await expect(customize.sendButton).toHaveText('Send Messages (0)');
  });

  test('a second order to the same customer is sent, and only a row repeating number and values is listed, with its row, and not charged', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const name = unique('order_update');
    await approvedTemplate(baseURL ?? '', user, {
      name,
      category: 'UTILITY',
      bodyText: 'Hello {{1}}, your order {{2}} has shipped.',
      variableExamples: { '1': 'Priya', '2': 'ORD-1000' },
    });
    const phone = testPhone();
    const file = await workbook([
      ['Customer', 'Mobile', 'Order No'],
      ['Asha', phone, 'ORD-1003'],
      ['Asha', phone, 'ORD-1004'],
      ['Asha', phone, 'ORD-1003'],
    ]);
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const customize = new CustomizeMessagePage(page);
    await customize.goto();
    await expect(customize.number).not.toHaveValue('');
    await customize.template.selectOption({ label: name.replace(/_/g, ' ') });
    await customize.upload('orders.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', file);
    await expect(customize.recipientColumn).toHaveValue('Mobile');
    await customize.mapping('1').selectOption('Customer');
    await customize.mapping('2').selectOption('Order No');

    await customize.sendButton.click();
    // Both orders are kept; the third row (line 4 of the file) repeats line 2 and is listed with why.
    await expect(customize.validRows).toHaveText('2');
    await expect(customize.duplicates).toHaveText('1');
    // The cost dialog may already be open: it hides the page from the accessibility tree, so the
    // list is read by its table cells, not by role.
    const repeat = customize.invalidList.locator('tr').filter({ hasText: fillMessage(messages.sending.skipped.duplicate_in_list, { row: 2 }) });
    await expect(repeat.locator('td').first()).toHaveText('4');
    await expect(customize.costDialog).toBeVisible();
    await expect(customize.costDialog.getByTestId('cost-breakdown')).toContainText('2 ×');
    await customize.costDialog.getByRole('button', { name: ui.sendCampaign, exact: true }).click();
    await expect(customize.resultDialog).toContainText('2 messages queued');
  });

  test('a user sends to tagged contacts instead of a spreadsheet: an opted-out contact is left out and counted, the rest get their attributes', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const name = unique('contact_offer');
    await approvedTemplate(baseURL ?? '', user, { name, category: 'UTILITY', bodyText: 'Hello {{1}}, visit our {{2}} store.', variableExamples: { '1': 'Priya', '2': 'Pune' } });
    const tag = unique('walkin').toLowerCase().replace(/[^a-z0-9_]/g, '_');
    const [kept, stopped] = [testPhone('11'), testPhone('12')];
    const api = await request.newContext({ baseURL });
    expect((await api.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    const imported = await api.post('/api/contacts/bulk', {
      data: { contacts: [{ phone: kept, name: 'Farah', tags: [tag] }, { phone: stopped, name: 'Stopped', tags: [tag] }] },
    });
    expect(imported.ok(), await imported.text()).toBe(true);
    expect((await api.post('/api/suppressions', { data: { phone: stopped, reason: 'STOP' } })).ok()).toBe(true);
    await api.dispose();

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const customize = new CustomizeMessagePage(page);
    await customize.goto();
    await customize.template.selectOption({ label: name.replace(/_/g, ' ') });
    await customize.fromContacts.check();
    await expect(customize.fileInput).toHaveCount(0);
    const audience = customize.contacts;
    await audience.tagsChoice.check();
    await audience.tags.fill(tag);
    await audience.source('1').selectOption('attr:name');
    await audience.fixedText('2').fill('Andheri');
    await audience.previewButton.click();
    await expect(audience.figure(messages.contactScreens.previewRecipients)).toHaveText('1');
    await expect(audience.figure(messages.contactScreens.previewOptedOut)).toHaveText('1');
    await expect(audience.sample).toContainText('Hello Farah, visit our Andheri store.');
    await audience.send.click();
    await expect(new Toasts(page).withText(fillMessage(messages.contactScreens.sent, { count: 1, opted_out: 1 }))).toBeVisible();
  });

  test('a spreadsheet without rows is refused with a clear message', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const customize = new CustomizeMessagePage(page);
    await customize.goto();
    await customize.upload('empty.csv', 'text/csv', Buffer.from('Name,Mobile\n'));
    await expect(customize.sheetError).toHaveText(m.emptyFile);
    await expect(customize.sheetTable).toHaveCount(0);
  });

  test('an older Excel .xls file is read on the page like an .xlsx, and a damaged one is refused in the words the server uses', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const phones = [testPhone(), testPhone('0001')];
    const file = Buffer.from(
      xlsOf([
        ['Customer', 'Mobile', 'Order No'],
        ['Asha', phones[0] ?? '', 'A-1'],
        ['Ravi', Number(phones[1]), 'A-2'],
      ]),
    );
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const customize = new CustomizeMessagePage(page);
    await customize.goto();
    await customize.upload('broken.xls', 'application/vnd.ms-excel', Buffer.concat([file.subarray(0, 8), Buffer.alloc(600, 0xff)]));
    await expect(customize.sheetError).toHaveText(messages.sending.fileUnreadable);

    await customize.upload('customers.xls', 'application/vnd.ms-excel', file);
    await expect(customize.rowCount).toHaveText('2 rows in customers.xls · 3 columns');
    await expect(customize.sheetTable.locator('tbody tr')).toHaveCount(2);
    await expect(customize.sheetTable.locator('tbody tr').nth(1)).toContainText(phones[1] ?? '');
    await expect(customize.recipientColumn).toHaveValue('Mobile');
  });
});
