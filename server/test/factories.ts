/**
 * Factories: each test makes the accounts, templates and campaigns it needs, with unique names,
 * through the services (fast, and the same rules the API applies) or, for rows no API call makes
 * directly (a message in a given state), straight into the tables.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@shared/constants';
import type { CampaignRow } from '../src/db/rows/campaigns';
import type { MessageRow } from '../src/db/rows/messages';
import type { Template, User } from '../src/models';
import type { TemplateInput } from '../src/templates/service';
import type { TestServer } from './server';
import { TestClient } from './client';
import { pngFile } from './media';

export interface BuildUserOptions {
  role?: Role;
  name?: string;
  username?: string;
  email?: string;
  password?: string;
  phoneNumber?: string;
  creditRupees?: number;
}

let sequence = 0;

export function uniqueName(prefix = 'user'): string {
  sequence += 1;
  return `${prefix}_${sequence}_${randomBytes(3).toString('hex')}`;
}

/** A random valid Indian mobile number: 91 + 10 digits. */
export function uniquePhone(): string {
  return `91${9_000_000_000 + Math.floor(Math.random() * 999_999_999)}`;
}

export async function buildUser(server: TestServer, options: BuildUserOptions = {}): Promise<User & { plainPassword: string }> {
  const username = options.username ?? uniqueName(options.role === 'admin' ? 'admin' : 'user');
  const password = options.password ?? 'secret-pass-1';
  const user = await server.services.users.create(
    {
      name: options.name ?? 'Test Person',
      email: options.email ?? `${username}@example.com`,
      username,
      password,
      phoneNumber: options.phoneNumber,
      role: options.role ?? 'user',
      creditRupees: options.creditRupees ?? 0,
    },
    { userId: null },
    'admin',
  );
  return Object.assign(user, { plainPassword: password });
}

/** A client signed in as a new user (or the given one). */
export async function signedInClient(server: TestServer, options: BuildUserOptions = {}): Promise<{ client: TestClient; user: User & { plainPassword: string } }> {
  const user = await buildUser(server, options);
  const client = new TestClient(server.url);
  const response = await client.post('/api/auth/login', { username: user.username, password: user.plainPassword });
  if (response.status !== 200) throw new Error(`login failed in factory: ${response.status} ${JSON.stringify(response.body)}`);
  return { client, user };
}

/** The first admin, who reviews the templates the factories make. */
export async function adminOf(server: TestServer): Promise<User> {
  const row = (await server.db('users').where({ role: 'admin' }).orderBy('id').first('id')) as { id: number } | undefined;
  const admin = row ? await server.services.users.findById(row.id) : undefined;
  if (!admin) throw new Error('the test server has no admin');
  return admin;
}

export type TemplateStatusWanted = 'DRAFT' | 'PENDING' | 'APPROVED' | 'REJECTED';

export interface BuildTemplateOptions {
  /** Where the template ends: saved as a draft, submitted, or reviewed by the admin (default APPROVED). */
  status?: TemplateStatusWanted;
  name?: string;
  category?: TemplateInput['category'];
  /** Default: two numbered variables, `Hi {{1}}, your order {{2}} ships today`. */
  body?: string;
  /** An image header carries a small PNG as its sample. */
  headerType?: 'none' | 'text' | 'image';
  headerText?: string;
  buttons?: TemplateInput['buttons'];
  /** Why the admin rejected it (status REJECTED). */
  rejectionReason?: string;
}

/** A template of `user` in the given review state, made through TemplateService. */
export async function buildTemplate(server: TestServer, user: User, options: BuildTemplateOptions = {}): Promise<Template> {
  const status = options.status ?? 'APPROVED';
  const headerType = options.headerType ?? 'none';
  const input: TemplateInput = {
    name: options.name ?? uniqueName('tpl'),
    category: options.category ?? 'MARKETING',
    language: 'en_US',
    headerType,
    headerText: options.headerText ?? '',
    bodyText: options.body ?? 'Hi {{1}}, your order {{2}} ships today',
    footerText: '',
    buttons: options.buttons ?? [],
    variableExamples: {},
    submit_to_whatsapp: status !== 'DRAFT',
  };
  const image = headerType === 'image' ? { originalname: 'header.png', buffer: pngFile(), size: pngFile().length } : undefined;
  const template = await server.services.templates.create(user, input, image);
  if (status === 'DRAFT' || status === 'PENDING') return template;
  const decision = status === 'APPROVED' ? { status } : { status, reason: options.rejectionReason ?? 'Not what the category allows' };
  const reviewed = await server.services.templates.review(await adminOf(server), template.id, decision, null);
  if (status !== 'APPROVED') return reviewed;
  // The sandbox's templates go through the simulator's review; a business's own account has no
  // Meta in tests (its API base is a closed port), so Meta's approval is recorded as its webhook would.
  const account = await server.services.templateAccounts.forUser(user.id);
  if (account?.kind === 'simulator') return waitForTemplateStatus(server, reviewed.id, 'APPROVED');
  const now = new Date().toISOString();
  await server.db('templates').where({ id: reviewed.id }).update({ status: 'APPROVED', metaSubmittedAt: now, metaSubmitDueAt: null, metaSubmitError: null, metaSubmitClaimedUntil: null, updatedAt: now });
  return server.services.templates.getForViewer(await adminOf(server), reviewed.id);
}

/**
 * Waits (with a deadline) until a template leaves PENDING, as Meta's review moves it: the
 * administrator's approval submits it to the simulator, whose review answers by webhook.
 */
export async function waitForTemplateStatus(server: TestServer, templateId: number, wanted: string, timeoutMs = 60_000): Promise<Template> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const template = await server.services.templates.getForViewer(await adminOf(server), templateId);
    if (template.status === wanted) return template;
    if (template.status !== 'PENDING' || Date.now() > deadline) {
      throw new Error(`template ${templateId} is ${template.status}, not ${wanted} (${template.rejectionReason ?? template.metaSubmitError ?? 'no reason'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface BuildMessageOptions {
  status: 'queued' | 'sending' | 'unknown' | 'sent' | 'delivered' | 'read' | 'failed' | 'cancelled' | 'duplicate' | 'suppressed';
  /** Whether its price was given back already (default false). */
  refunded?: boolean;
  recipient?: string;
  /** Default: a unique `wamid.` id for a message the provider took, none for one it never saw. */
  providerMessageId?: string | null;
  errorCode?: number | null;
  errorMessage?: string | null;
}

export interface BuildCampaignOptions {
  /** Default: the user's sandbox number. */
  senderNumberId?: number;
  /** Default: none (the campaign outlived its template), named `promo`. */
  template?: Template;
  name?: string;
  status?: 'running' | 'paused' | 'completed' | 'cancelled';
  source?: 'quick' | 'bulk' | 'custom' | 'api';
  priceUnits?: number;
  messages?: BuildMessageOptions[];
}

export interface BuiltCampaign {
  campaignId: number;
  /** The messages in the order given, with the provider ids they were stored with. */
  messages: { id: number; providerMessageId: string | null }[];
}

let messageSequence = 0;

/** One charged message of a campaign in the given state, written straight into the messages table. */
export async function buildMessage(
  server: TestServer,
  campaign: { campaignId: number; userId: number; priceUnits?: number },
  message: BuildMessageOptions,
): Promise<{ id: number; providerMessageId: string | null }> {
  messageSequence += 1;
  const now = new Date().toISOString();
  const reachedProvider = !['queued', 'sending', 'duplicate', 'suppressed', 'cancelled'].includes(message.status);
  const providerMessageId = message.providerMessageId !== undefined ? message.providerMessageId : reachedProvider ? `wamid.t${Date.now()}${messageSequence}` : null;
  // A failure the provider reported came after the send; one it refused outright (no provider id) was never sent.
  const sent = ['sent', 'delivered', 'read'].includes(message.status) || (message.status === 'failed' && providerMessageId !== null);
  const row: Omit<MessageRow, 'id' | 'variables' | 'nextAttemptAt' | 'leaseUntil' | 'claimToken' | 'handedAt'> = {
    campaignId: campaign.campaignId,
    userId: campaign.userId,
    recipient: message.recipient ?? `91988888${String(messageSequence % 10_000).padStart(4, '0')}`,
    status: message.status,
    priceUnits: campaign.priceUnits ?? 8000,
    dedupeKey: `t-${campaign.campaignId}-${messageSequence}`.padEnd(64, 'x').slice(0, 64),
    providerMessageId,
    errorCode: message.errorCode ?? (message.status === 'failed' ? 131026 : null),
    errorMessage: message.errorMessage ?? (message.status === 'failed' ? 'Message undeliverable' : null),
    attempts: sent ? 1 : 0,
    refunded: message.refunded ?? false,
    createdAt: now,
    updatedAt: now,
    sentAt: sent ? now : null,
    deliveredAt: message.status === 'delivered' || message.status === 'read' ? now : null,
    readAt: message.status === 'read' ? now : null,
    failedAt: message.status === 'failed' ? now : null,
  };
  const ids = (await server.db('messages').insert(row).returning('id')) as ({ id: number } | number)[];
  return { id: Number(typeof ids[0] === 'object' ? ids[0].id : ids[0]), providerMessageId };
}

/**
 * A campaign row and its charged messages in the given states, written straight into the tables:
 * the state a send reaches after acceptance and dispatch, without waiting for them. The wallet is
 * not debited (tests that check money compare balances before and after).
 */
export async function buildCampaign(server: TestServer, user: User, options: BuildCampaignOptions = {}): Promise<BuiltCampaign> {
  const now = new Date().toISOString();
  const priceUnits = options.priceUnits ?? 8000;
  const wanted = options.messages ?? [];
  const senderNumberId = options.senderNumberId ?? (await server.services.senderNumbers.ensureSandbox(user.id)).id;
  const billable = wanted.filter((m) => m.status !== 'duplicate' && m.status !== 'suppressed').length;
  const campaign: Omit<CampaignRow, 'id' | 'duplicateCount' | 'invalidCount' | 'suppressedCount' | 'refundedUnits' | 'resentCampaignId' | 'headerMediaType' | 'headerMediaPath' | 'headerMediaName' | 'completedAt' | 'scheduledAt' | 'failureReason'> = {
    userId: user.id,
    templateId: options.template?.id ?? null,
    senderNumberId,
    name: options.name ?? 'manual',
    source: options.source ?? 'quick',
    templateName: options.template?.name ?? 'promo',
    templateLanguage: options.template?.language ?? 'en_US',
    category: options.template?.category ?? 'MARKETING',
    priceUnits,
    status: options.status ?? 'running',
    totalRecipients: Math.max(1, wanted.length),
    billableCount: Math.max(1, billable),
    cancelledCount: wanted.filter((m) => m.status === 'cancelled').length,
    totalCostUnits: priceUnits * Math.max(1, billable),
    createdAt: now,
    updatedAt: now,
  };
  const inserted = (await server.db('campaigns').insert(campaign).returning('id')) as ({ id: number } | number)[];
  const campaignId = typeof inserted[0] === 'object' ? inserted[0].id : (inserted[0] as number);
  const messages: BuiltCampaign['messages'] = [];
  for (const message of wanted) messages.push(await buildMessage(server, { campaignId, userId: user.id, priceUnits }, message));
  return { campaignId, messages };
}
