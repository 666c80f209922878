/**
 * The authorization matrix of teams, read from the app's own routers so that a route added later
 * is covered without being listed here: every user-area route is classified in the shared role
 * table (shared/teamRoles.ts); every role of a member is let through or refused (403, naming the
 * roles needed) exactly as the table says; and a member acting in their own account cannot reach
 * another account's records through any route with an id in its path: each such route is aimed at
 * a real record of another account (FOREIGN_ROUTES; a route without one fails the test), answers
 * not found, and leaves every row of that account as it was.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TCreatedInvite } from '@shared/schemas/team';
import { AREA_ROLES, TEAM_ROLES, TEAM_ROLE_LABELS, areaOf, rolesFor, type TeamRole } from '@shared/teamRoles';
import { apiRouters } from '../../server/src/app';
import type { User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

interface Route {
  method: string;
  /** As declared, `:id` and all. */
  pattern: string;
}

function appRoutes(server: TestServer): Route[] {
  const routers = apiRouters({ config: server.config, logger: server.logger, services: server.services, outbox: server.outbox, version: 'test' });
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, pattern: String(layer.path) }))),
  );
}

function filled(pattern: string, value: string | number): string {
  return pattern.replace(/:\w+(\([^)]*\))?/g, String(value));
}

/** Long-lived answers (the notification stream) are not waited for: their check runs before any body. */
const STREAMS = new Set(['/api/notifications/stream']);

/** Real records of another account, one of each kind a path can name. */
interface ForeignRecords {
  templateId: number;
  /** A completed campaign with a failed message (the one resend and send-again would take). */
  completedCampaignId: number;
  runningCampaignId: number;
  pausedCampaignId: number;
  scheduledCampaignId: number;
  messageId: number;
  keyId: number;
  senderNumberId: number;
  connectionId: number;
  notificationId: number;
  endpointId: number;
  deliveryId: number;
  flagId: number;
  suppressedPhone: string;
  attributeName: string;
  contactPhone: string;
  segmentId: number;
  inviteId: number;
  memberUserId: number;
  uploadId: string;
  mediaMessageId: number;
  topUpId: number;
  invoiceId: number;
}

let foreignSequence = 0;

function insertedId(rows: unknown[]): number {
  const first = rows[0] as { id: number | string } | number | string;
  return Number(typeof first === 'object' ? first.id : first);
}

/** Made by the other account's owner, through the API where there is one and in the tables where records only arrive from outside (Meta, payments). */
async function foreignRecords(server: TestServer, other: { client: TestClient; user: User }): Promise<ForeignRecords> {
  foreignSequence += 1;
  const tag = `${Date.now() % 1e8}${foreignSequence}`;
  const now = new Date().toISOString();
  const db = server.db;
  const userId = other.user.id;
  const template = await buildTemplate(server, other.user, { status: 'DRAFT' });
  const completed = await buildCampaign(server, other.user, { status: 'completed', messages: [{ status: 'failed' }, { status: 'read' }] });
  const running = await buildCampaign(server, other.user, { status: 'running', messages: [{ status: 'queued' }] });
  const paused = await buildCampaign(server, other.user, { status: 'paused', messages: [{ status: 'queued' }] });
  const scheduled = await buildCampaign(server, other.user, { status: 'running', messages: [{ status: 'queued' }] });
  await db('campaigns').where({ id: scheduled.campaignId }).update({ status: 'scheduled', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
  const key = await other.client.post<{ data: { id: number } }>('/api/keys', { name: 'theirs' });
  const senderNumberId = (await server.services.senderNumbers.ensureSandbox(userId)).id;
  const connectionId = insertedId(
    await db('whatsapp_connections')
      .insert({ userId, wabaId: `waba${tag}`, phoneNumberId: `1${tag}`, status: 'failed', step: 'exchange', createdAt: now, updatedAt: now })
      .returning('id'),
  );
  const notificationId = insertedId(
    await db('notifications').insert({ userId, type: 'info', kind: 'test', title: 'Theirs', message: 'Their notification', createdAt: now }).returning('id'),
  );
  const endpoint = await other.client.post<{ id: number }>('/api/webhook-endpoints', { url: 'https://93.184.216.34/hooks/sandesh', events: ['campaign.completed'] });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const endpointId = endpoint.body.id;
  const deliveryId = insertedId(
    await db('webhook_deliveries')
      .insert({ endpointId, eventId: `evt_${tag}`, eventType: 'campaign.completed', body: '{}', state: 'failed', attempts: 3, createdAt: now, updatedAt: now })
      .returning('id'),
  );
  const flagId = insertedId(
    await db('reply_flags').insert({ userId, recipient: '919811177001', providerMessageId: `wamid.flag${tag}`, text: 'please stop', receivedAt: now }).returning('id'),
  );
  const suppressedPhone = '919811177002';
  expect((await other.client.post('/api/suppressions', { phone: suppressedPhone, reason: 'Asked on a call' })).status).toBe(201);
  const attributeName = `tier_${tag}`;
  expect((await other.client.post('/api/contacts/attributes', { name: attributeName, type: 'text' })).status).toBe(201);
  const contactPhone = '919811177003';
  expect((await other.client.post('/api/contacts', { phone: contactPhone, name: 'Their contact', tags: ['vip'] })).status).toBe(201);
  const segment = await other.client.post<{ id: number }>('/api/segments', { name: 'Their VIPs', filter: { tags_all: ['vip'] } });
  expect(segment.status, JSON.stringify(segment.body)).toBe(201);
  const invite = await other.client.post<TCreatedInvite>('/api/team/invites', { email: `invitee${tag}@example.in`, role: 'agent' });
  const member = await signedInClient(server);
  const joining = await other.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role: 'agent' });
  expect((await member.client.post(`/api/team/invites/${joining.body.token}/accept`)).status).toBe(200);
  const content = Buffer.from('phone\n919811177004\n');
  const upload = await other.client.post<{ id: string }>('/api/uploads', { filename: 'theirs.csv', size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  const mediaMessageId = insertedId(
    await db('conversation_messages')
      .insert({
        userId,
        contact: contactPhone,
        phoneNumberId: `1${tag}`,
        direction: 'in',
        kind: 'image',
        providerMessageId: `wamid.in${tag}`,
        mediaMime: 'image/jpeg',
        mediaPath: 'media/theirs.jpg',
        mediaSize: 3,
        mediaState: 'stored',
        occurredAt: now,
        // Already applied to the contact: the reply applier leaves it be, so the contact stays as made.
        appliedAt: now,
        createdAt: now,
      })
      .returning('id'),
  );
  const topUp = (await db('credit_transactions').where({ userId }).orderBy('id').first('id')) as { id: number | string } | undefined;
  if (!topUp) throw new Error('the other account has no top-up');
  const invoiceId = insertedId(
    await db('tax_documents')
      .insert({
        series: 'INV',
        number: `T${tag}`.slice(0, 16),
        financialYear: '2026-27',
        sequence: 900_000 + foreignSequence,
        userId,
        issuedAt: now,
        supplierName: 'Sandesh',
        supplierAddress: 'Pune',
        supplierGstin: '27AAAAA0000A1Z5',
        sac: '998599',
        rateBasisPoints: 1800,
        buyerName: other.user.name,
        placeOfSupply: '27',
        taxablePaise: 1000,
        cgstPaise: 90,
        sgstPaise: 90,
        igstPaise: 0,
        totalPaise: 1180,
      })
      .returning('id'),
  );
  // The campaigns' recipients become contacts in the background: done now, so that only a request could change them later.
  await server.services.contactActivity.drain();
  return {
    templateId: template.id,
    completedCampaignId: completed.campaignId,
    runningCampaignId: running.campaignId,
    pausedCampaignId: paused.campaignId,
    scheduledCampaignId: scheduled.campaignId,
    messageId: completed.messages[0]?.id ?? 0,
    keyId: key.body.data.id,
    senderNumberId,
    connectionId,
    notificationId,
    endpointId,
    deliveryId,
    flagId,
    suppressedPhone,
    attributeName,
    contactPhone,
    segmentId: segment.body.id,
    inviteId: invite.body.id,
    memberUserId: member.user.id,
    uploadId: upload.body.id,
    mediaMessageId,
    topUpId: Number(topUp.id),
    invoiceId,
  };
}

/** Every row the other account owns in the tables a path can reach, to see that none of them moved. */
async function accountRows(server: TestServer, accountId: number): Promise<Record<string, string[]>> {
  const byUser = ['templates', 'campaigns', 'messages', 'api_keys', 'whatsapp_numbers', 'whatsapp_connections', 'notifications', 'webhook_endpoints', 'reply_flags', 'suppressions', 'contacts', 'contact_attributes', 'contact_tags', 'segments', 'uploads', 'conversation_messages', 'credit_transactions', 'tax_documents'];
  // Some tables have no id column: rows are compared in a stable order of their own.
  const sorted = (found: unknown[]) => found.map((row) => JSON.stringify(row)).sort();
  const rows: Record<string, string[]> = {};
  for (const table of byUser) rows[table] = sorted(await server.db(table).where({ userId: accountId }));
  rows.webhook_deliveries = sorted(await server.db('webhook_deliveries').whereIn('endpointId', server.db('webhook_endpoints').where({ userId: accountId }).select('id')));
  rows.team_invites = sorted(await server.db('team_invites').where({ accountId }));
  rows.account_members = sorted(await server.db('account_members').where({ accountId }));
  return rows;
}

interface ForeignRoute {
  /** Matches the declared pattern. */
  pattern: RegExp;
  /** The other account's record for each parameter of the path. */
  params: (records: ForeignRecords) => Record<string, string | number>;
  /** A body the route would accept for a record of the caller's own, so that only the owner check can refuse it. */
  body?: Partial<Record<string, unknown>>;
  /** Where the not-found of a foreign record is not 404, the answer and why (`METHOD pattern` keys). */
  expect?: Record<string, number>;
}

/**
 * The record each route with an id in its path is aimed at. Every such route of the app must match
 * one entry, and each of its parameters must have a value: a new route fails the test until it does.
 */
const FOREIGN_ROUTES: readonly ForeignRoute[] = [
  { pattern: /^\/api\/templates\/:id/, params: (r) => ({ id: r.templateId }), body: { PUT: { name: 'taken_over', category: 'MARKETING', language: 'en_US', bodyText: 'Hello there' } } },
  { pattern: /^\/api\/campaigns\/:id\/pause$/, params: (r) => ({ id: r.runningCampaignId }) },
  { pattern: /^\/api\/campaigns\/:id\/cancel$/, params: (r) => ({ id: r.runningCampaignId }) },
  { pattern: /^\/api\/campaigns\/:id\/resume$/, params: (r) => ({ id: r.pausedCampaignId }) },
  { pattern: /^\/api\/campaigns\/:id\/schedule$/, params: (r) => ({ id: r.scheduledCampaignId }), body: { PATCH: { scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() } } },
  { pattern: /^\/api\/campaigns\/:id\/resend-failed$/, params: (r) => ({ id: r.completedCampaignId }), body: { POST: { confirm: true } } },
  { pattern: /^\/api\/campaigns\/:id\/send-again$/, params: (r) => ({ id: r.completedCampaignId }), body: { POST: { audience: 'failed', confirm: true } } },
  { pattern: /^\/api\/campaigns\/:id/, params: (r) => ({ id: r.completedCampaignId }) },
  { pattern: /^\/api\/messages\/:messageId$/, params: (r) => ({ messageId: `msg_${r.messageId}` }) },
  { pattern: /^\/api\/keys\/:id$/, params: (r) => ({ id: r.keyId }) },
  { pattern: /^\/api\/whatsapp\/numbers\/:id\//, params: (r) => ({ id: r.senderNumberId }) },
  { pattern: /^\/api\/whatsapp\/connections\/:id/, params: (r) => ({ id: r.connectionId }) },
  // Clearing a notification is idempotent: one that is not the caller's answers `deleted: 0`.
  { pattern: /^\/api\/notifications\/:id$/, params: (r) => ({ id: r.notificationId }), expect: { 'DELETE /api/notifications/:id': 200 } },
  { pattern: /^\/api\/webhook-endpoints\/:id/, params: (r) => ({ id: r.endpointId, deliveryId: r.deliveryId }) },
  { pattern: /^\/api\/suppressions\/flags\/:id\/decide$/, params: (r) => ({ id: r.flagId }), body: { POST: { decision: 'suppress' } } },
  { pattern: /^\/api\/suppressions\/:phone$/, params: (r) => ({ phone: r.suppressedPhone }) },
  { pattern: /^\/api\/contacts\/attributes\/:name$/, params: (r) => ({ name: r.attributeName }) },
  { pattern: /^\/api\/contacts\/:phone/, params: (r) => ({ phone: r.contactPhone }), body: { PATCH: { name: 'Taken over', tags: ['stolen'] } } },
  { pattern: /^\/api\/segments\/:id/, params: (r) => ({ id: r.segmentId }), body: { PATCH: { name: 'Taken over' } } },
  { pattern: /^\/api\/team\/invites\/:id$/, params: (r) => ({ id: r.inviteId }) },
  { pattern: /^\/api\/team\/members\/:userId$/, params: (r) => ({ userId: r.memberUserId }), body: { PATCH: { role: 'manager' } } },
  { pattern: /^\/api\/uploads\/:id/, params: (r) => ({ id: r.uploadId, n: 1 }), body: { PUT: new Uint8Array(Buffer.from('phone\n919811177004\n')) } },
  { pattern: /^\/api\/conversations\/media\/:id$/, params: (r) => ({ id: r.mediaMessageId }) },
  { pattern: /^\/api\/conversations\/:phone\//, params: (r) => ({ phone: r.contactPhone }), body: { POST: { text: 'Hello from elsewhere' } } },
  { pattern: /^\/api\/wallet\/topups\/:id\/receipt\.pdf$/, params: (r) => ({ id: r.topUpId }) },
  { pattern: /^\/api\/wallet\/invoices\/:id\/pdf$/, params: (r) => ({ id: r.invoiceId }) },
];

/** The pattern with each parameter replaced by its value; null when one has none. */
function fillFrom(pattern: string, values: Record<string, string | number>): string | null {
  let complete = true;
  const path = pattern.replace(/:(\w+)(\([^)]*\))?/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) complete = false;
    return encodeURIComponent(String(value));
  });
  return complete ? path : null;
}

describe.skipIf(postgresUnavailable)('team authorization matrix', () => {
  let server: TestServer;
  let routes: Route[];
  let userRoutes: Route[];
  /** A client per role, each a member of one account (the owner is its owner). */
  const members = new Map<TeamRole, TestClient>();
  let ownerId = 0;

  beforeAll(async () => {
    // No dispatcher: the other account's running campaigns must stay as they were made, so that any change seen is a request's.
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '100000', DISPATCH_ENABLED: 'false' });
    routes = appRoutes(server);
    userRoutes = routes.filter((route) => areaOf(route.method, filled(route.pattern, 1)) !== null);
    const owner = await signedInClient(server, { creditRupees: 10 });
    ownerId = owner.user.id;
    members.set('owner', owner.client);
    for (const role of ['manager', 'agent', 'analyst'] as const) {
      const member = await signedInClient(server);
      const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role });
      expect((await member.client.post(`/api/team/invites/${invite.body.token}/accept`)).status).toBe(200);
      expect((await member.client.post(`/api/accounts/${owner.user.id}/switch`)).status).toBe(200);
      members.set(role, member.client);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('reads the routes from the app and finds the user area among them', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(userRoutes.map((route) => `${route.method} ${route.pattern}`)).toEqual(
      expect.arrayContaining(['POST /api/whatsapp/quick-send', 'GET /api/whatsapp/reports/summary', 'POST /api/team/invites', 'GET /api/wallet/history']),
    );
  });

  it('classifies every user-area route in the shared role table', () => {
    const unclassified = userRoutes.filter((route) => areaOf(route.method, filled(route.pattern, 1))?.area === undefined);
    expect(unclassified.map((route) => `${route.method} ${route.pattern}`)).toEqual([]);
  });

  it('lets each role through exactly where the table allows it, and refuses the rest naming the roles needed', async () => {
    const mismatches: string[] = [];
    for (const route of userRoutes) {
      const path = filled(route.pattern, 999_999);
      const allowed = rolesFor(route.method, path) ?? [];
      for (const role of TEAM_ROLES) {
        const may = allowed.includes(role);
        if (may && STREAMS.has(path)) continue;
        const client = members.get(role);
        if (!client) throw new Error(`no client for ${role}`);
        const response = await client.request<{ code?: string; error?: string }>(route.method, path, route.method === 'GET' ? undefined : {});
        const refused = response.status === 403 && response.body.code === 'role_required';
        if (may && refused) mismatches.push(`${role} refused on ${route.method} ${route.pattern}`);
        if (!may) {
          const expected = fillMessage(messages.team.roleRequired, {
            role: TEAM_ROLE_LABELS[role].toLowerCase(),
            roles: allowed.map((name) => TEAM_ROLE_LABELS[name].toLowerCase()).join(' or '),
          });
          if (!refused || response.body.error !== expected) mismatches.push(`${role} let through on ${route.method} ${route.pattern}: ${response.status}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('keeps the owner-only areas to the owner', () => {
    expect(AREA_ROLES.team).toEqual(['owner']);
    expect(AREA_ROLES.billing).toEqual(['owner']);
  });

  it('answers every route with an id in its path as not found for another account’s real record, which stays as it was', async () => {
    const other = await signedInClient(server, { creditRupees: 10 });
    const foreign = await foreignRecords(server, other);
    const before = await accountRows(server, other.user.id);
    const missing: string[] = [];
    const answered: string[] = [];
    for (const route of userRoutes) {
      if (!route.pattern.includes('/:')) continue;
      const fixture = FOREIGN_ROUTES.find((candidate) => candidate.pattern.test(route.pattern));
      const path = fixture ? fillFrom(route.pattern, fixture.params(foreign)) : null;
      if (!fixture || path === null) {
        missing.push(`${route.method} ${route.pattern}`);
        continue;
      }
      const expected = fixture.expect?.[`${route.method} ${route.pattern}`] ?? 404;
      for (const role of TEAM_ROLES) {
        if (!(rolesFor(route.method, path) ?? []).includes(role)) continue;
        const client = members.get(role);
        if (!client) throw new Error(`no client for ${role}`);
        const response = await client.request(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : (fixture.body?.[route.method] ?? {}));
        if (response.status !== expected) answered.push(`${role} ${route.method} ${route.pattern}: ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`);
      }
    }
    // A route with an id in its path and no real record of another account to aim at is a gap in this test.
    expect(missing).toEqual([]);
    const unused = FOREIGN_ROUTES.filter((fixture) => !userRoutes.some((route) => fixture.pattern.test(route.pattern)));
    expect(unused.map((fixture) => String(fixture.pattern))).toEqual([]);
    expect(answered).toEqual([]);
    const after = await accountRows(server, other.user.id);
    expect(Object.keys(before).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]))).toEqual([]);
    expect(after).toEqual(before);
    // And a member cannot move a session into an account they do not belong to.
    for (const role of TEAM_ROLES) {
      const response = await members.get(role)?.post(`/api/accounts/${other.user.id}/switch`);
      expect(response?.status).toBe(403);
    }
    expect(ownerId).not.toBe(other.user.id);
  }, 120_000);
});
