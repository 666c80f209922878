/**
 * Pieces the sending-engine resilience tests share: an external simulator on its own port (as
 * SIMULATOR_URL points a server at), free ports, recipient lists without the simulator's test
 * numbers, and a sender set up the way a person does it, over HTTP only: the admin creates and
 * funds the user, the user writes a template, the admin approves it.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { TAdminUser, TTemplate } from '@shared/types';
import { SIMULATOR_ACCESS_TOKEN } from '../src/sending/providerRegistry';
import { startSimulatorServer, type SimulatorServer, type WebhookRetry } from '../src/simulator/cloudApiSimulator';
import { SimulatorOutbox } from '../src/simulator/outbox';
import { TestClient } from './client';
import { uniqueName } from './factories';
import { TEST_ADMIN } from './server';

/** The body of the template the flow creates; the external simulator renders every send with it. */
export const FLOW_TEMPLATE_BODY = 'Hello {{1}}';

/** A port free right now (the OS picks it), for a server that must come back on the same address. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The simulator as a provider apart from the server: it outlives a killed server and counts what
 * each recipient received. Statuses come back within milliseconds so campaigns settle fast.
 */
/**
 * Failed status webhooks are retried as Meta retries them (doubling pauses, for days), on a test's
 * scale: the first retry after 50 ms, then at most a second apart, for ten minutes.
 */
export const TEST_WEBHOOK_RETRY: WebhookRetry = { firstDelayMs: 50, maxDelayMs: 1_000, maxAgeMs: 10 * 60_000 };

export function startFlowSimulator(options: { messagesPerSecond: number; webhook?: { url: string; appSecret: string } | null }): Promise<SimulatorServer> {
  return startSimulatorServer({
    outbox: new SimulatorOutbox(),
    resolveTemplate: () => [{ type: 'BODY', text: FLOW_TEMPLATE_BODY }],
    accessToken: SIMULATOR_ACCESS_TOKEN,
    messagesPerSecond: options.messagesPerSecond,
    delays: { sentMs: 5, deliveredMs: 15, readMs: 30, jitterRatio: 0.2 },
    webhook: options.webhook ?? null,
    // Fewer, larger webhook POSTs: a 20,000-message campaign makes 60,000 status events.
    maxStatusesPerPost: 500,
    // A server that is down (a crash test's kill) gets its statuses when it is back.
    webhookRetry: TEST_WEBHOOK_RETRY,
    onWebhookError: () => undefined,
  });
}

/**
 * `count` distinct Indian mobile numbers ending in 5, so none is one of the simulator's test
 * numbers (…0000 fails, …0001 is never read, …0002 is throttled once).
 */
export function plainRecipients(count: number, first = 9_100_000_000): string[] {
  return Array.from({ length: count }, (_, i) => `91${first + i * 10 + 5}`);
}

export interface FlowSender {
  client: TestClient;
  userId: number;
  username: string;
  openingBalance: number;
  phoneNumberId: string;
  templateName: string;
}

function expectStatus(response: { status: number; body: unknown }, status: number, what: string): void {
  if (response.status !== status) throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
}

/** A funded user with an approved `Hello {{1}}` marketing template and their sandbox number. */
export async function prepareFlowSender(baseUrl: string, creditRupees: number): Promise<FlowSender> {
  const admin = new TestClient(baseUrl);
  expectStatus(await admin.post('/api/auth/login', TEST_ADMIN), 200, 'admin login');
  const username = uniqueName('bulk');
  const password = 'bulk-sender-1';
  const created = await admin.post<{ user: TAdminUser }>('/api/admin/users', {
    name: 'Bulk Sender',
    email: `${username}@example.in`,
    username,
    password,
    phoneNumber: '919812345678',
    creditBalance: creditRupees,
  });
  expectStatus(created, 201, 'create user');

  const client = new TestClient(baseUrl);
  expectStatus(await client.post('/api/auth/login', { username, password }), 200, 'user login');
  const templateName = `flow_${Date.now()}`;
  const template = await client.post<{ data: TTemplate }>('/api/templates', {
    name: templateName,
    category: 'MARKETING',
    language: 'en_US',
    headerType: 'none',
    headerText: '',
    bodyText: FLOW_TEMPLATE_BODY,
    footerText: '',
    buttons: [],
    variableExamples: { '1': 'Asha' },
    submit_to_whatsapp: true,
  });
  expectStatus(template, 201, 'create template');
  expectStatus(await admin.put(`/api/admin/templates/${template.body.data.id}/status`, { status: 'APPROVED' }), 200, 'approve template');
  // Our approval sends it to Meta (the simulator), whose review approves it a moment later.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const read = await client.get<{ data: TTemplate }>(`/api/templates/${template.body.data.id}`);
    expectStatus(read, 200, 'read template');
    if (read.body.data.status === 'APPROVED') break;
    if (read.body.data.status !== 'PENDING' || Date.now() > deadline) throw new Error(`template is ${read.body.data.status} after the review, not APPROVED`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
  expectStatus(numbers, 200, 'list numbers');
  const sandbox = numbers.body.data.find((n) => n.is_sandbox);
  if (!sandbox) throw new Error('no sandbox number');
  return { client, userId: created.body.user.id, username, openingBalance: created.body.user.creditBalance, phoneNumberId: sandbox.phone_number_id, templateName: template.body.data.name };
}

/** A bulk quick send of the flow template to `recipients`, as the Quick Send screen makes it. */
export function sendFlowCampaign(sender: FlowSender, recipients: readonly string[], campaignName: string) {
  return sender.client.post<{ data: TCampaignAccepted }>('/api/whatsapp/bulk-quick-send', {
    phone_number_id: sender.phoneNumberId,
    template_name: sender.templateName,
    language: 'en_US',
    recipients_text: recipients.join('\n'),
    variables: { '1': 'Friend' },
    campaign_name: campaignName,
  });
}
