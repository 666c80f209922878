import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { formatPhone } from '@shared/phone';
import { ManageReportsPage } from './pages/ManageReportsPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { approvedTemplate, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

const ui = messages.sendScreens;

/** The wallet as the server holds it, written as the header writes it. */
async function walletText(page: Page): Promise<string> {
  const me = await page.request.get('/api/auth/me');
  const rupees = ((await me.json()) as { user: { creditBalance: number } }).user.creditBalance;
  return formatIndianNumber(rupees, Number.isInteger(rupees) ? 0 : 2);
}

/** The header's balance equals the wallet's (polled: the header re-reads it after each change). */
async function expectHeaderShowsWallet(page: Page): Promise<void> {
  await expect.poll(async () => (await page.getByTestId('credits-balance').textContent()) === (await walletText(page)), { timeout: 20_000 }).toBe(true);
}

test.describe('what the sender sees is what is sent and charged', () => {
  test('the preview shows a number without a country code read as an Indian mobile, and lists every skipped row with a CSV', async ({ page, baseURL }) => {
    const user = await signedInUser(page, baseURL ?? '', 50, { name: 'Meena Iyer', prefix: 'sender' });
    const name = unique('order_note');
    await approvedTemplate(baseURL ?? '', user, { name, category: 'UTILITY', bodyText: 'Your order has shipped.' });
    // An Indian mobile written without 91, as spreadsheets often hold them.
    const bare = `9${testPhone().slice(3)}`;

    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.template.selectOption({ label: name.replace(/_/g, ' ') });
    await quick.recipients.fill([bare, 'call me', `91${bare}`, '0123456789'].join('\n'));
    // Before paying, on the form and in the cost dialog: "9876520004 → +91 98765 20004".
    const normalisation = `${bare} → ${formatPhone(`91${bare}`)}`;
    await expect(page.getByTestId('normalised-numbers').first()).toContainText(normalisation);
    await expect(quick.recipientCount).toContainText('1 number');

    await quick.sendButton.click();
    await expect(quick.costDialog).toBeVisible();
    await expect(quick.costDialog.getByTestId('normalised-numbers')).toContainText(normalisation);
    const skipped = quick.costDialog.getByTestId('skipped-rows');
    await expect(skipped).toContainText(`${messages.sending.skippedTitle} (3)`);
    const rows = skipped.getByRole('row');
    // A heading row and one row per skipped entry, in list order, each with its reason.
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toContainText('call me');
    await expect(rows.nth(1)).toContainText(messages.phone.invalid.characters);
    await expect(rows.nth(2)).toContainText(`91${bare}`);
    await expect(rows.nth(2)).toContainText('Repeats row 1');
    await expect(rows.nth(3)).toContainText(messages.phone.invalid.leading_zero);
    await expect(quick.costRow('Total cost')).toContainText('₹0.15');

    const [download] = await Promise.all([page.waitForEvent('download'), skipped.getByRole('button', { name: messages.sending.skippedDownload }).click()]);
    expect(download.suggestedFilename()).toBe(messages.sending.skippedCsvName);
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('Row,Value,Why');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(['2', '3', '4']);

    await quick.confirmSend();
    await expect(quick.resultDialog.getByRole('heading', { name: ui.campaignAccepted })).toBeVisible();
    await expect(quick.resultDialog).toContainText('1 message queued');
    const stored = await page.request.get(`/simulator/messages?to=91${bare}`);
    expect(JSON.stringify(await stored.json())).toContain('Your order has shipped.');
  });

  test('a cancelled campaign shows its cancelled messages apart, nothing waiting and no resend, and the header balance follows the wallet', async ({ page, baseURL }) => {
    const user = await signedInUser(page, baseURL ?? '', 500, { name: 'Meena Iyer', prefix: 'sender' });
    const name = unique('big_offer');
    // Utility at ₹0.15: 1,500 messages take the sandbox (80 a second) long enough to cancel half way.
    await approvedTemplate(baseURL ?? '', user, { name, category: 'UTILITY', bodyText: 'Your statement is ready' });
    const balance = page.getByTestId('credits-balance');
    await expect(balance).toHaveText('500');

    // A send through the screen: the header follows the charge at once.
    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.template.selectOption({ label: name.replace(/_/g, ' ') });
    await quick.recipients.fill(Array.from({ length: 1_500 }, () => testPhone('5')).join('\n'));
    await quick.sendButton.click();
    await quick.confirmSend();
    await expect(quick.resultDialog.getByRole('heading', { name: ui.campaignAccepted })).toBeVisible();
    await expect(balance).not.toHaveText('500');
    await expectHeaderShowsWallet(page);
    await quick.resultDialog.getByRole('button', { name: ui.showReports }).click();
    await page.waitForURL('**/user/manage-reports');

    const reports = new ManageReportsPage(page);
    await reports.campaignsTab.click();
    const card = page.getByTestId('campaign-card').filter({ hasText: name.replace(/_/g, ' ') }).first();
    await card.getByRole('button', { name: /^Cancel/ }).click();
    const dialog = page.getByTestId('campaign-action-dialog');
    await dialog.getByRole('button', { name: 'Cancel Campaign', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('campaign-status')).toHaveText('Cancelled');
    await expect(card.getByTestId('campaign-cancelled-count')).toContainText('cancelled before sending', { timeout: 15_000 });
    await expect(card.getByTestId('campaign-progress-text')).not.toContainText('waiting to be sent');
    await expect(card.locator('dl > div').filter({ has: page.getByText('Failed', { exact: true }) }).getByRole('definition')).toHaveText('0');
    await expect(card.getByRole('button', { name: /Resend to failed/ })).toHaveCount(0);

    // The refund of the cancel shows in the header without a reload.
    await expect(balance).not.toHaveText('275');
    await expectHeaderShowsWallet(page);
  });
});
