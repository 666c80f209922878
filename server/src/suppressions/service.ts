/**
 * The suppression list: numbers that get none of an account's messages. The `suppressions` table
 * is the one source of truth (acceptance skips and counts its numbers); this service lists,
 * searches, adds, removes, imports and exports it, keeps the account's opt-out keywords, applies
 * the opt-out rule to incoming replies and keeps the replies flagged for the user to decide.
 */
import type { Knex } from 'knex';
import { DEFAULT_OPT_OUT_KEYWORDS } from '@shared/optOutKeywords';
import { checkPhone } from '@shared/phone';
import { csvLine } from '@shared/csv';
import { messages } from '@shared/messages';
import { SUPPRESSION_IMPORT_MAX_ROWS, SUPPRESSION_REASON_MAX_LENGTH, SUPPRESSIONS_PAGE_SIZE, type TSuppressionSource } from '@shared/schemas/suppressions';
import { NotFoundError, ValidationError } from '../errors';
import { parseSendReference } from '../sending/claims';
import { classifyReply, type IncomingReply, type ReplyEffect } from './optOutRule';

export interface SuppressionRecord {
  id: number;
  phone: string;
  source: TSuppressionSource;
  reason: string;
  createdAt: Date;
}

export interface SuppressionPage {
  entries: SuppressionRecord[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface ReplyFlagRecord {
  id: number;
  phone: string;
  text: string;
  receivedAt: Date;
}

export interface ImportResult {
  added: number;
  skipped: number;
  invalid: number;
}

/**
 * An incoming message as the batch that applies it has stored it (conversations/service.ts):
 * the rule reads typed text and taps; other kinds (media captions, locations...) never opt out.
 */
export interface StoredReply {
  userId: number;
  contact: string;
  providerMessageId: string | null;
  kind: string;
  text: string | null;
  buttonText: string | null;
  buttonPayload: string | null;
  occurredAt: string | Date;
}

interface SuppressionRow {
  id: number | string;
  recipient: string;
  source: string;
  reason: string | null;
  createdAt: string | Date;
}

const INSERT_CHUNK = 500;

function toRecord(row: SuppressionRow): SuppressionRecord {
  return { id: Number(row.id), phone: row.recipient, source: row.source as TSuppressionSource, reason: row.reason ?? '', createdAt: new Date(row.createdAt) };
}

/** Cells of a CSV text (RFC 4180 quoting), one array per non-empty line. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === ';' || ch === '\t') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      if (row.some((c) => c.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  row.push(cell);
  if (row.some((c) => c.trim() !== '')) rows.push(row);
  return rows;
}

const PHONE_HEADERS = new Set(['phone', 'number', 'mobile', 'phone number', 'whatsapp', 'recipient', 'wa_id']);

export class SuppressionService {
  constructor(private readonly deps: { db: Knex }) {}

  async list(userId: number, query: { q?: string; cursor?: string }): Promise<SuppressionPage> {
    const builder = this.deps.db('suppressions').where({ userId });
    const q = query.q?.trim();
    if (q) {
      const digits = q.replace(/[\s+\-()]/g, '');
      const pattern = `%${q.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      builder.where((w) => {
        if (/^\d+$/.test(digits)) w.orWhere('recipient', 'like', `%${digits}%`);
        w.orWhereRaw("lower(reason) like ? escape '\\'", [pattern]);
      });
    }
    const cursor = query.cursor && /^\d{1,15}$/.test(query.cursor) ? Number(query.cursor) : null;
    if (cursor !== null) builder.where('id', '<', cursor);
    const rows = (await builder.orderBy('id', 'desc').limit(SUPPRESSIONS_PAGE_SIZE + 1).select('id', 'recipient', 'source', 'reason', 'createdAt')) as SuppressionRow[];
    const hasMore = rows.length > SUPPRESSIONS_PAGE_SIZE;
    const entries = rows.slice(0, SUPPRESSIONS_PAGE_SIZE).map(toRecord);
    return { entries, hasMore, nextCursor: hasMore ? String(entries[entries.length - 1]!.id) : null };
  }

  /** Adds a number; `created` false when it was listed already (the first entry is kept). */
  async add(userId: number, phone: string, source: TSuppressionSource, reason = ''): Promise<{ created: boolean; entry: SuppressionRecord }> {
    const inserted = await this.insert(this.deps.db, userId, [{ phone, reason }], source);
    const row = (await this.deps.db('suppressions').where({ userId, recipient: phone }).first('id', 'recipient', 'source', 'reason', 'createdAt')) as SuppressionRow;
    return { created: inserted > 0, entry: toRecord(row) };
  }

  async remove(userId: number, phone: string): Promise<void> {
    const removed = await this.deps.db('suppressions').where({ userId, recipient: phone }).delete();
    if (removed === 0) throw NotFoundError(messages.suppressions.notListed, 'not_suppressed');
  }

  /** A CSV with a phone column (by header, else the first column) and an optional reason column. */
  async importCsv(userId: number, csv: string): Promise<ImportResult> {
    const rows = csvRows(csv);
    if (rows.length === 0) throw ValidationError('csv', messages.suppressions.importEmpty);
    const header = rows[0]!.map((c) => c.trim().toLowerCase());
    const hasHeader = !checkPhone(rows[0]![0] ?? '').ok && header.some((c) => PHONE_HEADERS.has(c) || c === 'reason');
    const phoneColumn = hasHeader ? Math.max(0, header.findIndex((c) => PHONE_HEADERS.has(c))) : 0;
    const reasonColumn = hasHeader ? header.indexOf('reason') : -1;
    const body = hasHeader ? rows.slice(1) : rows;
    if (body.length > SUPPRESSION_IMPORT_MAX_ROWS) throw ValidationError('csv', messages.suppressions.importTooBig.replace('{max}', String(SUPPRESSION_IMPORT_MAX_ROWS)));
    const wanted = new Map<string, string>();
    let invalid = 0;
    for (const row of body) {
      const checked = checkPhone(row[phoneColumn] ?? '');
      if (!checked.ok) {
        invalid += 1;
        continue;
      }
      if (!wanted.has(checked.phone)) wanted.set(checked.phone, reasonColumn >= 0 ? (row[reasonColumn] ?? '').trim() : '');
    }
    if (wanted.size === 0 && invalid === 0) throw ValidationError('csv', messages.suppressions.importEmpty);
    const entries = [...wanted].map(([phone, reason]) => ({ phone, reason }));
    const added = await this.deps.db.transaction((trx) => this.insert(trx, userId, entries, 'import'));
    return { added, skipped: entries.length - added, invalid };
  }

  /** The whole list as CSV (phone, source, reason, added at), oldest first. */
  async exportCsv(userId: number): Promise<string> {
    const rows = (await this.deps.db('suppressions').where({ userId }).orderBy('id').select('id', 'recipient', 'source', 'reason', 'createdAt')) as SuppressionRow[];
    return csvLine(['phone', 'source', 'reason', 'created_at']) + rows.map(toRecord).map((r) => csvLine([r.phone, r.source, r.reason, r.createdAt.toISOString()])).join('');
  }

  /** The account's opt-out keywords, and whether they are its own or the defaults. */
  async keywords(userId: number): Promise<{ keywords: string[]; custom: boolean }> {
    const row = (await this.deps.db('users').where({ id: userId }).first('optOutKeywords')) as { optOutKeywords: string | null } | undefined;
    const own = parseKeywords(row?.optOutKeywords ?? null);
    return own ? { keywords: own, custom: true } : { keywords: [...DEFAULT_OPT_OUT_KEYWORDS], custom: false };
  }

  /** Sets the account's keywords; null restores the defaults. */
  async setKeywords(userId: number, keywords: readonly string[] | null): Promise<{ keywords: string[]; custom: boolean }> {
    const unique = keywords ? [...new Set(keywords.map((k) => k.trim()))] : null;
    await this.deps.db('users').where({ id: userId }).update({ optOutKeywords: unique ? JSON.stringify(unique) : null });
    return this.keywords(userId);
  }

  /**
   * Applies the opt-out rule to a batch of incoming messages, in the order given, inside the
   * caller's transaction (the one that marks them applied): opts out, opts back in, or keeps a
   * flag for the user. Each account's keywords and the tapped buttons' templates are read once
   * per batch. Answers each message's effect, by position. A repeat of a message is harmless.
   */
  async applyReplies(db: Knex, replies: readonly StoredReply[]): Promise<ReplyEffect[]> {
    const effects: ReplyEffect[] = replies.map(() => 'none');
    const said = (reply: StoredReply) => (reply.kind === 'text' ? reply.text : reply.kind === 'button' || reply.kind === 'interactive' ? reply.buttonText : null);
    const wanted = replies.flatMap((reply, index) => (said(reply) ? [index] : []));
    if (wanted.length === 0) return effects;
    const keywords = await this.keywordsOf(db, [...new Set(wanted.map((index) => replies[index]!.userId))]);
    const optOutButtons = await this.optOutButtons(db, wanted.map((index) => replies[index]!));
    // A contact's last opt-out or opt-in of the batch is the one that stands: STOP then START
    // leaves them subscribed, as it would one message at a time.
    const last = new Map<string, { userId: number; phone: string; effect: 'opt_out' | 'opt_in'; reason: string; source: TSuppressionSource }>();
    const flags: Record<string, unknown>[] = [];
    for (const index of wanted) {
      const stored = replies[index]!;
      const text = said(stored) as string;
      const isTap = stored.kind !== 'text';
      const reference = isTap ? parseSendReference(stored.buttonPayload) : null;
      const reply: IncomingReply = isTap ? { buttonText: text, buttonPayload: stored.buttonPayload, optOutButton: reference !== null && (optOutButtons.get(`${stored.userId}:${reference.id}`) ?? []).includes(text.trim()) } : { text };
      const effect = classifyReply(reply, keywords.get(stored.userId) ?? DEFAULT_OPT_OUT_KEYWORDS);
      effects[index] = effect;
      if (effect === 'opt_out' || effect === 'opt_in') {
        const key = `${stored.userId}:${stored.contact}`;
        last.delete(key);
        last.set(key, { userId: stored.userId, phone: stored.contact, effect, reason: text.trim(), source: isTap ? 'button' : 'keyword_reply' });
      } else if (effect === 'flag' && stored.providerMessageId) {
        flags.push({ userId: stored.userId, recipient: stored.contact.slice(0, 15), providerMessageId: stored.providerMessageId.slice(0, 200), text: text.slice(0, 1000), receivedAt: new Date(stored.occurredAt).toISOString() });
      }
    }
    const outs = new Map<string, { userId: number; source: TSuppressionSource; entries: { phone: string; reason: string }[] }>();
    const ins = new Map<number, string[]>();
    for (const change of last.values()) {
      if (change.effect === 'opt_in') {
        ins.set(change.userId, [...(ins.get(change.userId) ?? []), change.phone]);
        continue;
      }
      const key = `${change.userId}:${change.source}`;
      const group = outs.get(key) ?? { userId: change.userId, source: change.source, entries: [] };
      group.entries.push({ phone: change.phone, reason: change.reason });
      outs.set(key, group);
    }
    for (const group of outs.values()) await this.insert(db, group.userId, group.entries, group.source);
    for (const [userId, phones] of ins) {
      for (let start = 0; start < phones.length; start += INSERT_CHUNK) await db('suppressions').where({ userId }).whereIn('recipient', phones.slice(start, start + INSERT_CHUNK)).delete();
    }
    for (let start = 0; start < flags.length; start += 200) await db('reply_flags').insert(flags.slice(start, start + 200)).onConflict(['userId', 'providerMessageId']).ignore();
    return effects;
  }

  /** Each account's opt-out keywords (its own, else the defaults). */
  private async keywordsOf(db: Knex, userIds: readonly number[]): Promise<Map<number, readonly string[]>> {
    const rows = (await db('users').whereIn('id', userIds).select('id', 'optOutKeywords')) as { id: number | string; optOutKeywords: string | null }[];
    return new Map(rows.map((row) => [Number(row.id), parseKeywords(row.optOutKeywords) ?? DEFAULT_OPT_OUT_KEYWORDS]));
  }

  /** Replies waiting for the user's decision, newest first. */
  async openFlags(userId: number): Promise<ReplyFlagRecord[]> {
    const rows = (await this.deps.db('reply_flags').where({ userId }).whereNull('decidedAt').orderBy('id', 'desc').limit(200).select('id', 'recipient', 'text', 'receivedAt')) as {
      id: number | string;
      recipient: string;
      text: string;
      receivedAt: string | Date;
    }[];
    return rows.map((r) => ({ id: Number(r.id), phone: r.recipient, text: r.text, receivedAt: new Date(r.receivedAt) }));
  }

  /** The user's decision on a flagged reply: suppress its sender (source keyword reply), or keep sending. */
  async decideFlag(userId: number, flagId: number, decision: 'suppress' | 'dismiss'): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      const flag = (await trx('reply_flags').where({ id: flagId, userId }).whereNull('decidedAt').first('recipient', 'text')) as { recipient: string; text: string } | undefined;
      if (!flag) throw NotFoundError(messages.suppressions.flagNotFound, 'flag_not_found');
      const decided = await trx('reply_flags').where({ id: flagId, userId }).whereNull('decidedAt').update({ decidedAt: new Date().toISOString(), decision });
      if (decided === 0) throw NotFoundError(messages.suppressions.flagNotFound, 'flag_not_found');
      if (decision === 'suppress') await this.insert(trx, userId, [{ phone: flag.recipient, reason: flag.text.slice(0, SUPPRESSION_REASON_MAX_LENGTH) }], 'keyword_reply');
    });
  }

  /**
   * The texts of the buttons marked opt-out on the template of each message the taps' payloads
   * name (our send references), keyed `userId:messageId`; only a user's own messages count.
   */
  private async optOutButtons(db: Knex, replies: readonly StoredReply[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const ids = [...new Set(replies.flatMap((reply) => (reply.kind === 'text' ? [] : [parseSendReference(reply.buttonPayload)?.id ?? null])).filter((id): id is number => id !== null))];
    for (let start = 0; start < ids.length; start += INSERT_CHUNK) {
      const rows = (await db('messages')
        .join('campaigns', 'campaigns.id', 'messages.campaignId')
        .join('templates', 'templates.id', 'campaigns.templateId')
        .whereIn('messages.id', ids.slice(start, start + INSERT_CHUNK))
        .select('messages.id', 'messages.userId', 'templates.components')) as { id: number | string; userId: number | string; components: unknown }[];
      for (const row of rows) {
        const components = (typeof row.components === 'string' ? JSON.parse(row.components) : row.components) as { type?: string; buttons?: { text?: string; opt_out?: boolean }[] }[] | null;
        const buttons = (components ?? []).find((c) => c.type === 'BUTTONS')?.buttons ?? [];
        out.set(`${Number(row.userId)}:${Number(row.id)}`, buttons.filter((b) => b.opt_out === true).map((b) => (b.text ?? '').trim()));
      }
    }
    return out;
  }

  private async insert(db: Knex, userId: number, entries: readonly { phone: string; reason: string }[], source: TSuppressionSource): Promise<number> {
    const createdAt = new Date().toISOString();
    let inserted = 0;
    for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
      const chunk = entries.slice(i, i + INSERT_CHUNK);
      const before = Number(((await db('suppressions').where({ userId }).whereIn('recipient', chunk.map((e) => e.phone)).count({ n: '*' }).first()) as { n: number | string }).n);
      await db('suppressions')
        .insert(chunk.map((e) => ({ userId, recipient: e.phone, source, reason: e.reason.slice(0, SUPPRESSION_REASON_MAX_LENGTH), createdAt })))
        .onConflict(['userId', 'recipient'])
        .ignore();
      inserted += chunk.length - before;
    }
    return inserted;
  }
}

function parseKeywords(stored: string | null): string[] | null {
  if (!stored) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((k) => typeof k === 'string') ? (parsed as string[]) : null;
  } catch {
    return null;
  }
}
