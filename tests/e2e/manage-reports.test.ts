import { readFile } from 'node:fs/promises';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { messages } from '@shared/messages';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import { LoginPage } from './pages/LoginPage';
import { ManageReportsPage } from './pages/ManageReportsPage';
import { approvedTemplate, testPhone } from './sending-support';
import { createUser, unique } from './support';

const cells = messages.reports;

/** A quick send through the API, as the Quick Send screen makes it. */
async function quickSend(api: APIRequestContext, template: string, recipients: string[], campaignName: string): Promise<TCampaignAccepted> {
  const numbers = (await (await api.get('/api/whatsapp/numbers')).json()) as { data: TSenderNumber[] };
  const response = await api.post('/api/whatsapp/quick-send', {
    data: {
      phone_number_id: numbers.data[0]?.phone_number_id,
      template_name: template,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'Meera' },
      campaign_name: campaignName,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: TCampaignAccepted }).data;
}

async function campaign(api: APIRequestContext, id: number): Promise<TCampaign> {
  return ((await (await api.get(`/api/campaigns/${id}`)).json()) as { data: TCampaign }).data;
}

/** Data lines of a CSV export (the header is the first line). */
function csvDataLines(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== '');
}

test.describe('manage reports', () => {
  test('a user filters the report by status and recipient, removes chips, exports CSV and follows the campaign', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const user = await createUser(baseURL ?? '', { name: 'Kavya Rao' });
    const template = unique('order_update');
    await approvedTemplate(baseURL ?? '', user, { name: template, category: 'UTILITY', bodyText: 'Hello {{1}}, your order has shipped.', variableExamples: { '1': 'Priya' } });

    // The simulator reads plain numbers, delivers …0001 without a read, and fails …0000.
    const read = testPhone('5');
    const delivered = testPhone('0001');
    const failing = testPhone('0000');
    const campaignName = unique('Shipping wave');

    const api = await request.newContext({ baseURL });
    expect((await api.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    const accepted = await quickSend(api, template, [read, delivered, failing], campaignName);
    expect(accepted.accepted).toBe(3);
    await expect
      .poll(async () => {
        const current = await campaign(api, accepted.campaignId);
        return `${current.status} read=${current.counts.read} delivered=${current.counts.delivered} failed=${current.counts.failed}`;
      }, { timeout: 30_000 })
      .toBe('completed read=1 delivered=1 failed=1');

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    // The dashboard's Account Overview counts this month's messages and their outcomes.
    const overview = page.getByTestId('account-overview');
    await expect(overview.locator('div').filter({ hasText: 'Messages This Month' }).getByRole('definition')).toHaveText('3');
    await expect(overview.locator('div').filter({ hasText: 'Delivery Rate' }).getByRole('definition')).toHaveText('66.7%');
    await expect(overview.locator('div').filter({ hasText: 'Read Rate' }).getByRole('definition')).toHaveText('33.3%');
    await page.getByRole('link', { name: 'View Details' }).click();
    await page.waitForURL('**/user/manage-reports');

    const reports = new ManageReportsPage(page);
    await expect(reports.heading).toBeVisible();
    await expect(reports.rows).toHaveCount(3);
    await expect(reports.pageLabel).toHaveText('Page 1 of 1');
    await expect(reports.row(read).getByTestId('report-status')).toHaveText('READ');
    await expect(reports.row(delivered).getByTestId('report-status')).toHaveText('DELIVERED');
    await expect(reports.row(delivered)).toContainText(cells.notRead);
    await expect(reports.row(failing).getByTestId('report-status')).toHaveText('FAILED');
    await expect(reports.row(failing)).toContainText(cells.notDelivered);
    await expect(reports.row(read)).toContainText(cells.noError);
    // Times in IST, saying so, whatever the browser's zone.
    await expect(reports.row(read)).toContainText(/\d{4}, \d{1,2}:\d{2} (am|pm) IST/);
    await expect(reports.row(failing)).not.toContainText(cells.noError);

    // Status: only the failed message, with a chip.
    await reports.status.selectOption('failed');
    await expect(reports.rows).toHaveCount(1);
    await expect(reports.row(failing)).toBeVisible();
    await expect(reports.chip('Status: Failed')).toBeVisible();
    await expect(page).toHaveURL(/status=failed/);

    // And the recipient: nothing is both failed and this number.
    await reports.recipient.fill(delivered);
    await expect(reports.chip(`Recipient: ${delivered}`)).toBeVisible();
    await expect(reports.rows).toHaveCount(0);
    await expect(reports.empty).toContainText(messages.reportsScreen.noMatches);

    // Removing the status chip leaves the recipient's own message.
    await reports.removeChip('Status: Failed');
    await expect(reports.chips).toHaveCount(1);
    await expect(reports.status).toHaveValue('all');
    await expect(reports.rows).toHaveCount(1);
    await expect(reports.row(delivered)).toBeVisible();

    // Any part of the number finds it: here without the country code.
    await reports.recipient.fill(delivered.slice(2));
    await expect(reports.chip(`Recipient: ${delivered.slice(2)}`)).toBeVisible();
    await expect(reports.rows).toHaveCount(1);
    await expect(reports.row(delivered)).toBeVisible();

    // A filtered export holds exactly the rows on screen.
    const filtered = await reports.exportFile('csv');
    expect(filtered.suggestedFilename()).toMatch(/^whatsapp_reports_filtered_\d{4}-\d{2}-\d{2}\.csv$/);
    const filteredLines = csvDataLines(await readFile(await filtered.path(), 'utf8'));
    expect(filteredLines).toHaveLength(1);
    expect(filteredLines[0]).toContain(delivered);

    // Clear All brings every message back; the export then holds all three.
    await reports.clearAll.click();
    await expect(reports.chips).toHaveCount(0);
    await expect(reports.recipient).toHaveValue('');
    await expect(reports.rows).toHaveCount(3);
    const all = await reports.exportFile('csv');
    expect(all.suggestedFilename()).toMatch(/^whatsapp_reports_all_\d{4}-\d{2}-\d{2}\.csv$/);
    const allText = await readFile(await all.path(), 'utf8');
    expect(allText.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Template,Recipient,Status,Delivered At (IST),Read At (IST),Error,Sent At (IST),Campaign,Cost (INR),Message ID');
    const allLines = csvDataLines(allText);
    expect(allLines).toHaveLength(3);
    for (const phone of [read, delivered, failing]) expect(allLines.filter((line) => line.includes(phone))).toHaveLength(1);
    await expect(page.getByText(/Report downloaded: whatsapp_reports_all_/)).toBeVisible();

    // The Excel export arrives as a workbook (a zip).
    const excel = await reports.exportFile('excel');
    expect(excel.suggestedFilename()).toMatch(/^whatsapp_reports_all_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect((await readFile(await excel.path())).subarray(0, 2).toString()).toBe('PK');

    // The campaigns view: the campaign completed, its progress and the chart of the day.
    await reports.campaignsTab.click();
    await expect(page).toHaveURL(/tab=campaigns/);
    const card = reports.campaignCard(campaignName);
    await expect(card.getByTestId('campaign-status')).toHaveText('Completed');
    await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(card.getByTestId('campaign-progress-text')).toContainText('3 of 3 processed (100%)');
    await expect(reports.chart.getByTestId('timeline-total-failed')).toHaveText('1');
    await expect(reports.chart.getByTestId('timeline-total-read')).toHaveText('1');

    // Resend to failed shows its cost first (one utility message at ₹0.15), then sends.
    await card.getByRole('button', { name: new RegExp(`Resend to failed \\(1\\) of ${campaignName}`) }).click();
    await expect(reports.resendDialog.getByTestId('send-again-cost')).toContainText('₹0.15');
    await reports.resendDialog.getByRole('button', { name: 'Resend for ₹0.15' }).click();
    await expect(reports.resendDialog).toBeHidden();
    await expect(reports.campaignCard(`Resend: ${campaignName}`)).toBeVisible();
    await expect(reports.campaignCard(`Resend: ${campaignName}`).getByTestId('campaign-status')).toHaveText('Completed', { timeout: 30_000 });

    await api.dispose();
  });
});
