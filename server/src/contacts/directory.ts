import type { Knex } from 'knex';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { checkPhone } from '@shared/phone';
import type { TContactAttributeType, TDefineAttributeRequest } from '@shared/schemas/contacts';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { attributeColumn } from './segmentSql';

/** Entries of a contact's history one page answers. */
const HISTORY_PAGE = 50;

export interface AttributeSummary {
  name: string;
  type: TContactAttributeType;
  contacts: number;
}

export interface HistoryEntry {
  kind: 'campaign' | 'reply_in' | 'reply_out';
  at: string;
  campaignId: number | null;
  campaignName: string | null;
  templateName: string | null;
  status: string | null;
  text: string | null;
  error: string | null;
}

interface CampaignMessageRow {
  id: number | string;
  campaignId: number | string;
  campaignName: string;
  templateName: string;
  status: string;
  errorMessage: string | null;
  createdAt: string | Date;
}

interface ConversationRow {
  id: number | string;
  direction: string;
  kind: string;
  text: string | null;
  campaignId: number | string | null;
  status: string | null;
  errorMessage: string | null;
  occurredAt: string | Date;
}

const iso = (value: string | Date): string => new Date(value).toISOString();

/**
 * A history cursor: the time of the last entry shown and its order key, so entries of the same
 * instant from both tables are neither repeated nor skipped.
 */
function encodeCursor(entry: { at: string; key: string }): string {
  return Buffer.from(JSON.stringify([entry.at, entry.key]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { at: string; key: string } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && !Number.isNaN(Date.parse(parsed[0]))) return { at: parsed[0], key: parsed[1] };
  } catch {
    return null;
  }
  return null;
}

/**
 * What the contact screens read beside the contacts themselves: the owner's attribute
 * definitions (defined ahead of any value, or removed with their values), the tags in use, and
 * one contact's messages across campaigns and conversations, newest first.
 */
export class ContactDirectory {
  private readonly db: Knex;
  private readonly now: () => Date;

  constructor(deps: { db: Knex; now?: () => Date }) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  /** The owner's attributes by name, each with how many contacts hold a value. */
  async attributes(ownerId: number): Promise<AttributeSummary[]> {
    const rows = (await this.db('contact_attributes').where('user_id', ownerId).orderBy('name').select('name', 'type', 'slot')) as { name: string; type: TContactAttributeType; slot: number | string }[];
    if (rows.length === 0) return [];
    const counts = rows.map((row) => `count(${attributeColumn({ type: row.type, slot: Number(row.slot) })}) as "a${rows.indexOf(row)}"`).join(', ');
    const [held] = rowsOf(await this.db.raw(`select ${counts} from contacts where user_id = ?`, [ownerId])) as Record<string, number | string | null>[];
    return rows.map((row, i) => ({ name: row.name, type: row.type, contacts: Number(held?.[`a${i}`] ?? 0) }));
  }

  /** Defines an attribute before any contact holds it (an import's mapping may then name it). */
  async defineAttribute(ownerId: number, input: TDefineAttributeRequest): Promise<AttributeSummary> {
    return this.db.transaction(async (trx) => {
      const rows = (await trx('contact_attributes').where('user_id', ownerId).select('name', 'type', 'slot')) as { name: string; type: TContactAttributeType; slot: number | string }[];
      if (rows.some((row) => row.name === input.name)) throw ConflictError('attribute_exists', fillMessage(messages.contacts.attributeExists, { name: input.name }), 'name');
      const taken = new Set(rows.filter((row) => row.type === input.type).map((row) => Number(row.slot)));
      let slot = 1;
      while (taken.has(slot)) slot += 1;
      if (slot > CONTACTS.attributeSlots[input.type]) {
        throw ConflictError('contact_attributes_limit', fillMessage(messages.contacts.attributesLimit, { max: CONTACTS.attributeSlots[input.type], type: input.type }));
      }
      await trx('contact_attributes').insert({ userId: ownerId, name: input.name, type: input.type, slot, createdAt: this.now().toISOString() });
      return { name: input.name, type: input.type, contacts: 0 };
    });
  }

  /**
   * Makes sure each named attribute exists, defining the missing ones as text (what a spreadsheet
   * cell is); an existing attribute keeps its type. Refused whole, with how many slots are free,
   * when the text slots cannot take them all. `create: false` only checks (a send's preview).
   */
  async ensureTextAttributes(ownerId: number, names: readonly string[], create: boolean): Promise<void> {
    if (names.length === 0) return;
    await this.db.transaction(async (trx) => {
      const rows = (await trx('contact_attributes').where('user_id', ownerId).select('name', 'type', 'slot')) as { name: string; type: TContactAttributeType; slot: number | string }[];
      const known = new Set(rows.map((row) => row.name));
      const missing = [...new Set(names)].filter((name) => !known.has(name));
      if (missing.length === 0) return;
      const taken = new Set(rows.filter((row) => row.type === 'text').map((row) => Number(row.slot)));
      const max = CONTACTS.attributeSlots.text;
      const free: number[] = [];
      for (let slot = 1; slot <= max; slot += 1) if (!taken.has(slot)) free.push(slot);
      if (free.length < missing.length) {
        throw ConflictError('contact_attributes_limit', fillMessage(messages.contacts.rememberColumnsLimit, { needed: missing.length, free: free.length, max }), 'rememberColumns');
      }
      if (!create) return;
      const createdAt = this.now().toISOString();
      await trx('contact_attributes').insert(missing.map((name, i) => ({ userId: ownerId, name, type: 'text', slot: free[i], createdAt })));
    });
  }

  /** Removes an attribute and every contact's value of it; its column is free for another. */
  async removeAttribute(ownerId: number, name: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = (await trx('contact_attributes').where({ userId: ownerId, name }).first('id', 'type', 'slot')) as { id: number | string; type: TContactAttributeType; slot: number | string } | undefined;
      if (!row) throw NotFoundError(fillMessage(messages.contacts.attributeNotFound, { name }), 'attribute_not_found');
      await trx('contacts')
        .where('user_id', ownerId)
        .update({ [attributeColumn({ type: row.type, slot: Number(row.slot) })]: null });
      await trx('contact_attributes').where('id', row.id).delete();
    });
  }

  /** The tags on the owner's contacts, each with how many contacts carry it. */
  async tags(ownerId: number): Promise<{ tag: string; contacts: number }[]> {
    const rows = (await this.db('contact_tags').where('user_id', ownerId).groupBy('tag').orderBy('tag').select('tag').count({ n: '*' })) as { tag: string; n: number | string }[];
    return rows.map((row) => ({ tag: row.tag, contacts: Number(row.n) }));
  }

  /**
   * A page of one contact's history, newest first: the campaigns' template messages sent to the
   * number, what the contact sent and the answers to them. Message rows go after the retention
   * period; the contact's counts keep the totals.
   */
  async history(ownerId: number, rawPhone: string, cursor: string | undefined): Promise<{ entries: HistoryEntry[]; nextCursor: string | null }> {
    const checked = checkPhone(decodeURIComponent(rawPhone));
    if (!checked.ok) throw NotFoundError(messages.contacts.notFound, 'contact_not_found');
    const phone = checked.phone;
    const contact = await this.db('contacts').where({ userId: ownerId, phone }).first('id');
    if (!contact) throw NotFoundError(messages.contacts.notFound, 'contact_not_found');
    const before = cursor === undefined ? null : decodeCursor(cursor);
    if (cursor !== undefined && before === null) throw ValidationError('cursor', messages.contacts.historyCursorInvalid);

    // Each side reads one page past the cursor's instant; the merge then cuts at the exact entry.
    const sent = this.db('messages as m')
      .join('campaigns as c', 'c.id', 'm.campaign_id')
      .where({ 'm.user_id': ownerId, 'm.recipient': phone })
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(HISTORY_PAGE + 1)
      .select('m.id', 'm.campaign_id', 'c.name as campaign_name', 'c.template_name', 'm.status', 'm.error_message', 'm.created_at');
    const talk = this.db('conversation_messages')
      .where({ userId: ownerId, contact: phone })
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_PAGE + 1)
      .select('id', 'direction', 'kind', 'text', 'campaign_id', 'status', 'error_message', 'occurred_at');
    if (before) {
      void sent.where('m.created_at', '<=', before.at);
      void talk.where('occurred_at', '<=', before.at);
    }
    const [campaignRows, conversationRows] = (await Promise.all([sent, talk])) as [CampaignMessageRow[], ConversationRow[]];
    const keyed: (HistoryEntry & { key: string })[] = [
      ...campaignRows.map((row) => ({
        kind: 'campaign' as const,
        at: iso(row.createdAt),
        key: `m${String(row.id).padStart(20, '0')}`,
        campaignId: Number(row.campaignId),
        campaignName: row.campaignName,
        templateName: row.templateName,
        status: row.status,
        text: null,
        error: row.errorMessage,
      })),
      ...conversationRows.map((row) => ({
        kind: row.direction === 'in' ? ('reply_in' as const) : ('reply_out' as const),
        at: iso(row.occurredAt),
        key: `c${String(row.id).padStart(20, '0')}`,
        campaignId: row.campaignId === null ? null : Number(row.campaignId),
        campaignName: null,
        templateName: null,
        status: row.status,
        text: row.text ?? row.kind,
        error: row.errorMessage,
      })),
    ];
    // Newest first; at one instant, a fixed order of the two tables' keys.
    keyed.sort((a, b) => (a.at === b.at ? b.key.localeCompare(a.key) : b.at.localeCompare(a.at)));
    const after = before ? keyed.filter((entry) => entry.at < before.at || (entry.at === before.at && entry.key < before.key)) : keyed;
    const page = after.slice(0, HISTORY_PAGE);
    const last = page.at(-1);
    return {
      entries: page.map((entry) => ({ kind: entry.kind, at: entry.at, campaignId: entry.campaignId, campaignName: entry.campaignName, templateName: entry.templateName, status: entry.status, text: entry.text, error: entry.error })),
      nextCursor: after.length > HISTORY_PAGE && last ? encodeCursor(last) : null,
    };
  }
}

/** Rows of a raw query on either driver (PostgreSQL answers `{rows}`, SQLite the array). */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return (result as { rows: unknown[] }).rows;
}
