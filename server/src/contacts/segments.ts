import type { Knex } from 'knex';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { ZSegmentFilter, type TContactsQuery, type TCreateSegmentRequest, type TSegmentFilter, type TUpdateSegmentRequest } from '@shared/schemas/contacts';
import { ConflictError, NotFoundError } from '../errors';
import type { ContactPage, ContactService, SegmentRecipient } from './service';

export interface SegmentRecord {
  id: number;
  name: string;
  filter: TSegmentFilter;
  createdAt: string;
  updatedAt: string;
}

interface SegmentRow {
  id: number | string;
  name: string;
  filter: string;
  createdAt: string | Date;
  updatedAt: string | Date;
}

function toRecord(row: SegmentRow): SegmentRecord {
  return {
    id: Number(row.id),
    name: row.name,
    filter: ZSegmentFilter.parse(JSON.parse(row.filter)),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** Saved filters over the owner's contacts; a filter's conditions are checked when it is saved. */
export class SegmentService {
  private readonly db: Knex;
  private readonly contacts: ContactService;
  private readonly now: () => Date;

  constructor(deps: { db: Knex; contacts: ContactService; now?: () => Date }) {
    this.db = deps.db;
    this.contacts = deps.contacts;
    this.now = deps.now ?? (() => new Date());
  }

  async list(ownerId: number): Promise<SegmentRecord[]> {
    const rows = (await this.db('segments').where('user_id', ownerId).orderBy('id', 'desc').select('*')) as SegmentRow[];
    return rows.map(toRecord);
  }

  async get(ownerId: number, id: number): Promise<SegmentRecord> {
    const row = (await this.db('segments').where({ userId: ownerId, id }).first()) as SegmentRow | undefined;
    if (!row) throw NotFoundError(messages.contacts.segmentNotFound, 'segment_not_found');
    return toRecord(row);
  }

  async create(ownerId: number, input: TCreateSegmentRequest): Promise<SegmentRecord> {
    // Compiling checks the attributes it names exist, so a saved segment can always be counted.
    await this.contacts.segmentQuery(ownerId, input.filter);
    const [{ n } = { n: 0 }] = (await this.db('segments').where('user_id', ownerId).count({ n: '*' })) as { n: number | string }[];
    if (Number(n) >= CONTACTS.segmentsMaxPerOwner) {
      throw ConflictError('segments_limit', fillMessage(messages.contacts.segmentsLimit, { max: CONTACTS.segmentsMaxPerOwner }));
    }
    const now = this.now().toISOString();
    await this.db('segments').insert({ userId: ownerId, name: input.name, filter: JSON.stringify(input.filter), createdAt: now, updatedAt: now });
    const row = (await this.db('segments').where('user_id', ownerId).orderBy('id', 'desc').first()) as SegmentRow;
    return toRecord(row);
  }

  async update(ownerId: number, id: number, input: TUpdateSegmentRequest): Promise<SegmentRecord> {
    await this.get(ownerId, id);
    if (input.filter) await this.contacts.segmentQuery(ownerId, input.filter);
    await this.db('segments')
      .where({ userId: ownerId, id })
      .update({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.filter !== undefined ? { filter: JSON.stringify(input.filter) } : {}),
        updatedAt: this.now().toISOString(),
      });
    return this.get(ownerId, id);
  }

  async remove(ownerId: number, id: number): Promise<void> {
    await this.get(ownerId, id);
    await this.db('segments').where({ userId: ownerId, id }).delete();
  }

  /** The contacts list, narrowed by a segment when the query names one. */
  async contactsPage(ownerId: number, query: TContactsQuery): Promise<ContactPage> {
    const filter = query.segment_id !== undefined ? (await this.get(ownerId, query.segment_id)).filter : undefined;
    return this.contacts.list(ownerId, query, filter);
  }

  /** Whom a send to this segment reaches now, a page at a time, with the segment as it is (the campaign keeps it). */
  async recipients(ownerId: number, id: number, attributeNames: readonly string[], onPage: (page: SegmentRecipient[]) => void) {
    const segment = await this.get(ownerId, id);
    return { segment, ...(await this.contacts.segmentRecipients(ownerId, segment.filter, attributeNames, onPage)) };
  }

  /** Whom a send to a filter not saved as a segment reaches now (the app's send to tagged contacts). */
  async recipientsOf(ownerId: number, filter: TSegmentFilter, attributeNames: readonly string[], onPage: (page: SegmentRecipient[]) => void) {
    return this.contacts.segmentRecipients(ownerId, filter, attributeNames, onPage);
  }

  /** The count of a filter as it is being edited, before it is saved. */
  async countFilter(ownerId: number, filter: TSegmentFilter): Promise<{ count: number; optedOut: number }> {
    return this.contacts.countSegment(ownerId, filter);
  }

  async count(ownerId: number, id: number): Promise<{ count: number; optedOut: number }> {
    return this.contacts.countSegment(ownerId, (await this.get(ownerId, id)).filter);
  }
}
