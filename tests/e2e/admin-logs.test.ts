import { expect, request, test, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminLogsPage } from './pages/AdminLogsPage';
import { AdminTestNotificationsPage } from './pages/AdminTestNotificationsPage';
import { LoginPage } from './pages/LoginPage';
import { approvedTemplate, openE2eDatabase, settledCampaign, testPhone } from './sending-support';
import { ADMIN, createUser, unique } from './support';

const text = messages.logs;

/** Makes a campaign and its messages 120 days old, in the e2e server's own SQLite file. */
function backdate(campaignId: number): void {
  const db = openE2eDatabase();
  db.pragma('busy_timeout = 10000');
  const old = new Date(Date.now() - 120 * 86_400_000).toISOString();
  db.prepare('update messages set created_at = ? where campaign_id = ?').run(old, campaignId);
  db.prepare('update campaigns set created_at = ? where id = ?').run(old, campaignId);
  db.close();
}

async function signIn(page: Page, username: string, password: string, landing: string) {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(username, password);
  await page.waitForURL(`**${landing}`);
}

test.describe('log management', () => {
  test('an admin sees old logs counted, confirms a cleanup that names the count, and then has nothing to clean', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const user = await createUser(baseURL ?? '');
    const template = unique('logs_tpl');
    await approvedTemplate(baseURL ?? '', user, { name: template, category: 'MARKETING', bodyText: 'Hello {{1}}', variableExamples: { '1': 'Meera' } });
    const api = await request.newContext({ baseURL });
    expect((await api.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    backdate(await settledCampaign(api, template, [testPhone(), testPhone()]));
    await api.dispose();

    await signIn(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    await page.getByRole('link', { name: 'Log Management' }).first().click();
    await page.waitForURL('**/admin/logs');
    const logs = new AdminLogsPage(page);
    await expect(page.getByRole('heading', { name: text.title, level: 2 })).toBeVisible();
    await expect(logs.thresholdDate).toContainText('Logs created before');
    await expect(logs.lastDailyRun).toBeVisible();
    await expect.poll(async () => Number(await logs.card(text.messageLogs).textContent())).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => Number(await logs.card(text.campaignLogs).textContent())).toBeGreaterThanOrEqual(1);
    const total = (await logs.card(text.totalOldLogs).textContent()) ?? '';

    await logs.cleanUp.click();
    const dialog = logs.confirmDialog();
    await expect(dialog).toContainText(`deletes ${total} old logs`);
    await dialog.getByRole('button', { name: `Delete ${total} logs` }).click();
    await expect(logs.result).toContainText(`${total} logs deleted`);
    await expect(logs.card(text.totalOldLogs)).toHaveText('0');

    await logs.cleanUp.click();
    await expect(page.getByText(text.nothingToClean)).toBeVisible();
    await logs.refresh.click();
    await expect(logs.card(text.messageLogs)).toHaveText('0');

    await logs.testButton(text.testWarning).click();
    await expect(page.getByRole('alert').filter({ hasText: text.sampleWarning })).toBeVisible();
  });

  test('a user opening /admin/logs or /admin/test-notifications gets Access Denied', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    await signIn(page, user.username, user.password, '/user/dashboard');
    for (const route of ['/admin/logs', '/admin/test-notifications']) {
      await page.goto(route);
      await expect(page.getByText(messages.common.accessDenied)).toBeVisible();
      await page.waitForURL('**/user/dashboard', { timeout: 10_000 });
    }
  });
});

test.describe('notification test page', () => {
  test('counts notifications by kind, cycles samples, runs the demos, clears, and lets success and info go after 6 s', async ({ page }) => {
    const t = messages.notificationTest;
    await page.clock.install();
    await signIn(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const screen = new AdminTestNotificationsPage(page);
    await screen.goto();
    // The admin area loads on demand and React reveals it on a timer: see the page before the clock stops.
    await expect(screen.button(t.success)).toBeVisible();
    // From here the page's timers move only when the test moves the clock.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));

    await screen.button(t.success).click();
    await screen.button(t.error).click();
    await screen.button(t.warning).click();
    await screen.button(t.info).click();
    await expect(screen.counter(t.total)).toHaveText('4');
    await expect(screen.counter(t.successCount)).toHaveText('1');
    await expect(screen.counter(t.errorCount)).toHaveText('1');
    await expect(screen.counter(t.unread)).toHaveText('4');
    await screen.items('error').getByRole('button', { name: messages.notifications.markRead }).click();
    await expect(screen.counter(t.unread)).toHaveText('3');

    // Spec 001: success and info dismiss after 6 seconds; error and warning stay.
    await page.clock.fastForward(5_000);
    await expect(screen.counter(t.total)).toHaveText('4');
    await page.clock.fastForward(1_500);
    await expect(screen.counter(t.total)).toHaveText('2');
    await expect(screen.items('success')).toHaveCount(0);
    await expect(screen.items('error')).toHaveCount(1);

    await expect(screen.cycle()).toHaveText(/\(1\/8\)/);
    for (let i = 0; i < 8; i += 1) await screen.cycle().click();
    await expect(screen.cycle()).toHaveText(/\(1\/8\)/);
    await expect(screen.list).toContainText(t.samples[7]!.message);

    await screen.clearAll.click();
    await expect(screen.counter(t.total)).toHaveText('0');

    await screen.sequential.click();
    await page.clock.fastForward(5_000);
    for (let i = 1; i <= 5; i += 1) await expect(screen.list).toContainText(`Sequential notification ${i} of 5`);
    await screen.clearAll.click();

    await screen.campaignFlow.click();
    await page.clock.fastForward(4_000);
    await expect(screen.list).toContainText(t.flow[3]!.message);
    await expect(screen.counter(t.total)).toHaveText(String(t.flow.length));
  });
});
