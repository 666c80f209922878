/**
 * Status by API key: one of the owner's messages by its id, and the owner's messages
 * newest first in pages of 100 with an opaque cursor. The list reads the reports' index
 * (user_id, created_at, id, campaign_id): the cursor is the last row's (created_at, id), so a
 * deep page costs what the first one does.
 */
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { MESSAGES_PAGE_SIZE, type TMessagesQuery } from '@shared/schemas/messages';
import { NotFoundError, ValidationError } from '../errors';
import { PUBLIC_MESSAGE_COLUMNS, parsePublicMessageId, storedStatusOf, type PublicMessageRow } from './publicMessage';

export interface MessageStatusPage {
  rows: PublicMessageRow[];
  nextCursor: string | null;
}

interface CursorPosition {
  createdAt: string;
  id: number;
}

function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): CursorPosition | null {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^\d{1,18}$/.test(id) || Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt: new Date(createdAt).toISOString(), id: Number(id) };
}

const notFound = () => NotFoundError(messages.integrations.messageNotFound, 'message_not_found');

export class MessageStatusService {
  constructor(private readonly deps: { db: Knex }) {}

  private base(userId: number): Knex.QueryBuilder {
    return this.deps
      .db({ m: 'messages' })
      .join({ c: 'campaigns' }, 'c.id', 'm.campaign_id')
      .where('m.user_id', userId)
      .select([...PUBLIC_MESSAGE_COLUMNS, 'm.created_at']);
  }

  /** The owner's message `msg_<id>`; another owner's message, or no such id, answers 404. */
  async get(userId: number, messageId: string): Promise<PublicMessageRow> {
    const id = parsePublicMessageId(messageId);
    if (id === null) throw notFound();
    const row = (await this.base(userId).where('m.id', id).first()) as PublicMessageRow | undefined;
    if (!row) throw notFound();
    return row;
  }

  async list(userId: number, query: TMessagesQuery): Promise<MessageStatusPage> {
    const builder = this.base(userId)
      .orderBy([
        { column: 'm.created_at', order: 'desc' },
        { column: 'm.id', order: 'desc' },
      ])
      .limit(MESSAGES_PAGE_SIZE + 1);
    if (query.campaign_id !== undefined) builder.where('m.campaign_id', query.campaign_id);
    // `scheduled` and `queued` are both stored `queued`: the campaign's status tells them apart.
    if (query.status === 'scheduled') builder.where('m.status', 'queued').where('c.status', 'scheduled');
    else if (query.status === 'queued') builder.where('m.status', 'queued').whereNot('c.status', 'scheduled');
    else if (query.status !== undefined) builder.where('m.status', storedStatusOf(query.status));
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor);
      if (!position) throw ValidationError('cursor', messages.integrations.invalidCursor);
      builder.where((inner) =>
        inner.where('m.created_at', '<', position.createdAt).orWhere((same) => same.where('m.created_at', '=', position.createdAt).andWhere('m.id', '<', position.id)),
      );
    }
    const found = (await builder) as (PublicMessageRow & { createdAt: string | Date })[];
    const rows = found.slice(0, MESSAGES_PAGE_SIZE);
    const last = rows[rows.length - 1];
    const nextCursor =
      found.length > MESSAGES_PAGE_SIZE && last ? encodeCursor({ createdAt: new Date(last.createdAt).toISOString(), id: Number(last.id) }) : null;
    return { rows, nextCursor };
  }
}
