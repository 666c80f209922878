/**
 * The signed webhook changes WebhookIngest stored without acting on them (a field Meta added, an
 * account alert), read by an administrator page by page. WebhookIngest writes them and deletes
 * those past their retention.
 */
import type { Knex } from 'knex';

export interface UnknownWebhookEventRow {
  id: number;
  field: string;
  wabaId: string | null;
  body: string;
  receivedAt: string | Date;
}

export interface UnknownWebhookEventPage {
  events: UnknownWebhookEventRow[];
  total: number;
  page: number;
  totalPages: number;
}

export class UnknownWebhookEvents {
  constructor(private readonly deps: { db: Knex }) {}

  /** Newest first; `field` narrows to one field. */
  async list(query: { page: number; limit: number; field?: string | undefined }): Promise<UnknownWebhookEventPage> {
    const base = this.deps.db('webhook_unknown_events');
    if (query.field) base.where({ field: query.field });
    const [totalRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base
        .clone()
        .orderBy('receivedAt', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .select('id', 'field', 'wabaId', 'body', 'receivedAt') as Promise<UnknownWebhookEventRow[]>,
    ]);
    const total = Number(totalRow?.n ?? 0);
    return { events: rows, total, page: query.page, totalPages: Math.max(1, Math.ceil(total / query.limit)) };
  }
}
