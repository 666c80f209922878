import { describe, expect, it, vi } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Knex } from 'knex';
import { ThrottleFactory } from '../throttling/throttle';
import { ApiRateLimiter } from './rateLimit';

type Identified = Parameters<ApiRateLimiter['consumeWhileIdentifying']>[1];

/** An in-memory limiter that records which counters were written, in order. */
class RecordingLimiter extends RateLimiterMemory {
  constructor(
    private readonly log: string[],
    private readonly prefix: string,
  ) {
    super({ points: 2 ** 31 - 1, duration: 900 });
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>): ReturnType<RateLimiterMemory['consume']> {
    this.log.push(`${this.prefix}:${String(args[0])}`);
    return super.consume(...args);
  }
}

function limiter(defaultPer15Min = 100): { rateLimit: ApiRateLimiter; writes: string[] } {
  const writes: string[] = [];
  const throttles = new ThrottleFactory({ db: {} as Knex, kind: 'sqlite' });
  vi.spyOn(throttles, 'create').mockImplementation((spec) => new RecordingLimiter(writes, spec.keyPrefix.endsWith('_key') ? 'key' : 'ip'));
  return { rateLimit: new ApiRateLimiter({ throttles, defaultPer15Min }), writes };
}

function heldLookup(): { lookup: Promise<Identified>; answer(key: Identified): void } {
  let answer: (key: Identified) => void = () => undefined;
  const lookup = new Promise<Identified>((resolve) => (answer = resolve));
  return { lookup, answer };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ApiRateLimiter.consumeWhileIdentifying', () => {
  it("writes the key's counter while the key is still being looked up, once, when the guess was right", async () => {
    const { rateLimit, writes } = limiter();
    const key = { id: 7, rateLimitPer15Min: 5 };
    const held = heldLookup();
    const decision = rateLimit.consumeWhileIdentifying('192.0.2.1', key, held.lookup);
    await flush();
    expect(writes).toEqual(['key:7']);
    held.answer(key);
    expect(await decision).toMatchObject({ allowed: true, scope: 'key', limit: 5, remaining: 4 });
    expect(writes).toEqual(['key:7']);
  });

  it("counts a key seen for the first time against its own limit and gives its IP's counter the request back", async () => {
    const { rateLimit, writes } = limiter();
    const decision = await rateLimit.consumeWhileIdentifying('192.0.2.2', null, Promise.resolve({ id: 8, rateLimitPer15Min: 3 }));
    expect(decision).toMatchObject({ scope: 'key', limit: 3, remaining: 2 });
    expect(writes).toEqual(['ip:192.0.2.2', 'key:8']);
    // The IP's allowance is whole: its next request is its first.
    expect(await rateLimit.consume({ ip: '192.0.2.2', key: null })).toMatchObject({ scope: 'ip', remaining: 99 });
  });

  it("counts a key that lost its own limit, or was revoked, against the IP, and gives the key's counter the request back", async () => {
    const { rateLimit } = limiter(2);
    const key = { id: 9, rateLimitPer15Min: 10 };
    expect(await rateLimit.consumeWhileIdentifying('192.0.2.3', key, Promise.resolve(key))).toMatchObject({ scope: 'key', remaining: 9 });

    const limitRemoved = await rateLimit.consumeWhileIdentifying('192.0.2.3', key, Promise.resolve({ id: 9, rateLimitPer15Min: null }));
    expect(limitRemoved).toMatchObject({ allowed: true, scope: 'ip', limit: 2, remaining: 1 });
    const revoked = await rateLimit.consumeWhileIdentifying('192.0.2.3', key, Promise.resolve(null));
    expect(revoked).toMatchObject({ allowed: true, scope: 'ip', remaining: 0 });
    // Guessing with a revoked key is throttled as any wrong key is.
    expect(await rateLimit.consumeWhileIdentifying('192.0.2.3', key, Promise.resolve(null))).toMatchObject({ allowed: false, scope: 'ip' });
    // The key's counter holds only the request it was charged.
    expect(await rateLimit.consumeWhileIdentifying('192.0.2.4', key, Promise.resolve(key))).toMatchObject({ scope: 'key', remaining: 8 });
  });

  it('fails as the lookup fails', async () => {
    const { rateLimit } = limiter();
    await expect(rateLimit.consumeWhileIdentifying('192.0.2.5', null, Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
  });
});
