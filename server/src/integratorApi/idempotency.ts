/**
 * Idempotent sends, after Stripe's design: an `Idempotency-Key` is claimed per API key
 * owner before the request runs; a finished request's response is kept for 24 hours and answered
 * again to the same key with the same request; the same key with another request answers 422;
 * a twin arriving while the first runs waits for its answer (up to a few seconds, then 409).
 * Only successful answers are kept: a refused request (400, 402, ...) accepted nothing and charged
 * nothing, so its key is released and a corrected retry with it runs.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { INTEGRATIONS } from '@shared/constants';
import { messages } from '@shared/messages';
import { isUniqueViolation } from '../db/knex';
import { AppError, ConflictError } from '../errors';

export type IdempotencyClaim =
  | { kind: 'replay'; status: number; body: unknown }
  | {
      kind: 'claimed';
      /** Keeps the response for later requests with the key. */
      finish(status: number, body: unknown): Promise<void>;
      /** Forgets the key: the request accepted nothing, a retry with it may run. */
      release(): Promise<void>;
    };

interface KeyRow {
  id: number | string;
  requestHash: string;
  state: 'processing' | 'done';
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: string | Date;
  expiresAt: string | Date;
}

const HOUR_MS = 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const PURGE_BATCH = 1000;

/** The digest a key is bound to: the call (method and path) and its parsed body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/** Idempotency-Key values: 1 to 255 visible ASCII characters (no spaces or control characters). */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${INTEGRATIONS.idempotencyKeyMaxLength}}$`);

export class IdempotencyService {
  private lastPurgeAt = 0;

  constructor(private readonly deps: { db: Knex; now?: () => Date; pollMs?: number; waitMs?: number }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Claims `key` for `userId`'s request with digest `hash`, or answers what a previous request with
   * the key answered. Throws 422 `idempotency_key_reused` for another request under the same key and
   * 409 `idempotency_key_in_flight` when its twin is still running after the wait.
   */
  async claim(userId: number, key: string, hash: string): Promise<IdempotencyClaim> {
    const db = this.deps.db;
    const waitUntil = Date.now() + (this.deps.waitMs ?? INTEGRATIONS.idempotencyWaitSeconds * 1000);
    for (;;) {
      const now = this.now();
      try {
        const [inserted] = (await db('idempotency_keys')
          .insert({
            userId,
            idempotencyKey: key,
            requestHash: hash,
            state: 'processing',
            createdAt: now.toISOString(),
            expiresAt: new Date(now.getTime() + INTEGRATIONS.idempotencyWindowHours * HOUR_MS).toISOString(),
          })
          .returning('id')) as { id: number | string }[];
        return this.claimed(Number(inserted?.id));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const row = (await db('idempotency_keys').where({ userId, idempotencyKey: key }).first()) as KeyRow | undefined;
      if (!row) continue;
      if (new Date(row.expiresAt).getTime() <= now.getTime()) {
        await db('idempotency_keys').where({ id: row.id }).andWhere('expiresAt', '<=', now.toISOString()).delete();
        continue;
      }
      if (row.requestHash !== hash) throw new AppError(422, 'idempotency_key_reused', messages.integrations.idempotencyKeyReused, 'Idempotency-Key');
      if (row.state === 'done') return { kind: 'replay', status: row.responseStatus ?? 200, body: JSON.parse(row.responseBody ?? 'null') as unknown };
      const abandonedBefore = now.getTime() - INTEGRATIONS.idempotencyAbandonedMinutes * 60 * 1000;
      if (new Date(row.createdAt).getTime() < abandonedBefore) {
        await db('idempotency_keys').where({ id: row.id, state: 'processing' }).delete();
        continue;
      }
      if (Date.now() >= waitUntil) throw ConflictError('idempotency_key_in_flight', messages.integrations.idempotencyKeyInFlight, 'Idempotency-Key');
      await new Promise((resolve) => setTimeout(resolve, this.deps.pollMs ?? 50));
    }
  }

  private claimed(id: number): IdempotencyClaim {
    const db = this.deps.db;
    return {
      kind: 'claimed',
      finish: async (status, body) => {
        await db('idempotency_keys').where({ id }).update({ state: 'done', responseStatus: status, responseBody: JSON.stringify(body ?? null) });
        await this.purgeExpired();
      },
      release: async () => {
        await db('idempotency_keys').where({ id, state: 'processing' }).delete();
      },
    };
  }

  /** Removes expired keys now and then (at most every ten minutes per instance, a batch at a time). */
  async purgeExpired(force = false): Promise<number> {
    const nowMs = this.now().getTime();
    if (!force && nowMs - this.lastPurgeAt < PURGE_INTERVAL_MS) return 0;
    this.lastPurgeAt = nowMs;
    const expired = this.deps.db('idempotency_keys').where('expiresAt', '<=', new Date(nowMs).toISOString()).orderBy('expiresAt').limit(PURGE_BATCH).select('id');
    return this.deps.db('idempotency_keys').whereIn('id', expired).delete();
  }
}
