/**
 * Conversations: every message contacts send to a user's numbers, and the service replies the
 * user answers with inside Meta's 24-hour customer service window.
 *
 * Ingest follows Meta's guidance for webhook servers (acknowledge at once, work later): the
 * webhook stores each incoming message with one insert and answers; batches then link each one
 * to the campaign message it answers (`context.id`, the quick-reply payload our sends carry, or
 * the latest campaign message to that contact within CONVERSATIONS.attributionHours), keep the
 * conversation list's row, tell integrators and the user's open tabs, and fetch media through
 * the number's provider. See docs/decisions/2026-12-07-replies-and-the-service-window.md.
 */
import { EventEmitter } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { CONVERSATIONS } from '@shared/constants';
import { messages as texts } from '@shared/messages';
import { forUpdateSkipLocked } from '../db/dialect';
import { BatchApplier } from '../db/batchApplier';
import { GroupedInsert } from '../db/groupedInsert';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import { parseSendReference } from '../sending/claims';
import { recordReplies } from '../contacts/activity';
import { parseReplyReference, replyReference } from '../sending/replyReferences';
export { REPLY_REFERENCE_PREFIX, parseReplyReference, replyReference } from '../sending/replyReferences';
import { withConflictRetry } from '../sending/messageOutcomes';
import type { ProviderRegistry } from '../sending/providerRegistry';
import type { InboundMessage, ServiceSendRequest, StatusEvent } from '../sending/providers/types';
import type { OwnerEvent, WebhookService } from '../integratorApi/webhooks/service';
import type { WalletService } from '../wallet/service';
import type { ReplyEffect } from '../suppressions/optOutRule';
import type { SuppressionService } from '../suppressions/service';
import { describeInbound, previewText } from './inboundMessage';
import { checkedExtension, REPLY_MEDIA_FOLDER, REPLY_MEDIA_ID, replyMediaType, storeInboundFile, storeReplyFile } from './mediaFiles';


export interface ConversationMessageRow {
  id: number;
  userId: number;
  contact: string;
  phoneNumberId: string;
  direction: 'in' | 'out';
  kind: string;
  providerMessageId: string | null;
  text: string | null;
  details: string | null;
  profileName: string | null;
  contextProviderId: string | null;
  answersMessageId: number | string | null;
  campaignId: number | null;
  buttonText: string | null;
  buttonPayload: string | null;
  mediaId: string | null;
  mediaMime: string | null;
  mediaFilename: string | null;
  mediaPath: string | null;
  mediaSize: number | null;
  mediaState: string | null;
  /** What the opt-out rule made of an incoming message (suppressions/optOutRule.ts); null for none. */
  replyEffect: ReplyEffect | null;
  status: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  priceUnits: number;
  occurredAt: string | Date;
  appliedAt: string | Date | null;
  createdAt: string | Date;
}

/** A thread message with what it answers: the campaign and its template, and that message's status. */
export interface ThreadMessage extends ConversationMessageRow {
  campaignName: string | null;
  templateName: string | null;
  answeredStatus: string | null;
}

export interface ConversationRow {
  id: number;
  userId: number;
  contact: string;
  phoneNumberId: string;
  profileName: string | null;
  lastKind: string | null;
  lastText: string | null;
  lastDirection: string | null;
  lastCampaignId: number | null;
  unreadCount: number;
  lastMessageAt: string | Date;
  lastInboundAt: string | Date | null;
  createdAt: string | Date;
}

/** Campaign messages sent to the contact, shown in the thread beside the conversation. */
export interface CampaignMessageSummary {
  id: number;
  campaignId: number;
  campaignName: string;
  templateName: string;
  status: string;
  sentAt: string | Date | null;
  createdAt: string | Date;
}

export interface ConversationListQuery {
  number?: string | undefined;
  campaignId?: number | undefined;
  unread?: boolean | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
}

/** Told when a user's conversation changed (a message arrived or was sent, a status moved, it was read). */
export type ConversationListener = (change: { contact: string }) => void;

export interface ConversationServiceDeps {
  db: Knex;
  log: Logger;
  dataDir: string;
  providers: Pick<ProviderRegistry, 'prepare' | 'providerFor'>;
  webhooks: Pick<WebhookService, 'ownerEvents'>;
  wallet: Pick<WalletService, 'apply'>;
  /** The user's price of one service message, in credit units. */
  servicePrice: (userId: number) => Promise<number>;
  /** The public address media links start with (the provider fetches reply files by link). */
  publicBaseUrl: string;
  /**
   * The one opt-out rule, run on every incoming message in the batch that applies it, inside its
   * transaction (suppressions/service.ts).
   */
  replies: Pick<SuppressionService, 'applyReplies'>;
  now?: () => Date;
}

const STATUS_RANK: Record<string, number> = { queued: 0, accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

const encodeCursor = (parts: (string | number)[]) => Buffer.from(parts.join('|')).toString('base64url');
const decodeCursor = (cursor: string | undefined): string[] | null => (cursor ? Buffer.from(cursor, 'base64url').toString('utf8').split('|') : null);
const iso = (value: string | Date) => new Date(value).toISOString();

export class ConversationService {
  private readonly hub = new EventEmitter();
  private readonly applier: BatchApplier;

  /** Concurrent webhooks' rows go in together (db/groupedInsert.ts); a message Meta delivers again is ignored by the unique key. */
  private readonly inboundRows = new GroupedInsert<Record<string, unknown>>(async (rows) => {
    for (let start = 0; start < rows.length; start += 200) {
      await this.deps.db('conversation_messages').insert(rows.slice(start, start + 200)).onConflict(['userId', 'direction', 'providerMessageId']).ignore();
    }
  });

  constructor(private readonly deps: ConversationServiceDeps) {
    this.hub.setMaxListeners(0);
    this.applier = new BatchApplier({ applyOnce: () => this.applyBatch(), batchSize: CONVERSATIONS.applyBatch, log: deps.log, what: 'applying incoming messages' });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  start(): void {
    this.applier.start();
  }

  async stop(): Promise<void> {
    await this.applier.stop();
  }

  subscribe(userId: number, listener: ConversationListener): () => void {
    const event = `user:${userId}`;
    this.hub.on(event, listener);
    return () => this.hub.off(event, listener);
  }

  private tell(userId: number, contact: string): void {
    this.hub.emit(`user:${userId}`, { contact });
  }

  // ---------------------------------------------------------------- ingest

  /**
   * Stores incoming messages for each owner of the number that signed them, with the rows of the
   * webhooks received meanwhile; answers once they are stored. Applied later in batches.
   */
  async storeInbound(ownerIds: readonly number[], phoneNumberId: string, inbound: readonly InboundMessage[]): Promise<void> {
    if (ownerIds.length === 0 || inbound.length === 0) return;
    const createdAt = this.now().toISOString();
    const rows = ownerIds.flatMap((userId) =>
      inbound.map((message) => {
        const described = describeInbound(message.raw);
        return {
          userId,
          contact: message.from.replace(/\D+/g, '').slice(0, 20),
          phoneNumberId: phoneNumberId.slice(0, 128),
          direction: 'in',
          kind: described.kind,
          providerMessageId: message.providerMessageId.slice(0, 128),
          text: described.text,
          details: described.details ? JSON.stringify(described.details).slice(0, 20_000) : null,
          profileName: message.profileName?.slice(0, 200) ?? null,
          contextProviderId: described.contextId,
          buttonText: described.buttonText,
          buttonPayload: described.buttonPayload,
          mediaId: described.media?.id ?? null,
          mediaMime: described.media?.mime ?? null,
          mediaFilename: described.media?.filename ?? null,
          mediaState: described.media ? 'pending' : null,
          occurredAt: message.timestamp.toISOString(),
          createdAt,
        };
      }),
    );
    await this.inboundRows.add(rows);
    this.applier.stored();
  }

  /** Applies everything stored before the call (tests, the bench, shutdown). */
  drain(): Promise<void> {
    return this.applier.drain();
  }

  /**
   * Links, runs the opt-out rule on, lists and announces one batch of stored incoming messages;
   * answers how many it took.
   */
  async applyBatch(): Promise<number> {
    const appliedAt = this.now().toISOString();
    let applied: ConversationMessageRow[] = [];
    await withConflictRetry(() =>
      this.deps.db.transaction(async (trx) => {
        let query = trx('conversation_messages').whereNull('appliedAt').orderBy('id').limit(CONVERSATIONS.applyBatch);
        query = forUpdateSkipLocked(query, this.deps.db);
        const rows = (await query.select('*')) as ConversationMessageRow[];
        applied = rows;
        if (rows.length === 0) return;
        const links = await this.linkToCampaigns(trx, rows);
        const incoming = rows.filter((row) => row.direction === 'in');
        const effects = await this.deps.replies.applyReplies(trx, incoming.map((row) => ({ ...row, userId: Number(row.userId) })));
        incoming.forEach((row, index) => {
          const effect = effects[index] ?? 'none';
          row.replyEffect = effect === 'none' ? null : effect;
        });
        for (const row of rows) {
          const link = links.get(row.id);
          if (link) Object.assign(row, { answersMessageId: link.messageId, campaignId: link.campaignId });
        }
        await this.markApplied(trx, rows, appliedAt);
        await this.keepConversations(trx, incoming);
        await recordReplies(trx, incoming, this.now());
      }),
    );
    if (applied.length === 0) return 0;
    for (const row of applied) this.tell(Number(row.userId), row.contact);
    await this.deps.webhooks.ownerEvents(applied.flatMap((row) => this.announcements(row)));
    for (const row of applied) if (row.mediaState === 'pending') await this.fetchMedia(row);
    return applied.length;
  }

  /**
   * Marks a batch applied, with its links and the rule's effects, a few hundred rows a statement:
   * a row's own values are picked by `case id when ...` (cast, so PostgreSQL types the parameters).
   */
  private async markApplied(trx: Knex, rows: readonly ConversationMessageRow[], appliedAt: string): Promise<void> {
    const plain = rows.filter((row) => row.answersMessageId === null && row.replyEffect === null).map((row) => row.id);
    for (let start = 0; start < plain.length; start += 500) await trx('conversation_messages').whereIn('id', plain.slice(start, start + 500)).update({ appliedAt });
    const marked = rows.filter((row) => row.answersMessageId !== null || row.replyEffect !== null);
    const pick = (chunk: readonly ConversationMessageRow[], type: string, value: (row: ConversationMessageRow) => string | number | null) =>
      trx.raw(`case ?? ${chunk.map(() => `when ? then cast(? as ${type})`).join(' ')} end`, ['id', ...chunk.flatMap((row) => [row.id, value(row)])]);
    for (let start = 0; start < marked.length; start += 200) {
      const chunk = marked.slice(start, start + 200);
      await trx('conversation_messages')
        .whereIn('id', chunk.map((row) => row.id))
        .update({
          appliedAt,
          answersMessageId: pick(chunk, 'bigint', (row) => (row.answersMessageId === null ? null : Number(row.answersMessageId))),
          campaignId: pick(chunk, 'integer', (row) => (row.campaignId === null ? null : Number(row.campaignId))),
          replyEffect: pick(chunk, 'varchar(10)', (row) => row.replyEffect),
        });
    }
  }

  /**
   * The campaign message each incoming one answers: the message its quick-reply payload names,
   * else the one its `context.id` names, else the latest campaign message sent to that contact
   * within the attribution window before it. Only messages of the same user and contact count.
   */
  private async linkToCampaigns(trx: Knex, rows: readonly ConversationMessageRow[]): Promise<Map<number, { messageId: number; campaignId: number }>> {
    const links = new Map<number, { messageId: number; campaignId: number }>();
    type Candidate = { id: number; campaignId: number; userId: number; recipient: string; providerMessageId: string | null; claimToken: string | null; sentAt: string | Date | null };
    const columns = ['id', 'campaignId', 'userId', 'recipient', 'providerMessageId', 'claimToken', 'sentAt'];
    const byPayload = new Map<number, ConversationMessageRow[]>();
    for (const row of rows) {
      const reference = parseSendReference(row.buttonPayload);
      if (reference) byPayload.set(reference.id, [...(byPayload.get(reference.id) ?? []), row]);
    }
    if (byPayload.size > 0) {
      const found = (await trx('messages').whereIn('id', [...byPayload.keys()]).select(columns)) as Candidate[];
      for (const message of found) {
        for (const row of byPayload.get(Number(message.id)) ?? []) {
          if (Number(message.userId) === Number(row.userId) && message.recipient === row.contact) links.set(row.id, { messageId: Number(message.id), campaignId: Number(message.campaignId) });
        }
      }
    }
    const byContext = rows.filter((row) => !links.has(row.id) && row.contextProviderId);
    if (byContext.length > 0) {
      const ids = [...new Set(byContext.map((row) => row.contextProviderId as string))];
      const found = (await trx('messages').whereIn('providerMessageId', ids).select(columns)) as Candidate[];
      for (const row of byContext) {
        const message = found.find((m) => m.providerMessageId === row.contextProviderId && Number(m.userId) === Number(row.userId) && m.recipient === row.contact);
        if (message) links.set(row.id, { messageId: Number(message.id), campaignId: Number(message.campaignId) });
      }
    }
    const rest = rows.filter((row) => !links.has(row.id) && row.kind !== 'system');
    if (rest.length > 0) {
      const windowMs = CONVERSATIONS.attributionHours * 3_600_000;
      const earliest = new Date(Math.min(...rest.map((row) => new Date(row.occurredAt).getTime())) - windowMs).toISOString();
      const found = (await trx('messages')
        .whereIn('userId', [...new Set(rest.map((row) => Number(row.userId)))])
        .whereIn('recipient', [...new Set(rest.map((row) => row.contact))])
        .whereNotNull('sentAt')
        .where('sentAt', '>=', earliest)
        .select(columns)) as Candidate[];
      for (const row of rest) {
        // Meta's timestamp is in whole seconds: a reply in the second of the send would look older than it.
        const at = Math.max(new Date(row.occurredAt).getTime(), new Date(row.createdAt).getTime());
        let best: Candidate | null = null;
        for (const m of found) {
          if (Number(m.userId) !== Number(row.userId) || m.recipient !== row.contact || !m.sentAt) continue;
          const sent = new Date(m.sentAt).getTime();
          if (sent > at || sent < at - windowMs) continue;
          if (!best || sent > new Date(best.sentAt as string | Date).getTime()) best = m;
        }
        if (best) links.set(row.id, { messageId: Number(best.id), campaignId: Number(best.campaignId) });
      }
    }
    return links;
  }

  /**
   * The list's row of each contact: created when new, moved to the newest message, unread
   * counted. One upsert per chunk of contacts; a row kept already takes the newer of its own
   * values and the batch's (an older message arriving late does not move the list back).
   */
  private async keepConversations(trx: Knex, rows: readonly ConversationMessageRow[]): Promise<void> {
    const groups = new Map<string, ConversationMessageRow[]>();
    for (const row of rows) {
      const key = `${row.userId}:${row.contact}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const createdAt = this.now().toISOString();
    const values = [...groups.values()].map((group) => {
      const latest = group.reduce((a, b) => (new Date(b.occurredAt).getTime() >= new Date(a.occurredAt).getTime() ? b : a));
      const at = iso(latest.occurredAt);
      return {
        userId: Number(latest.userId),
        contact: latest.contact,
        phoneNumberId: latest.phoneNumberId,
        profileName: [...group].reverse().find((row) => row.profileName)?.profileName ?? null,
        lastCampaignId: [...group].reverse().find((row) => row.campaignId)?.campaignId ?? null,
        unreadCount: group.length,
        lastInboundAt: at,
        lastMessageAt: at,
        lastKind: latest.kind,
        lastText: previewText(latest.kind, latest.text),
        lastDirection: 'in',
        createdAt,
      };
    });
    const newer = (column: string) => trx.raw('case when ?? <= ?? then ?? else ?? end', ['conversations.last_message_at', 'excluded.last_message_at', `excluded.${column}`, `conversations.${column}`]);
    for (let start = 0; start < values.length; start += 200) {
      await trx('conversations')
        .insert(values.slice(start, start + 200))
        .onConflict(['userId', 'contact'])
        .merge({
          unreadCount: trx.raw('?? + ??', ['conversations.unread_count', 'excluded.unread_count']),
          lastInboundAt: trx.raw('case when ?? is null or ?? < ?? then ?? else ?? end', ['conversations.last_inbound_at', 'conversations.last_inbound_at', 'excluded.last_inbound_at', 'excluded.last_inbound_at', 'conversations.last_inbound_at']),
          phoneNumberId: trx.raw('??', ['excluded.phone_number_id']),
          profileName: trx.raw('coalesce(??, ??)', ['excluded.profile_name', 'conversations.profile_name']),
          lastCampaignId: trx.raw('coalesce(??, ??)', ['excluded.last_campaign_id', 'conversations.last_campaign_id']),
          lastKind: newer('last_kind'),
          lastText: newer('last_text'),
          lastDirection: newer('last_direction'),
          lastMessageAt: newer('last_message_at'),
        });
    }
  }

  /** `message.received` for every incoming message; `message.button_clicked` for a tap on a campaign's button. */
  private announcements(row: ConversationMessageRow): OwnerEvent[] {
    if (row.direction !== 'in') return [];
    const userId = Number(row.userId);
    const data = {
      id: `in_${row.id}`,
      from: row.contact,
      profile_name: row.profileName,
      kind: row.kind,
      text: row.text,
      campaign_id: row.campaignId === null ? null : Number(row.campaignId),
      reply_to_message_id: row.answersMessageId === null ? null : `msg_${row.answersMessageId}`,
      received_at: iso(row.occurredAt),
    };
    const received: OwnerEvent = { userId, type: 'message.received', data, eventId: `evt_in_${row.id}` };
    if ((row.kind === 'button' || row.kind === 'interactive') && row.buttonText) {
      return [received, { userId, type: 'message.button_clicked', data: { ...data, button_text: row.buttonText }, eventId: `evt_tap_${row.id}` }];
    }
    return [received];
  }

  /** Fetches an incoming file through the number's provider into DATA_DIR; never throws. */
  private async fetchMedia(row: ConversationMessageRow): Promise<void> {
    const mark = (values: Record<string, unknown>) => this.deps.db('conversation_messages').where({ id: row.id }).update(values);
    try {
      const number = await this.numberOf(Number(row.userId), row.phoneNumberId);
      const provider = number ? (await this.deps.providers.prepare([number]), this.deps.providers.providerFor(number)) : null;
      if (!provider?.fetchMedia || !row.mediaId) {
        await mark({ mediaState: 'failed' });
        return;
      }
      // Tried again at once a few times: a retry later would need its own schedule, and Meta keeps the file for weeks.
      let result = await provider.fetchMedia(row.phoneNumberId, row.mediaId, CONVERSATIONS.mediaMaxBytes);
      for (let tries = 1; !result.ok && result.retryable && tries < CONVERSATIONS.mediaTries; tries++) {
        result = await provider.fetchMedia(row.phoneNumberId, row.mediaId, CONVERSATIONS.mediaMaxBytes);
      }
      if (!result.ok) {
        this.deps.log.warn({ messageId: row.id, reason: result.reason }, 'incoming media not fetched');
        await mark({ mediaState: 'failed' });
        return;
      }
      const extension = checkedExtension(result.bytes, row.mediaMime ?? result.mime);
      if (!extension) {
        this.deps.log.warn({ messageId: row.id, mime: row.mediaMime ?? result.mime }, 'incoming media refused: a type we do not keep, or bytes that are not that type');
        await mark({ mediaState: 'refused' });
        return;
      }
      const mediaPath = await storeInboundFile(this.deps.dataDir, Number(row.userId), Number(row.id), extension, result.bytes);
      await mark({ mediaState: 'stored', mediaPath, mediaSize: result.bytes.length });
      this.tell(Number(row.userId), row.contact);
    } catch (error) {
      this.deps.log.warn({ err: error, messageId: row.id }, 'incoming media not fetched');
      await mark({ mediaState: 'failed' }).catch(() => undefined);
    }
  }

  private async numberOf(userId: number, phoneNumberId: string): Promise<(WhatsappNumberRow & { isSandbox: boolean; isActive: boolean }) | null> {
    const row = (await this.deps.db('whatsapp_numbers').where({ userId, phoneNumberId }).first()) as WhatsappNumberRow | undefined;
    return row ? { ...row, isSandbox: Boolean(row.isSandbox), isActive: Boolean(row.isActive) } : null;
  }

  /**
   * Statuses of service replies (their reference is `sandesh-reply:<id>`), applied at once: few,
   * and only forward. Scoped to the owners of the number that signed them.
   */
  async applyReplyStatuses(ownerIds: readonly number[], statuses: readonly StatusEvent[]): Promise<void> {
    for (const status of statuses) {
      const id = parseReplyReference(status.callbackData);
      if (id === null || ownerIds.length === 0) continue;
      const row = (await this.deps.db('conversation_messages').where({ id, direction: 'out' }).whereIn('userId', ownerIds).first('id', 'userId', 'contact', 'status')) as
        | Pick<ConversationMessageRow, 'id' | 'userId' | 'contact' | 'status'>
        | undefined;
      if (!row || (STATUS_RANK[status.status] ?? 0) <= (STATUS_RANK[row.status ?? 'queued'] ?? 0)) continue;
      const update: Record<string, unknown> = { status: status.status, providerMessageId: status.providerMessageId.slice(0, 128) };
      if (status.status === 'failed' && status.error) Object.assign(update, { errorCode: status.error.code, errorMessage: status.error.title.slice(0, 500) });
      await this.deps.db('conversation_messages').where({ id: row.id }).update(update);
      this.tell(Number(row.userId), row.contact);
    }
  }

  // ---------------------------------------------------------------- reading

  async list(userId: number, query: ConversationListQuery): Promise<{ conversations: ConversationRow[]; nextCursor: string | null }> {
    const { db } = this.deps;
    let q = db('conversations').where({ userId });
    if (query.number) q = q.where('contact', 'like', `%${query.number.replace(/\D+/g, '')}%`);
    if (query.unread) q = q.where('unreadCount', '>', 0);
    if (query.q) {
      const text = query.q.trim();
      const digits = text.replace(/\D+/g, '');
      q = q.where((w) => {
        w.whereRaw('lower(??) like ?', ['profile_name', `%${text.toLowerCase()}%`]);
        if (digits.length >= 3) w.orWhere('contact', 'like', `%${digits}%`);
      });
    }
    if (query.campaignId) {
      const campaignId = query.campaignId;
      q = q.whereExists(function () {
        this.select(db.raw('1')).from('conversation_messages as m').whereRaw('?? = ??', ['m.user_id', 'conversations.user_id']).whereRaw('?? = ??', ['m.contact', 'conversations.contact']).where('m.campaignId', campaignId);
      });
    }
    const cursor = decodeCursor(query.cursor);
    if (cursor && cursor.length === 2) {
      const [at, id] = cursor as [string, string];
      q = q.where((w) => w.where('lastMessageAt', '<', at).orWhere((x) => x.where('lastMessageAt', '=', at).where('id', '<', Number(id))));
    }
    const rows = (await q.orderBy([{ column: 'lastMessageAt', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(CONVERSATIONS.pageSize + 1).select('*')) as ConversationRow[];
    const page = rows.slice(0, CONVERSATIONS.pageSize);
    const last = page[page.length - 1];
    return { conversations: page, nextCursor: rows.length > CONVERSATIONS.pageSize && last ? encodeCursor([iso(last.lastMessageAt), last.id]) : null };
  }

  async conversation(userId: number, contact: string): Promise<ConversationRow> {
    const row = (await this.deps.db('conversations').where({ userId, contact }).first()) as ConversationRow | undefined;
    if (!row) throw NotFoundError(texts.conversations.notFound, 'conversation_not_found');
    return row;
  }

  /** Whether the contact's last message is less than the service window old. */
  windowOpen(conversation: Pick<ConversationRow, 'lastInboundAt'>): boolean {
    if (!conversation.lastInboundAt) return false;
    return this.now().getTime() - new Date(conversation.lastInboundAt).getTime() < CONVERSATIONS.serviceWindowHours * 3_600_000;
  }

  /** The thread, newest first, a page at a time; the first page also lists campaign messages sent to the contact. */
  async thread(userId: number, contact: string, cursor: string | undefined): Promise<{ conversation: ConversationRow; messages: ThreadMessage[]; campaignMessages: CampaignMessageSummary[]; nextCursor: string | null }> {
    const conversation = await this.conversation(userId, contact);
    const { db } = this.deps;
    let q = db('conversation_messages as m')
      .leftJoin('campaigns as c', 'c.id', 'm.campaignId')
      .leftJoin('messages as a', 'a.id', 'm.answersMessageId')
      .where('m.userId', userId)
      .where('m.contact', contact);
    const before = decodeCursor(cursor)?.[0];
    if (before && /^\d+$/.test(before)) q = q.where('m.id', '<', Number(before));
    const rows = (await q.orderBy('m.id', 'desc').limit(CONVERSATIONS.pageSize + 1).select('m.*', 'c.name as campaignName', 'c.templateName as templateName', 'a.status as answeredStatus')) as ThreadMessage[];
    const page = rows.slice(0, CONVERSATIONS.pageSize);
    const last = page[page.length - 1];
    const campaignMessages = cursor
      ? []
      : ((await db('messages as m')
          .join('campaigns as c', 'c.id', 'm.campaignId')
          .where('m.userId', userId)
          .where('m.recipient', contact)
          .orderBy('m.id', 'desc')
          .limit(20)
          .select('m.id', 'm.campaignId', 'c.name as campaignName', 'c.templateName as templateName', 'm.status', 'm.sentAt', 'm.createdAt')) as CampaignMessageSummary[]);
    return { conversation, messages: page, campaignMessages, nextCursor: rows.length > CONVERSATIONS.pageSize && last ? encodeCursor([last.id]) : null };
  }

  async markRead(userId: number, contact: string): Promise<ConversationRow> {
    await this.conversation(userId, contact);
    await this.deps.db('conversations').where({ userId, contact }).update({ unreadCount: 0 });
    this.tell(userId, contact);
    return this.conversation(userId, contact);
  }

  /** An incoming file of the user's, to stream; not found for anyone else's. */
  async mediaFile(userId: number, id: number): Promise<{ stream: NodeJS.ReadableStream; mime: string; size: number; filename: string | null }> {
    const row = (await this.deps.db('conversation_messages').where({ id, userId }).first('mediaPath', 'mediaMime', 'mediaFilename', 'mediaState')) as
      | Pick<ConversationMessageRow, 'mediaPath' | 'mediaMime' | 'mediaFilename' | 'mediaState'>
      | undefined;
    if (!row?.mediaPath || row.mediaState !== 'stored') throw NotFoundError(texts.conversations.mediaNotFound, 'media_not_found');
    const root = path.resolve(this.deps.dataDir);
    const absolute = path.resolve(root, row.mediaPath);
    if (!absolute.startsWith(root + path.sep)) throw NotFoundError(texts.conversations.mediaNotFound, 'media_not_found');
    const info = await stat(absolute).catch(() => null);
    if (!info?.isFile()) throw NotFoundError(texts.conversations.mediaNotFound, 'media_not_found');
    return { stream: createReadStream(absolute), mime: (row.mediaMime ?? 'application/octet-stream').split(';')[0] ?? 'application/octet-stream', size: info.size, filename: row.mediaFilename };
  }

  /** Per campaign: contacts who replied (distinct), and taps per button text. */
  async campaignReplies(campaignIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(campaignIds.map((id) => [id, 0]));
    if (campaignIds.length === 0) return out;
    const rows = (await this.deps.db('conversation_messages').whereIn('campaignId', campaignIds).where({ direction: 'in' }).whereNot({ kind: 'reaction' }).groupBy('campaignId').select('campaignId', this.deps.db.raw('count(distinct ??) as n', ['contact']))) as {
      campaignId: number;
      n: number | string;
    }[];
    for (const row of rows) out.set(Number(row.campaignId), Number(row.n));
    return out;
  }

  async buttonTaps(campaignId: number): Promise<{ text: string; taps: number; contacts: number }[]> {
    const rows = (await this.deps.db('conversation_messages')
      .where({ campaignId, direction: 'in' })
      .whereIn('kind', ['button', 'interactive'])
      .whereNotNull('buttonText')
      .groupBy('buttonText')
      .select('buttonText', this.deps.db.raw('count(*) as taps'), this.deps.db.raw('count(distinct ??) as contacts', ['contact']))) as { buttonText: string; taps: number | string; contacts: number | string }[];
    return rows.map((row) => ({ text: row.buttonText, taps: Number(row.taps), contacts: Number(row.contacts) })).sort((a, b) => b.taps - a.taps);
  }

  // ---------------------------------------------------------------- answering

  /** Stores a file a user will answer with, after checking its type and size; answers its `media_upload_id`. */
  async storeReplyMedia(userId: number, bytes: Buffer, declaredMime: string): Promise<{ id: string; mime: string; size: number }> {
    if (bytes.length === 0) throw ValidationError('file', texts.conversations.mediaEmpty);
    if (bytes.length > CONVERSATIONS.mediaMaxBytes) throw ValidationError('file', texts.conversations.mediaTooLarge);
    const extension = checkedExtension(bytes, declaredMime);
    if (!extension) throw ValidationError('file', texts.conversations.mediaType);
    const id = await storeReplyFile(this.deps.dataDir, userId, extension, bytes);
    return { id, mime: declaredMime.split(';')[0]?.trim().toLowerCase() ?? '', size: bytes.length };
  }

  /**
   * Answers a contact inside the service window with text or a stored file, through the number
   * the contact last wrote to. Priced as a `service` message (debited when its price is above 0,
   * refunded if the provider refuses it). Outside the window: 409 outside_service_window.
   */
  async reply(userId: number, contact: string, input: { text?: string | undefined; mediaUploadId?: string | undefined; caption?: string | undefined }): Promise<ThreadMessage> {
    const conversation = await this.conversation(userId, contact);
    if (!this.windowOpen(conversation)) throw ConflictError('outside_service_window', texts.conversations.outsideWindow);
    const number = await this.numberOf(userId, conversation.phoneNumberId);
    if (!number) throw NotFoundError(texts.conversations.numberGone, 'number_not_found');
    let content: ServiceSendRequest['content'];
    let kind: string;
    let mediaPath: string | null = null;
    if (input.mediaUploadId) {
      if (!REPLY_MEDIA_ID.test(input.mediaUploadId)) throw ValidationError('media_upload_id', texts.conversations.mediaNotFound);
      mediaPath = `${REPLY_MEDIA_FOLDER}/${userId}/${input.mediaUploadId}`;
      const info = await stat(path.resolve(this.deps.dataDir, mediaPath)).catch(() => null);
      if (!info?.isFile()) throw ValidationError('media_upload_id', texts.conversations.mediaNotFound);
      const extension = input.mediaUploadId.split('.').pop() ?? '';
      const type = replyMediaType(extension);
      content = { type, link: `${this.deps.publicBaseUrl}/${mediaPath}`, ...(input.caption ? { caption: input.caption } : {}), ...(type === 'document' ? { filename: `file.${extension}` } : {}) };
      kind = type;
    } else {
      content = { type: 'text', body: input.text ?? '' };
      kind = 'text';
    }
    const nowIso = this.now().toISOString();
    const priceUnits = await this.deps.servicePrice(userId);
    const inserted = (await this.deps
      .db('conversation_messages')
      .insert({
        userId,
        contact,
        phoneNumberId: conversation.phoneNumberId,
        direction: 'out',
        kind,
        text: content.type === 'text' ? content.body : (content.caption ?? null),
        mediaPath,
        mediaState: mediaPath ? 'stored' : null,
        mediaMime: null,
        status: 'queued',
        priceUnits,
        occurredAt: nowIso,
        appliedAt: nowIso,
        createdAt: nowIso,
      })
      .returning('id')) as ({ id: number | string } | number)[];
    const id = Number(typeof inserted[0] === 'object' ? inserted[0].id : inserted[0]);
    if (priceUnits > 0) {
      await this.deps.wallet.apply({ userId, amountUnits: -priceUnits, type: 'SERVICE_DEBIT', description: `Reply to ${contact}`, idempotencyKey: `service:${id}`, referenceType: 'conversation_message', referenceId: String(id) }).catch(async (error: unknown) => {
        await this.deps.db('conversation_messages').where({ id }).delete();
        throw error;
      });
    }
    await this.deps.providers.prepare([number]);
    const provider = this.deps.providers.providerFor(number);
    const result = provider?.sendService
      ? await provider.sendService({ phoneNumberId: number.phoneNumberId, to: contact, content, callbackData: replyReference(id) })
      : ({ ok: false, code: 0, title: 'This number cannot send replies' } as const);
    if (result.ok) {
      await this.deps.db('conversation_messages').where({ id }).whereIn('status', ['queued']).update({ status: 'accepted', providerMessageId: result.providerMessageId.slice(0, 128) });
    } else {
      await this.deps.db('conversation_messages').where({ id }).update({ status: 'failed', errorCode: result.code, errorMessage: result.title.slice(0, 500) });
      if (priceUnits > 0) {
        await this.deps.wallet.apply({ userId, amountUnits: priceUnits, type: 'REFUND_ADD', description: `Reply to ${contact} not sent`, idempotencyKey: `service-refund:${id}`, referenceType: 'conversation_message', referenceId: String(id) });
      }
    }
    await this.deps.db('conversations').where({ userId, contact }).where('lastMessageAt', '<=', nowIso).update({ lastMessageAt: nowIso, lastKind: kind, lastText: previewText(kind, content.type === 'text' ? content.body : (content.caption ?? null)), lastDirection: 'out' });
    this.tell(userId, contact);
    const row = (await this.deps.db('conversation_messages').where({ id }).first()) as ConversationMessageRow;
    return { ...row, campaignName: null, templateName: null, answeredStatus: null };
  }

  /**
   * Contacts of a campaign for "Send again to…": those who replied, those who tapped a button
   * (by its text), or those who read and did not reply.
   */
  async audience(userId: number, campaignId: number, audience: 'replied' | 'tapped' | 'read_no_reply', buttonText?: string): Promise<string[]> {
    const { db } = this.deps;
    if (audience === 'read_no_reply') {
      const rows = (await db('messages')
        .where({ campaignId, userId, status: 'read' })
        .whereNotExists(function () {
          this.select(db.raw('1')).from('conversation_messages as r').where('r.campaignId', campaignId).where('r.direction', 'in').whereRaw('?? = ??', ['r.contact', 'messages.recipient']);
        })
        .distinct('recipient')) as { recipient: string }[];
      return rows.map((row) => row.recipient);
    }
    let q = db('conversation_messages').where({ campaignId, userId, direction: 'in' }).whereNot({ kind: 'reaction' });
    if (audience === 'tapped') q = q.whereIn('kind', ['button', 'interactive']).where({ buttonText: buttonText ?? '' });
    const rows = (await q.distinct('contact')) as { contact: string }[];
    return rows.map((row) => row.contact);
  }
}
