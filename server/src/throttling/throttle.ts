import type { Knex } from 'knex';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DatabaseKind } from '../db/knex';

export interface LimiterSpec {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  blockSeconds?: number;
}

/**
 * Rate limiters backed by memory on SQLite (one process) and by the `rate_limits` table on
 * PostgreSQL, so several server instances count together.
 */
export class ThrottleFactory {
  constructor(private readonly deps: { db: Knex; kind: DatabaseKind }) {}

  create(spec: LimiterSpec): RateLimiterAbstract {
    const options = {
      keyPrefix: spec.keyPrefix,
      points: spec.points,
      duration: spec.durationSeconds,
      blockDuration: spec.blockSeconds ?? 0,
    };
    if (this.deps.kind === 'sqlite') return new RateLimiterMemory(options);
    return new RateLimiterPostgres({
      ...options,
      storeClient: this.deps.db,
      storeType: 'knex',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
  }

  /** Deletes expired counters (PostgreSQL). */
  async purgeExpired(): Promise<void> {
    if (this.deps.kind !== 'postgresql') return;
    await this.deps.db('rate_limits').where('expire', '<', Date.now()).delete();
  }
}

/** rate-limiter-flexible rejects with a RateLimiterRes when out of points, or an Error when the store fails. */
export function isRateLimited(error: unknown): error is RateLimiterRes {
  return error instanceof RateLimiterRes;
}

