import type { Knex } from 'knex';
import { AuditLogEntry } from '../models';

export interface AuditEvent {
  actorUserId: number | null;
  action: string;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** Records admin and security actions. Writes inside the caller's transaction when given one. */
export class AuditService {
  constructor(private readonly deps: { db: Knex }) {}

  async record(event: AuditEvent, trx: Knex = this.deps.db): Promise<void> {
    await AuditLogEntry.query(trx).insert({
      actorUserId: event.actorUserId,
      action: event.action,
      targetType: event.targetType ?? null,
      targetId: event.targetId === undefined ? null : String(event.targetId),
      details: event.details ? JSON.stringify(event.details) : null,
      ip: event.ip?.slice(0, 64) ?? null,
      createdAt: new Date(),
    });
  }
}
