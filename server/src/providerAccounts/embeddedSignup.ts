/**
 * Connect WhatsApp yourself: the server's half of Meta's Embedded Signup for Cloud API (Tech
 * Providers). The browser's popup gives a code, the WABA id and the phone number id; here, one
 * step after another, each recorded on the connection so a half-finished one can be resumed or
 * removed:
 *   exchange   GET  /{version}/oauth/access_token (client_id, client_secret, code): the business token
 *   subscribe  POST /{waba-id}/subscribed_apps: our app receives the WABA's webhooks
 *   register   POST /{phone-number-id}/register {messaging_product, pin}: the number on Cloud API
 *   read       GET  /{phone-number-id}?fields=...: display number, verified name, quality, limit
 *   store      what the admin's business-info form stores (sealed), and the sender number
 *   templates  the account's existing templates, through the template sync
 * Against Meta when WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID is set; else, where the simulator runs,
 * against the simulator, and the number sends to it. Decisions and Meta's pages:
 * docs/decisions/2026-12-07-embedded-signup.md.
 */
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { CONNECTION_STEPS, type TConnectionStep, type TConnectionStatus, type TStartConnectionRequest, type TResumeConnectionRequest } from '@shared/schemas/whatsappConnections';
import type { AuditService } from '../audit/service';
import { forUpdateIfSupported } from '../db/dialect';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import { AppError, ConflictError, NotFoundError } from '../errors';
import type { Logger } from '../logger';
import type { SecretBox } from '../security/secretBox';
import { syncSenderNumbers } from './numberSync';
import { secretContext, tryOpenSecret } from './secrets';
import { lockUser, uniqueIdsOrConflict } from './userGuards';
import { SignupGraphError, signupFailureFor, type SignupFailure } from './embeddedSignupErrors';

export interface WhatsappConnectionRow {
  id: number;
  userId: number;
  wabaId: string;
  phoneNumberId: string;
  status: TConnectionStatus;
  step: TConnectionStep | 'done';
  sandbox: boolean | number;
  accessTokenEncrypted: string | null;
  pinEncrypted: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  metaCode: number | null;
  metaSubcode: number | null;
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  messagingLimitTier: string | null;
  templatesImported: number | null;
  whatsappNumberId: number | null;
  connectedAt: string | Date | null;
  disconnectedAt: string | Date | null;
  createdAt: string | Date;
  updatedAt: string | Date;
}

/** Where the steps are run: Meta's Graph API with our app, or the simulator standing in for it. */
export interface SignupTarget {
  sandbox: boolean;
  /** Graph API base (no trailing slash) and version. */
  base: string;
  version: string;
  appId: string;
  appSecret: string;
  configId: string;
}

/** A finished or stopped run: the connection, and the failure when it stopped. */
export interface SignupOutcome {
  connection: WhatsappConnectionRow;
  failure: SignupFailure | null;
}

/** Meta's default throughput for a business number. */
const DEFAULT_MESSAGES_PER_SECOND = 80;
/** A run that has not written for this long died with its process: it may be resumed. */
const STALE_RUN_MS = 2 * 60_000;
const GRAPH_TIMEOUT_MS = 20_000;
const READ_FIELDS = 'display_phone_number,verified_name,quality_rating,messaging_limit_tier';
const LABEL_MAX = 100;

const PIN_CONTEXT = (userId: number) => `whatsappConnectionPin:${userId}`;

/** The digits of a number as Meta displays it (`+91 98765 43210`), as whatsapp_numbers keeps them. */
function displayDigits(display: string | null, fallback: string): string {
  const digits = (display ?? '').replace(/\D/g, '');
  return digits || fallback;
}

export class EmbeddedSignupService {
  /** Told after a number was disconnected: its running and scheduled campaigns pause. Answers the paused ids. */
  onNumberDisconnected: ((numberId: number) => Promise<number[]>) | null = null;
  private readonly running = new Set<number>();

  constructor(
    private readonly deps: {
      db: Knex;
      secretBox: SecretBox;
      audit: AuditService;
      /** Null: connecting is off (no configuration, no simulator). */
      target: () => SignupTarget | null;
      syncTemplates: (userId: number) => Promise<{ imported: number }>;
      sandboxMessagesPerSecond: number;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  target(): SignupTarget | null {
    return this.deps.target();
  }

  private requireTarget(): SignupTarget {
    const target = this.deps.target();
    if (!target) throw new AppError(409, 'embedded_signup_off', messages.whatsappConnect.disabled);
    return target;
  }

  async list(userId: number, withDisconnected = false): Promise<WhatsappConnectionRow[]> {
    const query = this.deps.db('whatsapp_connections').where({ userId }).orderBy('id');
    if (!withDisconnected) query.whereNot({ status: 'disconnected' });
    return (await query) as WhatsappConnectionRow[];
  }

  async one(userId: number, id: number): Promise<WhatsappConnectionRow> {
    const row = (await this.deps.db('whatsapp_connections').where({ id, userId }).first()) as WhatsappConnectionRow | undefined;
    if (!row) throw NotFoundError(messages.whatsappConnect.notFound, 'connection_not_found');
    return row;
  }

  /** Starts a connection from the popup's result and runs every step it can. */
  async start(userId: number, input: TStartConnectionRequest): Promise<SignupOutcome> {
    const target = this.requireTarget();
    const open = (await this.deps.db('whatsapp_connections').where({ userId, phoneNumberId: input.phone_number_id }).whereNot({ status: 'disconnected' }).first()) as
      | WhatsappConnectionRow
      | undefined;
    if (open?.status === 'connected') throw ConflictError('connection_connected', messages.whatsappConnect.alreadyConnected);
    if (open) throw ConflictError('connection_exists', messages.whatsappConnect.exists);
    const nowIso = this.now().toISOString();
    const [inserted] = (await this.deps.db('whatsapp_connections')
      .insert({
        userId,
        wabaId: input.waba_id,
        phoneNumberId: input.phone_number_id,
        status: 'in_progress',
        step: 'exchange',
        sandbox: target.sandbox,
        pinEncrypted: this.deps.secretBox.seal(input.pin, PIN_CONTEXT(userId)),
        createdAt: nowIso,
        updatedAt: nowIso,
      })
      .returning('id')) as ({ id: number } | number)[];
    const id = typeof inserted === 'object' ? inserted.id : Number(inserted);
    await this.deps.audit.record({ actorUserId: userId, action: 'whatsapp.connect.start', targetType: 'whatsapp_connection', targetId: id, details: { wabaId: input.waba_id, phoneNumberId: input.phone_number_id } });
    return this.run(id, target, input.code);
  }

  /**
   * Runs a stopped connection again from the step it stopped at. A new PIN replaces the stored
   * one; a stop at the exchange needs a new code (Meta's codes are used once).
   */
  async resume(userId: number, id: number, input: TResumeConnectionRequest): Promise<SignupOutcome> {
    const target = this.requireTarget();
    const row = await this.one(userId, id);
    const stale = row.status === 'in_progress' && Date.now() - new Date(row.updatedAt).getTime() > STALE_RUN_MS && !this.running.has(id);
    if (row.status === 'in_progress' && !stale) throw ConflictError('connection_busy', messages.whatsappConnect.busy);
    if (row.status !== 'failed' && !stale) throw ConflictError('connection_not_resumable', messages.whatsappConnect.notResumable);
    if (row.step === 'exchange' && !input.code) throw new AppError(422, 'connection_needs_code', messages.whatsappConnect.newCode, 'code');
    const changes: Record<string, unknown> = { status: 'in_progress', updatedAt: this.now().toISOString() };
    if (input.pin) changes.pinEncrypted = this.deps.secretBox.seal(input.pin, PIN_CONTEXT(userId));
    const claimed = await this.deps.db('whatsapp_connections').where({ id, status: row.status, updatedAt: row.updatedAt }).update(changes);
    if (claimed === 0) throw ConflictError('connection_busy', messages.whatsappConnect.busy);
    return this.run(id, target, input.code ?? null);
  }

  /** Removes a connection: a connected one disconnects its number; an unfinished one is deleted. */
  async remove(userId: number, id: number): Promise<{ disconnected: boolean; pausedCampaignIds: number[] }> {
    const row = await this.one(userId, id);
    if (row.status === 'connected') {
      const paused = await this.disconnect(row, userId, null);
      return { disconnected: true, pausedCampaignIds: paused };
    }
    const fresh = row.status === 'in_progress' && (this.running.has(id) || Date.now() - new Date(row.updatedAt).getTime() <= STALE_RUN_MS);
    if (fresh) throw ConflictError('connection_busy', messages.whatsappConnect.busy);
    if (row.status !== 'disconnected') await this.deps.db('whatsapp_connections').where({ id }).delete();
    await this.deps.audit.record({ actorUserId: userId, action: 'whatsapp.connect.remove', targetType: 'whatsapp_connection', targetId: id });
    return { disconnected: false, pausedCampaignIds: [] };
  }

  /** The administrator disconnects a user's connected number: it stops sending and its campaigns pause. */
  async adminDisconnect(admin: { id: number }, userId: number, id: number, ip: string | null): Promise<number[]> {
    const row = await this.one(userId, id);
    if (row.status !== 'connected') throw ConflictError('connection_not_connected', messages.whatsappConnect.notConnected);
    return this.disconnect(row, admin.id, ip);
  }

  private async disconnect(row: WhatsappConnectionRow, actorId: number, ip: string | null): Promise<number[]> {
    const { db, secretBox } = this.deps;
    const nowIso = this.now().toISOString();
    await db.transaction(async (trx) => {
      await lockUser(trx, row.userId);
      const updated = await trx('whatsapp_connections').where({ id: row.id, status: 'connected' }).update({ status: 'disconnected', disconnectedAt: nowIso, updatedAt: nowIso });
      if (updated === 0) throw ConflictError('connection_not_connected', messages.whatsappConnect.notConnected);
      if (row.whatsappNumberId !== null) await trx('whatsapp_numbers').where({ id: row.whatsappNumberId }).update({ isActive: false, updatedAt: nowIso });
      if (row.sandbox) return;
      const info = (await forUpdateIfSupported(trx('business_infos').where({ userId: row.userId }), trx).first()) as BusinessInfoRow | undefined;
      if (info && info.whatsappNumberId === row.phoneNumberId) {
        // The business's number moves to another connected number, else the business has none.
        const next = (await trx('whatsapp_connections').where({ userId: row.userId, status: 'connected', sandbox: false }).orderBy('id', 'desc').first()) as WhatsappConnectionRow | undefined;
        const token = next ? tryOpenSecret(secretBox, next.accessTokenEncrypted, secretContext('accessTokenEncrypted', row.userId)) : null;
        await trx('business_infos')
          .where({ id: info.id })
          .update(
            next && token
              ? {
                  whatsappNumberId: next.phoneNumberId,
                  whatsappNumber: displayDigits(next.displayPhoneNumber, next.phoneNumberId),
                  wabaId: next.wabaId,
                  accessTokenEncrypted: secretBox.seal(token, secretContext('accessTokenEncrypted', row.userId)),
                  updatedAt: nowIso,
                }
              : { whatsappNumberId: null, whatsappNumber: null, updatedAt: nowIso },
          );
        await syncSenderNumbers(trx, row.userId, nowIso);
      }
      await this.deps.audit.record(
        { actorUserId: actorId, action: 'whatsapp.connect.disconnect', targetType: 'whatsapp_connection', targetId: row.id, details: { userId: row.userId, phoneNumberId: row.phoneNumberId }, ip },
        trx,
      );
    });
    if (row.whatsappNumberId === null || !this.onNumberDisconnected) return [];
    return this.onNumberDisconnected(row.whatsappNumberId);
  }

  /** Runs the steps from the connection's current one until it is connected or one fails. */
  private async run(id: number, target: SignupTarget, code: string | null): Promise<SignupOutcome> {
    this.running.add(id);
    try {
      let row = (await this.deps.db('whatsapp_connections').where({ id }).first()) as WhatsappConnectionRow;
      while (row.step !== 'done') {
        const step = row.step;
        try {
          const changes = await this.runStep(step, row, target, code);
          const index = CONNECTION_STEPS.indexOf(step);
          const next = CONNECTION_STEPS[index + 1] ?? 'done';
          const nowIso = this.now().toISOString();
          const finished = next === 'done' ? { status: 'connected', connectedAt: nowIso } : {};
          await this.deps.db('whatsapp_connections')
            .where({ id })
            .update({ ...changes, ...finished, step: next, errorCode: null, errorMessage: null, metaCode: null, metaSubcode: null, updatedAt: nowIso });
          row = (await this.deps.db('whatsapp_connections').where({ id }).first()) as WhatsappConnectionRow;
        } catch (error) {
          const failure = this.failureOf(step, error);
          this.deps.log.warn({ err: error, connectionId: id, step }, 'Embedded Signup step failed');
          await this.deps.db('whatsapp_connections')
            .where({ id })
            .update({
              status: 'failed',
              errorCode: failure.code,
              errorMessage: failure.message,
              metaCode: error instanceof SignupGraphError ? error.code : null,
              metaSubcode: error instanceof SignupGraphError ? error.subcode : null,
              updatedAt: this.now().toISOString(),
            });
          return { connection: (await this.deps.db('whatsapp_connections').where({ id }).first()) as WhatsappConnectionRow, failure };
        }
      }
      await this.deps.audit.record({ actorUserId: row.userId, action: 'whatsapp.connect.connected', targetType: 'whatsapp_connection', targetId: id, details: { phoneNumberId: row.phoneNumberId } });
      return { connection: row, failure: null };
    } finally {
      this.running.delete(id);
    }
  }

  private failureOf(step: TConnectionStep, error: unknown): SignupFailure {
    if (error instanceof SignupGraphError) return signupFailureFor(step, error);
    if (error instanceof AppError) return { code: error.code, message: error.message, upstream: error.status >= 500 };
    throw error;
  }

  private token(row: WhatsappConnectionRow): string {
    const token = tryOpenSecret(this.deps.secretBox, row.accessTokenEncrypted, secretContext('accessTokenEncrypted', row.userId));
    // Without a token (its key changed) only a new signup helps: Meta's code is spent.
    if (!token) throw new SignupGraphError(401, 190, null, 'The stored business token no longer opens');
    return token;
  }

  private async runStep(step: TConnectionStep, row: WhatsappConnectionRow, target: SignupTarget, code: string | null): Promise<Record<string, unknown>> {
    const { secretBox } = this.deps;
    const graph = `${target.base}/${encodeURIComponent(target.version)}`;
    switch (step) {
      case 'exchange': {
        if (!code) throw new AppError(422, 'connection_needs_code', messages.whatsappConnect.newCode, 'code');
        const query = new URLSearchParams({ client_id: target.appId, client_secret: target.appSecret, code });
        const answer = await this.call('GET', `${graph}/oauth/access_token?${query.toString()}`, null, null);
        const token = typeof answer.access_token === 'string' ? answer.access_token : '';
        if (!token) throw new SignupGraphError(502, null, null, 'Meta answered no access_token');
        return { accessTokenEncrypted: secretBox.seal(token, secretContext('accessTokenEncrypted', row.userId)) };
      }
      case 'subscribe':
        await this.call('POST', `${graph}/${encodeURIComponent(row.wabaId)}/subscribed_apps`, this.token(row), null);
        return {};
      case 'register': {
        const pin = tryOpenSecret(secretBox, row.pinEncrypted, PIN_CONTEXT(row.userId));
        if (!pin) throw new AppError(422, 'connection_needs_pin', messages.whatsappConnect.pinInvalid, 'pin');
        await this.call('POST', `${graph}/${encodeURIComponent(row.phoneNumberId)}/register`, this.token(row), { messaging_product: 'whatsapp', pin });
        // The PIN is not kept once Meta has it: the business owns it from here.
        return { pinEncrypted: null };
      }
      case 'read': {
        const answer = await this.call('GET', `${graph}/${encodeURIComponent(row.phoneNumberId)}?fields=${READ_FIELDS}`, this.token(row), null);
        const text = (key: string, max: number) => (typeof answer[key] === 'string' ? (answer[key] as string).slice(0, max) : null);
        return {
          displayPhoneNumber: text('display_phone_number', 40),
          verifiedName: text('verified_name', 200),
          qualityRating: text('quality_rating', 20),
          messagingLimitTier: text('messaging_limit_tier', 40),
        };
      }
      case 'store':
        return { whatsappNumberId: await this.store(row, target) };
      case 'templates': {
        const result = await this.deps.syncTemplates(row.userId);
        return { templatesImported: result.imported };
      }
    }
  }

  /**
   * Stores the number as the admin's form would: the first Cloud API number of the account is the
   * business info (sealed token, our app's secret for webhooks); a further one is a sender number
   * beside it, sending with its own connection's token. In the sandbox the number is the
   * simulator's. Answers the sender number's id.
   */
  private async store(row: WhatsappConnectionRow, target: SignupTarget): Promise<number> {
    const { db, secretBox } = this.deps;
    const display = displayDigits(row.displayPhoneNumber, row.phoneNumberId);
    const label = (row.verifiedName ?? messages.providers.cloudNumberLabel).slice(0, LABEL_MAX);
    try {
      return await uniqueIdsOrConflict(() =>
        db.transaction(async (trx) => {
          await lockUser(trx, row.userId);
          const nowIso = this.now().toISOString();
          const provider = target.sandbox ? 'simulator' : 'cloud_api';
          if (!target.sandbox) {
            const info = (await forUpdateIfSupported(trx('business_infos').where({ userId: row.userId }), trx).first()) as BusinessInfoRow | undefined;
            if (!info || !info.whatsappNumberId || info.whatsappNumberId === row.phoneNumberId) {
              const values = {
                businessName: info?.businessName ?? row.verifiedName,
                whatsappNumber: display,
                whatsappNumberId: row.phoneNumberId,
                wabaId: row.wabaId,
                accessTokenEncrypted: secretBox.seal(this.token(row), secretContext('accessTokenEncrypted', row.userId)),
                appSecretEncrypted: secretBox.seal(target.appSecret, secretContext('appSecretEncrypted', row.userId)),
                isActive: true,
                updatedAt: nowIso,
              };
              if (info) await trx('business_infos').where({ id: info.id }).update(values);
              else await trx('business_infos').insert({ userId: row.userId, ...values, createdAt: nowIso });
              await syncSenderNumbers(trx, row.userId, nowIso);
              const number = (await trx('whatsapp_numbers').where({ provider, phoneNumberId: row.phoneNumberId }).first()) as WhatsappNumberRow | undefined;
              if (!number) throw new AppError(500, 'connection_number_missing', messages.server.internal);
              return number.id;
            }
          }
          const existing = (await trx('whatsapp_numbers').where({ provider, phoneNumberId: row.phoneNumberId }).first()) as WhatsappNumberRow | undefined;
          if (existing && existing.userId !== row.userId) throw ConflictError('number_id_taken', messages.whatsappConnect.errors.numberTaken);
          if (existing) {
            await trx('whatsapp_numbers').where({ id: existing.id }).update({ displayNumber: display, label, isActive: true, updatedAt: nowIso });
            return existing.id;
          }
          const [inserted] = (await trx('whatsapp_numbers')
            .insert({
              userId: row.userId,
              provider,
              phoneNumberId: row.phoneNumberId,
              displayNumber: display,
              label,
              messagesPerSecond: target.sandbox ? this.deps.sandboxMessagesPerSecond : DEFAULT_MESSAGES_PER_SECOND,
              isSandbox: false,
              isActive: true,
              createdAt: nowIso,
              updatedAt: nowIso,
            })
            .returning('id')) as ({ id: number } | number)[];
          return typeof inserted === 'object' ? inserted.id : Number(inserted);
        }),
      );
    } catch (error) {
      if (error instanceof AppError && error.status === 409) throw new AppError(409, 'number_id_taken', messages.whatsappConnect.errors.numberTaken);
      throw error;
    }
  }

  /** One Graph call; a Meta error or no answer becomes a SignupGraphError. */
  private async call(method: 'GET' | 'POST', url: string, token: string | null, body: Record<string, unknown> | null): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SignupGraphError(null, null, null, error instanceof Error ? error.message : 'no answer');
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const record = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    if (response.ok) return record;
    const error = record.error && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : {};
    throw new SignupGraphError(
      response.status,
      typeof error.code === 'number' ? error.code : null,
      typeof error.error_subcode === 'number' ? error.error_subcode : null,
      typeof error.message === 'string' ? error.message.slice(0, 300) : `HTTP ${response.status}`,
    );
  }
}
