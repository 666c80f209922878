import { CoalescingCounter, type CounterTotal } from '../throttling/coalescingCounter';
import type { ThrottleFactory } from '../throttling/throttle';

const WINDOW_SECONDS = 15 * 60;
/**
 * The stores count without ever refusing; the limit is compared here, because a key's own limit
 * differs from key to key and may change while its window runs (2^31 - 1 fits PostgreSQL's
 * integer `points` column).
 */
const UNBOUNDED_POINTS = 2 ** 31 - 1;

export interface ApiRateLimitDecision {
  allowed: boolean;
  /** Which counter the request was charged to. */
  scope: 'ip' | 'key';
  limit: number;
  remaining: number;
  /** When the current window ends. */
  resetAt: Date;
  /** Seconds to wait before the next request can pass (at least 1 when refused). */
  retryAfterSeconds: number;
}

/** One counter of `ApiRateLimiter`, as a request is charged to it. */
interface ChargedCounter {
  name: string;
  scope: 'ip' | 'key';
  limit: number;
  count(): Promise<CounterTotal>;
  refund(): Promise<void>;
}

export interface ApiRateLimitSubject {
  ip: string;
  /** The authenticated key, or null when the request carried no valid key. */
  key: { id: number; rateLimitPer15Min: number | null } | null;
}

/**
 * Rate limits of the public send API, per 15-minute window (spec 002 §9, docs/decisions/2026-11-21-accounts-and-api-keys.md):
 * - a request is counted against its IP address with the platform default (100, or
 *   API_RATE_LIMIT_PER_15_MIN), including requests whose key is missing or wrong;
 * - a key to which an administrator gave its own limit is counted against that key alone, with
 *   that limit, wherever its requests come from; it no longer uses its IP's allowance.
 * Counters live in memory on SQLite (one process) and in the `rate_limits` table on PostgreSQL,
 * so several instances share them. Created once per server, so both send routes share it. A key's
 * requests under way together are counted by one write (throttling/coalescingCounter.ts), each
 * with the count it would have had alone.
 */
export class ApiRateLimiter {
  private readonly byIp: CoalescingCounter;
  private readonly byKey: CoalescingCounter;

  /**
   * `budget` names a separate set of counters whose limits are `scale` times the send API's
   * (status reads by key are counted apart from sends, so polling cannot starve sending).
   */
  constructor(private readonly deps: { throttles: ThrottleFactory; defaultPer15Min: number; now?: () => number; budget?: { name: string; scale: number } }) {
    const prefix = deps.budget ? `public_api_${deps.budget.name}` : 'public_api';
    this.byIp = new CoalescingCounter(deps.throttles.create({ keyPrefix: `${prefix}_ip`, points: UNBOUNDED_POINTS, durationSeconds: WINDOW_SECONDS }));
    this.byKey = new CoalescingCounter(deps.throttles.create({ keyPrefix: `${prefix}_key`, points: UNBOUNDED_POINTS, durationSeconds: WINDOW_SECONDS }));
  }

  get defaultPer15Min(): number {
    return this.deps.defaultPer15Min;
  }

  /** Counts one request and says whether it may pass. */
  async consume(subject: ApiRateLimitSubject): Promise<ApiRateLimitDecision> {
    const counter = this.counterFor(subject);
    return this.decide(counter, await counter.count());
  }

  /**
   * Counts a request whose key is still being looked up, beside the lookup instead of after it
   * (two round trips one after another on PostgreSQL were a third of a `POST /api/send`). The
   * counter is the one the key used when it last authenticated (`guess`, null for a key not seen
   * yet: its IP's). When the key turns out to use another (its first request here, or an
   * administrator gave it a limit or took it away, or it was revoked), that one is counted after
   * the lookup and the guessed one is given its request back.
   */
  async consumeWhileIdentifying(
    ip: string,
    guess: ApiRateLimitSubject['key'],
    identify: Promise<ApiRateLimitSubject['key']>,
  ): Promise<ApiRateLimitDecision> {
    const guessed = this.counterFor({ ip, key: guess });
    const [guessedTotal, key] = await Promise.all([guessed.count(), identify]);
    const counter = this.counterFor({ ip, key });
    if (counter.name === guessed.name) return this.decide(counter, guessedTotal);
    const [total] = await Promise.all([counter.count(), guessed.refund()]);
    return this.decide(counter, total);
  }

  /** The counter a request is charged to, and that counter's limit. */
  private counterFor(subject: ApiRateLimitSubject): ChargedCounter {
    const ownLimit = subject.key?.rateLimitPer15Min ?? null;
    const limit = (ownLimit ?? this.deps.defaultPer15Min) * (this.deps.budget?.scale ?? 1);
    const [scope, counter, name] = ownLimit !== null && subject.key ? (['key', this.byKey, String(subject.key.id)] as const) : (['ip', this.byIp, subject.ip || 'unknown'] as const);
    return { name: `${scope}:${name}`, scope, limit, count: () => counter.count(name), refund: () => counter.refund(name) };
  }

  private decide({ scope, limit }: { scope: 'ip' | 'key'; limit: number }, result: CounterTotal): ApiRateLimitDecision {
    const now = this.deps.now?.() ?? Date.now();
    const allowed = result.consumedPoints <= limit;
    return {
      allowed,
      scope,
      limit,
      remaining: Math.max(0, limit - result.consumedPoints),
      resetAt: new Date(now + result.msBeforeNext),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
    };
  }
}
