import type { Knex } from 'knex';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { checkPhone } from '@shared/phone';
import {
  ATTRIBUTE_DATE_PATTERN,
  ZContactInput,
  type TContactAttributeType,
  type TContactInputParsed,
  type TContactPatch,
  type TContactsQuery,
  type TOptInInput,
  type TSegmentFilter,
} from '@shared/schemas/contacts';
import { zodIssuesToDetails } from '@shared/schemas/common';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { attributeColumn, compileSegmentFilter, type AttributeDefinition, type ContactCondition } from './segmentSql';
import type { ContactValue } from './bulkStore';
import { containsPattern, tagListValue, type ContactSqlDialect } from './sqlDialect';

/** A contact as the presenter shapes it. */
export interface ContactRecord {
  id: number;
  phone: string;
  name: string | null;
  attributes: Record<string, string | number>;
  tags: string[];
  optIn: { source: string; at: string; evidence: string | null } | null;
  optedOutAt: string | null;
  counts: { sent: number; delivered: number; read: number; replied: number };
  lastMessageAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContactPage {
  rows: ContactRecord[];
  nextCursor: string | null;
}

/** A contact a send to a segment reaches: its number and the values of the attributes asked for. */
export interface SegmentRecipient {
  phone: string;
  values: Record<string, string | null>;
}

/** Contacts a send to a segment hands on at a time, read by one query. */
const SEGMENT_PAGE = 5_000;

/** Distinct attribute values a send to a segment keeps one copy of, and the longest it keeps. */
const SHARED_VALUES_MAX = 100_000;
const SHARED_VALUE_MAX_LENGTH = 64;

export interface BulkResult {
  created: number;
  updated: number;
  skipped: number;
  invalid: { index: number; error: string }[];
}

/** A contacts row: the fixed columns, and the attribute slots by column name (`text_1`, `number_2`, ...). */
interface ContactRow extends Record<string, unknown> {
  id: number | string;
  phone: string;
  name: string | null;
  optInSource: string | null;
  optInAt: string | Date | null;
  optInEvidence: string | null;
  lastMessageAt: string | Date | null;
  sentCount: number;
  deliveredCount: number;
  readCount: number;
  repliedCount: number;
  createdAt: string | Date;
  updatedAt: string | Date;
}

/** One valid entry of a write, its number already in the stored form. */
interface ContactWrite {
  index: number;
  phone: string;
  name?: string | null;
  attributes?: Record<string, string | number | null>;
  tags?: string[];
  /** `replace`: the tags become these; `add`: these are added to the contact's. */
  tagMode: 'replace' | 'add';
  optIn?: TOptInInput | null;
}

/** Set on the contacts a write creates only: an existing contact's tag list is read again from its tags. */
const CREATE_ONLY_COLUMNS: ReadonlySet<string> = new Set(['tag_list']);

/** Contacts whose tag list one statement reads again (bound ids stay under SQLite's limit). */
const TAG_LIST_REFRESH_CHUNK = 500;

/** The opt-in columns, in the order `optInValues` gives their values. */
const OPT_IN_COLUMNS = ['opt_in_source', 'opt_in_at', 'opt_in_evidence'] as const;

const iso = (value: string | Date | null): string | null => (value === null ? null : new Date(value).toISOString());

function decodeCursor(cursor: string): number | null {
  const id = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const encodeCursor = (id: number): string => Buffer.from(String(id), 'utf8').toString('base64url');

/**
 * Text as UTF-8 can hold it: a lone surrogate (JSON can carry one) becomes U+FFFD, so both
 * databases store the same text (SQLite kept its bytes, which no reader decodes, and PostgreSQL
 * refused it). `toWellFormed` is ES2024's, in every Node this runs on; the ES2023 library the
 * project compiles against does not declare it.
 */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

/** An opt-in record with its texts well formed. */
function wellFormedOptIn(optIn: TOptInInput): TOptInInput {
  return { ...optIn, source: wellFormed(optIn.source), ...(optIn.evidence !== undefined ? { evidence: wellFormed(optIn.evidence) } : {}) };
}

/** A value its attribute's type refuses, with the catalogue's reason. */
class RefusedValue {
  constructor(readonly error: string) {}
}

/**
 * A value as its attribute's column stores it (a number as a number, a date or a text as text), or
 * why the type refuses it. Only a refusal allocates: an import checks ten values a contact.
 */
function storedValue(attribute: { name: string; type: TContactAttributeType }, value: string | number): ContactValue | RefusedValue {
  if (attribute.type === 'number') {
    const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(number)) return new RefusedValue(fillMessage(messages.contacts.attributeNotNumber, { name: attribute.name }));
    return number;
  }
  if (attribute.type === 'date') {
    const text = String(value).trim();
    if (!ATTRIBUTE_DATE_PATTERN.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
      return new RefusedValue(fillMessage(messages.contacts.attributeNotDate, { name: attribute.name }));
    }
    return text;
  }
  return wellFormed(String(value));
}

/** The type an attribute gets when a value first names it. */
function inferredType(value: string | number): TContactAttributeType {
  if (typeof value === 'number') return 'number';
  return ATTRIBUTE_DATE_PATTERN.test(value.trim()) ? 'date' : 'text';
}

/**
 * The owner's contact book: contacts by number, their typed attributes and tags, opt-in, and the
 * opt-out state read from the suppression list (never stored twice). Segments are saved filters
 * compiled to SQL by {@link compileSegmentFilter}.
 */
export class ContactService {
  private readonly db: Knex;
  private readonly dialect: ContactSqlDialect;
  private readonly now: () => Date;

  constructor(deps: { db: Knex; dialect: ContactSqlDialect; now?: () => Date }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.now = deps.now ?? (() => new Date());
  }

  // Reads.

  /** A page of the owner's contacts, newest first, narrowed by a tag, a search and a segment's filter. */
  async list(ownerId: number, query: TContactsQuery, segmentFilter?: TSegmentFilter): Promise<ContactPage> {
    const segment = segmentFilter ? await this.segmentQuery(ownerId, segmentFilter) : undefined;
    const q = this.db('contacts as c').where('c.user_id', ownerId).select('c.*').orderBy('c.id', 'desc').limit(CONTACTS.pageSize + 1);
    if (query.cursor !== undefined) {
      const after = decodeCursor(query.cursor);
      if (after === null) throw ValidationError('cursor', messages.integrations.invalidCursor);
      void q.where('c.id', '<', after);
    }
    if (query.tag !== undefined) {
      void q.whereIn('c.id', this.db('contact_tags').where({ userId: ownerId, tag: query.tag }).select('contact_id'));
    }
    if (query.q) {
      const pattern = containsPattern(query.q);
      const digits = query.q.replace(/[\s\-+()]/g, '');
      void q.where((w) => {
        void w.whereRaw(this.dialect.containsSql('c.name'), [pattern]);
        if (/^\d+$/.test(digits)) void w.orWhere('c.phone', 'like', `%${digits}%`);
      });
    }
    if (segment) void q.whereRaw(segment.sql, segment.bindings);
    const rows = (await q) as ContactRow[];
    const page = rows.slice(0, CONTACTS.pageSize);
    const attributes = await this.attributeDefinitions(ownerId);
    const last = page.at(-1);
    return { rows: await this.records(ownerId, page, attributes), nextCursor: rows.length > CONTACTS.pageSize && last ? encodeCursor(Number(last.id)) : null };
  }

  async get(ownerId: number, rawPhone: string): Promise<ContactRecord> {
    const row = await this.findRow(ownerId, rawPhone);
    const [record] = await this.records(ownerId, [row], await this.attributeDefinitions(ownerId));
    return record!;
  }

  // Writes.

  async create(ownerId: number, input: TContactInputParsed): Promise<ContactRecord> {
    const write = this.toWrite(0, input, 'replace');
    if (typeof write === 'string') throw ValidationError('phone', write);
    const existing = await this.db('contacts').where({ userId: ownerId, phone: write.phone }).first('id');
    if (existing) throw ConflictError('contact_exists', messages.contacts.alreadyExists, 'phone');
    const result = await this.write(ownerId, [write], 'update');
    if (result.invalid[0]) throw ValidationError('attributes', result.invalid[0].error);
    return this.get(ownerId, write.phone);
  }

  async update(ownerId: number, rawPhone: string, patch: TContactPatch): Promise<ContactRecord> {
    const row = await this.findRow(ownerId, rawPhone);
    const write: ContactWrite = { index: 0, phone: row.phone, tagMode: 'replace' };
    if (patch.name !== undefined) write.name = patch.name === '' || patch.name === null ? null : wellFormed(patch.name);
    if (patch.attributes !== undefined) write.attributes = patch.attributes;
    if (patch.tags !== undefined) write.tags = patch.tags.map(wellFormed);
    if (patch.opt_in !== undefined) write.optIn = patch.opt_in && wellFormedOptIn(patch.opt_in);
    const result = await this.write(ownerId, [write], 'update');
    if (result.invalid[0]) throw ValidationError('attributes', result.invalid[0].error);
    return this.get(ownerId, row.phone);
  }

  async remove(ownerId: number, rawPhone: string): Promise<void> {
    const row = await this.findRow(ownerId, rawPhone);
    // On PostgreSQL the tags hold no foreign key to the contact (a per-row check an import could not afford).
    await this.db.transaction(async (trx) => {
      await trx('contact_tags').where({ contactId: row.id }).delete();
      await trx('contacts').where({ id: row.id }).delete();
    });
  }

  /**
   * Creates or updates many contacts by number (idempotent: the same call twice changes nothing
   * more). An entry that is not valid is reported by its index and the others are written. A number
   * given twice in one call is written once, with its last entry. Tags are added to an existing
   * contact's, attributes merged into its own.
   */
  async bulk(ownerId: number, entries: readonly unknown[], existing: 'update' | 'skip' = 'update'): Promise<BulkResult> {
    const invalid: BulkResult['invalid'] = [];
    const byPhone = new Map<string, ContactWrite>();
    entries.forEach((entry, index) => {
      const parsed = ZContactInput.safeParse(entry);
      if (!parsed.success) {
        invalid.push({ index, error: zodIssuesToDetails(parsed.error)[0]?.message ?? messages.contacts.invalidContact });
        return;
      }
      const write = this.toWrite(index, parsed.data, 'add');
      if (typeof write === 'string') invalid.push({ index, error: write });
      else byPhone.set(write.phone, write);
    });
    const result = await this.write(ownerId, [...byPhone.values()], existing);
    return { ...result, invalid: [...invalid, ...result.invalid].sort((a, b) => a.index - b.index) };
  }

  /** The owner's attribute definitions by name. */
  async attributeDefinitions(ownerId: number): Promise<Map<string, AttributeDefinition>> {
    return this.attributeDefinitionsIn(this.db, ownerId);
  }

  /** A segment filter as a condition on the owner's `contacts c`. */
  async segmentQuery(ownerId: number, filter: TSegmentFilter): Promise<ContactCondition> {
    return compileSegmentFilter(this.dialect, ownerId, filter, await this.attributeDefinitions(ownerId), this.now());
  }

  /** How many contacts a filter matches that can be messaged, and how many it matches that opted out. */
  async countSegment(ownerId: number, filter: TSegmentFilter): Promise<{ count: number; optedOut: number }> {
    const where = await this.segmentQuery(ownerId, filter);
    // One pass over the matches, each looked up in the owner's suppressions read once as a set.
    const [row] = (await this.db
      .raw(`select count(*) as n, sum(case when c.phone in (select recipient from suppressions where user_id = ?) then 1 else 0 end) as opted from contacts c where ${where.sql}`, [
        ownerId,
        ...where.bindings,
      ])
      .then(rowsOf)) as { n: number | string; opted: number | string | null }[];
    const optedOut = Number(row?.opted ?? 0);
    return { count: Number(row?.n ?? 0) - optedOut, optedOut };
  }

  /**
   * A segment's recipients, without those who opted out (counted instead), handed to `onPage` a
   * page at a time in the order of the contacts' ids: each contact's number, name and the values
   * of the attributes named. Only those columns are read, by one query whose rows are taken a
   * page at a time, so a send to a million holds no million database rows at once.
   */
  async segmentRecipients(
    ownerId: number,
    filter: TSegmentFilter,
    attributeNames: readonly string[],
    onPage: (page: SegmentRecipient[]) => void,
  ): Promise<{ optedOut: number }> {
    const where = await this.segmentQuery(ownerId, filter);
    const definitions = await this.attributeDefinitions(ownerId);
    const wanted = attributeNames.filter((name) => name !== 'name');
    for (const name of wanted) {
      if (!definitions.has(name)) throw ValidationError('variables', fillMessage(messages.contacts.segmentUnknownAttribute, { name }));
    }
    // Rows come as arrays: each attribute is read by its position after phone, name and opted.
    const columns = wanted.map((name) => `c.${attributeColumn(definitions.get(name)!)}`);
    // Opted-out contacts are marked in the same pass and counted here, not matched by a second one.
    const query = `select c.phone, c.name, case when c.phone in (select recipient from suppressions where user_id = ?) then 1 else 0 end as opted${columns.map((col) => `, ${col}`).join('')}
      from contacts c where ${where.sql} order by c.id`;
    // A value many contacts share (a city, a plan) is one string for all of them, not one per contact.
    const shared = new Map<string, string>();
    const text = (value: unknown): string | null => {
      if (value === null || value === undefined || value === '') return null;
      const read = String(value);
      if (read.length > SHARED_VALUE_MAX_LENGTH) return read;
      const known = shared.get(read);
      if (known !== undefined) return known;
      if (shared.size < SHARED_VALUES_MAX) shared.set(read, read);
      return read;
    };
    let optedOut = 0;
    await this.db.transaction((trx) =>
      this.dialect.bulk.readPages(trx, query, [ownerId, ...where.bindings], SEGMENT_PAGE, (rows) => {
        const page: SegmentRecipient[] = [];
        // Columns by position, as the select names them: phone, name, opted, then each attribute.
        for (const row of rows) {
          if (Number(row[2]) === 1) {
            optedOut += 1;
            continue;
          }
          const values: Record<string, string | null> = { name: text(row[1]) };
          for (let i = 0; i < wanted.length; i += 1) values[wanted[i]!] = text(row[3 + i]);
          page.push({ phone: String(row[0]), values });
        }
        onPage(page);
      }),
    );
    return { optedOut };
  }

  // Internals.

  private async findRow(ownerId: number, rawPhone: string): Promise<ContactRow> {
    const checked = checkPhone(decodeURIComponent(rawPhone));
    if (!checked.ok) throw NotFoundError(messages.contacts.notFound, 'contact_not_found');
    const row = (await this.db('contacts').where({ userId: ownerId, phone: checked.phone }).first()) as ContactRow | undefined;
    if (!row) throw NotFoundError(messages.contacts.notFound, 'contact_not_found');
    return row;
  }

  private toWrite(index: number, input: TContactInputParsed, tagMode: ContactWrite['tagMode']): ContactWrite | string {
    const checked = checkPhone(input.phone);
    if (!checked.ok) return messages.phone.invalid[checked.reason];
    const write: ContactWrite = { index, phone: checked.phone, tagMode };
    if (input.name !== undefined) write.name = input.name === '' || input.name === null ? null : wellFormed(input.name);
    if (input.attributes !== undefined) write.attributes = input.attributes;
    if (input.tags !== undefined) write.tags = input.tags.map(wellFormed);
    if (input.opt_in !== undefined) write.optIn = input.opt_in && wellFormedOptIn(input.opt_in);
    return write;
  }

  /** Defines the attributes the writes name for the first time, typed by their first value. */
  private async defineAttributes(trx: Knex.Transaction, ownerId: number, writes: readonly ContactWrite[]): Promise<Map<string, AttributeDefinition>> {
    const known = await this.attributeDefinitionsIn(trx, ownerId);
    const fresh = new Map<string, TContactAttributeType>();
    for (const write of writes) {
      for (const [name, value] of Object.entries(write.attributes ?? {})) {
        if (value === null || known.has(name) || fresh.has(name)) continue;
        fresh.set(name, inferredType(value));
      }
    }
    if (fresh.size === 0) return known;
    const taken = new Set([...known.values()].map(attributeColumn));
    const createdAt = this.now().toISOString();
    const rows: { userId: number; name: string; type: TContactAttributeType; slot: number; createdAt: string }[] = [];
    for (const [name, type] of fresh) {
      let slot = 1;
      while (taken.has(attributeColumn({ type, slot }))) slot += 1;
      if (slot > CONTACTS.attributeSlots[type]) {
        throw ConflictError('contact_attributes_limit', fillMessage(messages.contacts.attributesLimit, { max: CONTACTS.attributeSlots[type], type }));
      }
      taken.add(attributeColumn({ type, slot }));
      rows.push({ userId: ownerId, name, type, slot, createdAt });
    }
    await trx('contact_attributes').insert(rows);
    return this.attributeDefinitionsIn(trx, ownerId);
  }

  private async attributeDefinitionsIn(trx: Knex | Knex.Transaction, ownerId: number): Promise<Map<string, AttributeDefinition>> {
    const rows = (await trx('contact_attributes').where('user_id', ownerId).select('id', 'name', 'type', 'slot')) as AttributeDefinition[];
    return new Map(rows.map((row) => [row.name, { ...row, id: Number(row.id), slot: Number(row.slot) }]));
  }

  private async write(ownerId: number, writes: readonly ContactWrite[], existingMode: 'update' | 'skip'): Promise<BulkResult> {
    const result: BulkResult = { created: 0, updated: 0, skipped: 0, invalid: [] };
    if (writes.length === 0) return result;
    const store = this.dialect.bulk;
    await this.db.transaction(async (trx) => {
      const attributes = await this.defineAttributes(trx, ownerId, writes);
      const now = this.now().toISOString();
      const optInValues = (optIn: TOptInInput | null | undefined): ContactValue[] =>
        optIn ? [optIn.source, new Date(optIn.at ?? now).toISOString(), optIn.evidence ?? null] : [null, null, null];
      // Each attribute's column, worked out once for the call.
      const targets = new Map([...attributes].map(([name, definition]) => [name, { name, type: definition.type, column: attributeColumn(definition) }]));
      for (let start = 0; start < writes.length; start += store.chunk) {
        const chunk = writes.slice(start, start + store.chunk);

        // Values are checked before any row is written, so an invalid entry leaves no trace.
        // Entries naming the same columns are written together: a new contact takes them (the
        // others empty), an existing one changes only them.
        const byShape = new Map<string, { columns: string[]; rows: ContactValue[][] }>();
        const accepted: ContactWrite[] = [];
        const refused: { write: ContactWrite; error: string }[] = [];
        for (const write of chunk) {
          // The entry's columns and values side by side: no pair is made per value.
          const columns: string[] = [];
          const values: ContactValue[] = [write.phone];
          let error: string | null = null;
          const given = write.attributes ?? {};
          for (const name in given) {
            const attribute = targets.get(name);
            if (!attribute) continue;
            const value = given[name];
            if (value === null || value === undefined) {
              columns.push(attribute.column);
              values.push(null);
              continue;
            }
            const stored = storedValue(attribute, value);
            if (stored instanceof RefusedValue) {
              error = stored.error;
              break;
            }
            columns.push(attribute.column);
            values.push(stored);
          }
          if (error !== null) {
            refused.push({ write, error });
            continue;
          }
          if (write.name !== undefined) {
            columns.push('name');
            values.push(write.name);
          }
          if (write.optIn !== undefined) {
            const optIn = optInValues(write.optIn);
            for (let i = 0; i < OPT_IN_COLUMNS.length; i += 1) {
              columns.push(OPT_IN_COLUMNS[i]!);
              values.push(optIn[i]!);
            }
          }
          // A contact this creates gets its tag list with its row; an existing one's is read
          // again from its tags once they are written (below).
          if (write.tags !== undefined) {
            columns.push('tag_list');
            values.push(tagListValue(write.tags));
          }
          const key = columns.join(',');
          let group = byShape.get(key);
          if (!group) {
            group = { columns: ['phone', ...columns], rows: [] };
            byShape.set(key, group);
          }
          group.rows.push(values);
          accepted.push(write);
        }

        // "Skip existing" skips an existing contact whatever its entry holds.
        const existingRefused = existingMode === 'skip' && refused.length > 0 ? await store.existingIds(trx, ownerId, refused.map(({ write }) => write.phone)) : new Map<string, number>();
        for (const { write, error } of refused) {
          if (existingRefused.has(write.phone)) result.skipped += 1;
          else result.invalid.push({ index: write.index, error });
        }

        const ids = new Map<string, number>();
        const created = new Set<string>();
        for (const group of byShape.values()) {
          const written = await store.upsert(trx, { ownerId, nowIso: now, ...group, skipExisting: existingMode === 'skip', createOnly: CREATE_ONLY_COLUMNS });
          for (const [phone, fate] of written) {
            if (fate.created) {
              result.created += 1;
              created.add(phone);
            } else if (existingMode === 'skip') result.skipped += 1;
            else result.updated += 1;
            if (fate.id !== undefined && (fate.created || existingMode === 'update')) ids.set(phone, fate.id);
          }
        }

        const tagRows = { created: [] as { contactId: number; tag: string }[], existing: [] as { contactId: number; tag: string }[] };
        const replacedTags: number[] = [];
        const retagged: number[] = [];
        for (const write of accepted) {
          const contactId = ids.get(write.phone);
          if (write.tags === undefined || contactId === undefined) continue;
          if (write.tagMode === 'replace') replacedTags.push(contactId);
          if (!created.has(write.phone)) retagged.push(contactId);
          const rows = created.has(write.phone) ? tagRows.created : tagRows.existing;
          for (const tag of new Set(write.tags)) rows.push({ contactId, tag });
        }
        if (replacedTags.length > 0) await store.deleteTags(trx, replacedTags);
        if (tagRows.created.length > 0) await store.addTags(trx, ownerId, tagRows.created, true);
        if (tagRows.existing.length > 0) await store.addTags(trx, ownerId, tagRows.existing, false);
        for (let from = 0; from < retagged.length; from += TAG_LIST_REFRESH_CHUNK) {
          await trx('contacts')
            .whereIn('id', retagged.slice(from, from + TAG_LIST_REFRESH_CHUNK))
            .update({ tagList: trx.raw(this.dialect.tagListSql) });
        }
      }
    });
    return result;
  }

  /** Contact rows with their attributes, tags and opt-out state, in the rows' order. */
  private async records(ownerId: number, rows: readonly ContactRow[], attributes: ReadonlyMap<string, AttributeDefinition>): Promise<ContactRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => Number(row.id));
    const [tags, suppressions] = await Promise.all([
      this.db('contact_tags').whereIn('contact_id', ids).orderBy('tag').select('contact_id', 'tag') as Promise<{ contactId: number | string; tag: string }[]>,
      this.db('suppressions')
        .where('user_id', ownerId)
        .whereIn(
          'recipient',
          rows.map((row) => row.phone),
        )
        .select('recipient', 'created_at') as Promise<{ recipient: string; createdAt: string | Date }[]>,
    ]);
    const tagsOf = new Map<number, string[]>();
    for (const t of tags) tagsOf.set(Number(t.contactId), [...(tagsOf.get(Number(t.contactId)) ?? []), t.tag]);
    const optedOut = new Map(suppressions.map((s) => [s.recipient, iso(s.createdAt)]));
    const definitions = [...attributes.values()].sort((a, b) => a.name.localeCompare(b.name));
    return rows.map((row) => {
      const values: Record<string, string | number> = {};
      for (const attribute of definitions) {
        // knex's mappers answer `text_1` as `text1`.
        const value = row[attributeColumn(attribute).replace('_', '')];
        if (value === null || value === undefined) continue;
        values[attribute.name] = attribute.type === 'number' ? Number(value) : String(value);
      }
      return {
        id: Number(row.id),
        phone: row.phone,
        name: row.name,
        attributes: values,
        tags: tagsOf.get(Number(row.id)) ?? [],
        optIn: row.optInSource !== null && row.optInAt !== null ? { source: row.optInSource, at: iso(row.optInAt)!, evidence: row.optInEvidence } : null,
        optedOutAt: optedOut.get(row.phone) ?? null,
        counts: { sent: Number(row.sentCount), delivered: Number(row.deliveredCount), read: Number(row.readCount), replied: Number(row.repliedCount) },
        lastMessageAt: iso(row.lastMessageAt),
        createdAt: iso(row.createdAt)!,
        updatedAt: iso(row.updatedAt)!,
      };
    });
  }
}

/** Rows of a raw query on either driver (PostgreSQL answers `{rows}`, SQLite the array). */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return (result as { rows: unknown[] }).rows;
}
