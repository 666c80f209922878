/**
 * Meta's template events as people see them: the quality Meta gave a template in the quick send's
 * template picker, and a signed change of a field the server does not know on the admin's Webhook
 * Events page. Events come signed with the simulator's secret from its business account, as the
 * in-process simulator posts them.
 */
import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { AdminWebhookEventsPage } from './pages/AdminWebhookEventsPage';
import { LoginPage } from './pages/LoginPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { approvedTemplate, openE2eDatabase, signedInUser } from './sending-support';
import { ADMIN, unique } from './support';

/** The simulator's default signing secret and business account (server/src/config.ts, templateEvents.ts). */
const SIMULATOR_SECRET = 'sandesh-simulator-app-secret';
const SIMULATOR_WABA = 'SIMULATOR_WABA';

async function postSigned(baseURL: string, changes: unknown[]): Promise<number> {
  const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: SIMULATOR_WABA, time: Math.floor(Date.now() / 1000), changes }] });
  const signature = `sha256=${createHmac('sha256', SIMULATOR_SECRET).update(raw).digest('hex')}`;
  const answer = await fetch(`${baseURL}/api/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: raw });
  return answer.status;
}

async function signIn(page: Page, username: string, password: string, landing: string) {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(username, password);
  await page.waitForURL(`**${landing}`);
}

test.describe("Meta's template events", () => {
  test("the quick send's template picker shows the quality Meta rated the template", async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    const user = await signedInUser(page, base, 10, { name: 'Quality Shop', prefix: 'quality' });
    const name = unique('rated_tpl');
    await approvedTemplate(base, user, { name, category: 'UTILITY', bodyText: 'Your order {{1}} ships today', variableExamples: { '1': 'A-1' } });
    const metaId = String(Date.now());
    const db = openE2eDatabase();
    db.pragma('busy_timeout = 10000');
    db.prepare('update templates set provider_template_id = ? where name = ?').run(metaId, name);
    db.close();
    const quality = { field: 'message_template_quality_update', value: { previous_quality_score: 'GREEN', new_quality_score: 'YELLOW', message_template_id: Number(metaId), message_template_name: name, message_template_language: 'en_US' } };
    expect(await postSigned(base, [quality])).toBe(200);

    await page.goto('/user/whatsapp-bulk');
    const quick = new QuickSendPage(page);
    const rated = fillMessage(messages.templateQuality.rated, { quality: messages.templateQuality.YELLOW });
    await quick.template.selectOption({ label: `${name.replace(/_/g, ' ')} (${rated})` });
    await expect(page.getByTestId('template-quality')).toHaveText(rated);
  });

  test('an admin finds a signed change of an unknown field on the Webhook Events page and reads its body', async ({ page, baseURL }) => {
    const field = unique('future_field');
    expect(await postSigned(baseURL ?? '', [{ field, value: { note: 'from Meta', count: 3 } }])).toBe(200);

    await signIn(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    await page.getByRole('link', { name: messages.unknownWebhookEvents.nav }).first().click();
    await page.waitForURL('**/admin/webhook-events');
    const events = new AdminWebhookEventsPage(page);
    await expect(events.heading).toBeVisible();
    await expect(events.row(field)).toContainText(SIMULATOR_WABA);
    await events.viewButton(field).click();
    await expect(events.body(field)).toContainText('"note": "from Meta"');
    await expect(events.body(field)).toContainText(`"field": "${field}"`);
  });
});
