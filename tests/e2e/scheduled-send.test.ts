import { expect, test, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { formatIstLabel, formatIstTime, istLocalToIso, toIstLocal } from '../../desktop/src/renderer/src/lib/sending/schedule';
import { ManageReportsPage } from './pages/ManageReportsPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { approvedTemplate, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

const ui = messages.sendScreens;
const r = messages.reportsScreen;

const MINUTE_MS = 60_000;

/** The wallet as the server holds it. */
async function walletRupees(page: Page): Promise<number> {
  const me = await page.request.get('/api/auth/me');
  return ((await me.json()) as { user: { creditBalance: number } }).user.creditBalance;
}

test.describe('scheduled sends', () => {
  test('a user schedules a quick send an hour ahead in IST, finds it under Campaigns, changes its time, then cancels it for a full refund', async ({
    page,
    baseURL,
  }) => {
    const user = await signedInUser(page, baseURL ?? '', 100, { name: 'Farah Khan', prefix: 'planner' });
    const template = unique('delivery_slot');
    await approvedTemplate(baseURL ?? '', user, { name: template, category: 'UTILITY', bodyText: 'Your delivery slot is confirmed.' });
    const campaignName = unique('Evening reminder');
    const balance = page.getByTestId('credits-balance');
    await expect(balance).toHaveText('100');
    const before = await walletRupees(page);

    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.template.selectOption({ label: template.replace(/_/g, ' ') });
    await quick.campaignName.fill(campaignName);
    await quick.recipients.fill([testPhone(), testPhone()].join('\n'));

    // "Send now" is the default; the arrow key moves the choice to "Schedule for later", which offers a time.
    await expect(quick.sendNow).toBeChecked();
    await expect(quick.scheduleTime).toBeHidden();
    await quick.sendNow.focus();
    await page.keyboard.press('ArrowRight');
    await expect(quick.scheduleLater).toBeChecked();
    await expect(quick.scheduleTime).toBeVisible();
    await expect(quick.scheduleTime).not.toHaveValue('');

    // A time already past is refused on the spot, in the server's words.
    await quick.scheduleTime.fill(toIstLocal(Date.now() - 10 * MINUTE_MS));
    await expect(page.getByText(messages.schedule.tooSoon, { exact: true })).toBeVisible();

    // About an hour ahead, typed as India Standard Time whatever the browser's zone.
    const firstLocal = toIstLocal(Date.now() + 60 * MINUTE_MS);
    const firstIso = istLocalToIso(firstLocal) ?? '';
    await quick.scheduleTime.fill(firstLocal);
    await expect(quick.scheduleTimeText).toHaveText(formatIstLabel(firstIso));
    await expect(quick.timingNote).toContainText(formatIstLabel(firstIso));
    await expect(quick.sendButton).toHaveText(`${ui.scheduleSend} (2)`);

    // The confirmation says when, and its button schedules.
    await quick.sendButton.click();
    await expect(quick.costDialog).toBeVisible();
    await expect(quick.costDialog.getByTestId('cost-schedule')).toContainText(formatIstLabel(firstIso));
    await quick.confirmSchedule();

    // The answer: scheduled for that time, cost reserved now, no live progress.
    await expect(quick.resultDialog.getByRole('heading', { name: ui.campaignScheduled })).toBeVisible();
    await expect(quick.resultDialog).toContainText(fillMessage(messages.schedule.accepted, { count: '2', time: formatIstTime(firstIso) }));
    await expect(quick.resultDialog.getByTestId('campaign-scheduled')).toBeVisible();
    await expect(quick.resultDialog.getByTestId('campaign-progress')).toHaveCount(0);
    await expect.poll(() => walletRupees(page)).toBeLessThan(before);
    await expect(balance).not.toHaveText('100');
    // The form is back to "send now" for the next campaign (behind the modal, so hidden from the accessibility tree).
    await expect(page.getByRole('radio', { name: ui.sendNow, exact: true, includeHidden: true })).toBeChecked();

    await quick.resultDialog.getByRole('button', { name: ui.showReports }).click();
    await page.waitForURL('**/user/manage-reports');
    const reports = new ManageReportsPage(page);
    await reports.campaignsTab.click();

    // Listed as scheduled, with its time in IST, under its own filter too; it cannot be paused.
    const card = reports.campaignCard(campaignName);
    await expect(card.getByTestId('campaign-status')).toHaveText('Scheduled');
    await expect(card.getByTestId('campaign-scheduled-at')).toHaveText(fillMessage(r.scheduledFor, { time: formatIstLabel(firstIso) }));
    await expect(card.getByRole('button', { name: /^Pause/ })).toHaveCount(0);
    await reports.campaignStatus.selectOption('scheduled');
    await expect(card).toBeVisible();
    await reports.campaignStatus.selectOption('completed');
    await expect(card).toBeHidden();
    await reports.campaignStatus.selectOption('all');
    await expect(card).toBeVisible();

    // Edit time: the dialog starts from the current time; a past one is refused, half an hour later is taken.
    await card.getByRole('button', { name: `${r.editTime} of ${campaignName}`, exact: true }).click();
    const timeField = reports.rescheduleDialog.getByLabel(ui.scheduleTimeLabel, { exact: true });
    await expect(timeField).toHaveValue(firstLocal);
    await timeField.fill(toIstLocal(Date.now() - 5 * MINUTE_MS));
    await expect(reports.rescheduleDialog.getByText(messages.schedule.tooSoon, { exact: true })).toBeVisible();
    await reports.rescheduleDialog.getByRole('button', { name: r.rescheduleSave, exact: true }).click();
    await expect(reports.rescheduleDialog).toBeVisible();

    const secondLocal = toIstLocal(Date.parse(firstIso) + 30 * MINUTE_MS);
    const secondIso = istLocalToIso(secondLocal) ?? '';
    await timeField.fill(secondLocal);
    await reports.rescheduleDialog.getByRole('button', { name: r.rescheduleSave, exact: true }).click();
    await expect(reports.rescheduleDialog).toBeHidden();
    // The server's own words (messages.campaigns.rescheduled), with the time it wrote in IST.
    await expect(page.getByText(/^Scheduled for .+ IST\.$/)).toBeVisible();
    await expect(card.getByTestId('campaign-scheduled-at')).toHaveText(fillMessage(r.scheduledFor, { time: formatIstLabel(secondIso) }));
    await expect(card.getByTestId('campaign-status')).toHaveText('Scheduled');

    // Cancel: the confirmation says the whole cost comes back, and the wallet is where it was.
    await card.getByRole('button', { name: `Cancel ${campaignName}`, exact: true }).click();
    await expect(reports.actionDialog.getByRole('heading', { name: r.cancelScheduledTitle })).toBeVisible();
    await expect(reports.actionDialog).toContainText('full cost');
    await reports.actionDialog.getByRole('button', { name: 'Cancel Campaign', exact: true }).click();
    await expect(reports.actionDialog).toBeHidden();
    await expect(page.getByText(messages.campaigns.scheduledCancelled, { exact: true })).toBeVisible();
    await expect(card.getByTestId('campaign-status')).toHaveText('Cancelled');
    await expect(card.getByRole('button', { name: new RegExp(`^${r.editTime}`) })).toHaveCount(0);
    await expect.poll(() => walletRupees(page)).toBe(before);
    await expect(balance).toHaveText('100');
  });
});
