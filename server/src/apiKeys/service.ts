import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { API_KEY_PATTERN, API_KEYS } from '@shared/apiKeys';
import { fillMessage, messages } from '@shared/messages';
import { forUpdateIfSupported } from '../db/dialect';
import { ConflictError, NotFoundError } from '../errors';
import { User, toDate } from '../models';
import { ApiKey } from '../models/ApiKey';
import type { AuditService } from '../audit/service';
import { hashToken } from '../security/tokens';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_BODY_LENGTH = 43;
/** Bytes at or above this would make `byte % 62` favour some characters. */
const UNBIASED_BYTE_LIMIT = 62 * 4;
/** last_used_at is written at most this often per key, so that a busy key is not a write per request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * A new key: `snd_` and 43 base62 characters (256 random bits). Base62 rather than base64url so
 * that a double-click selects the whole key.
 */
export function generateApiKey(): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += BASE62[byte % 62];
      if (body.length === KEY_BODY_LENGTH) break;
    }
  }
  return `${API_KEYS.keyMarker}${body}`;
}

/** What the database keeps of a key (SHA-256, hex). */
export function hashApiKey(key: string): string {
  return hashToken(key);
}

export interface ApiKeyIdentity {
  keyId: number;
  userId: number;
  username: string;
  /** The key's own limit per 15 minutes, or null for the platform's per-IP default. */
  rateLimitPer15Min: number | null;
  /** The owner, active and not deleted. */
  user: User;
}

/** A key's id and its own limit per 15 minutes (null: the platform's per-IP default). */
export interface ApiKeyRateLimitHint {
  keyId: number;
  rateLimitPer15Min: number | null;
}

/** Keys whose rate limit is remembered (the most recently used). */
const RATE_LIMIT_HINTS_KEPT = 10_000;

interface Actor {
  ip?: string | null;
}

/** What a key's lookup read: its owner and what the key itself says. */
interface KeyOwner {
  user: User;
  keyId: number;
  rateLimitPer15Min: number | null;
  lastUsedAt: Date | null;
}

/**
 * API keys of the public send API (docs/decisions/2026-11-21-accounts-and-api-keys.md). The full key is answered once, at
 * creation; the database keeps its SHA-256 and a visible prefix. Revoking is a soft delete so
 * that the audit trail can still name the key.
 */
export class ApiKeyService {
  /**
   * Lookups in flight by key hash. Integrators send with one key from many connections at once:
   * each request that arrives while its key is being read shares that read instead of starting
   * another (on PostgreSQL under load the per-request lookup was half of all queries).
   * The read runs at the end of the event loop's turn (setImmediate), so the requests parsed in
   * the same turn share it too: on SQLite a read otherwise ended before the next request was
   * parsed, and each of them read the key alone (sharing it served `POST /api/send` markedly faster).
   * Every request that shares a read asked before it ran, and nothing is kept once it answers, so
   * a revoked key stops working as soon as before.
   */
  private readonly lookups = new Map<string, Promise<KeyOwner | undefined>>();
  /**
   * What each key's last successful authentication here said of its rate limit, by key hash: the
   * rate limit is counted beside the lookup on that word (`rateLimitHint`). Only keys that
   * authenticated are remembered, so guessed keys add nothing; it grants nothing either, as every
   * request is still authenticated.
   */
  private readonly rateLimitHints = new Map<string, ApiKeyRateLimitHint>();

  constructor(private readonly deps: { db: Knex; audit: AuditService; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Creates a key; at most API_KEYS.maxActivePerUser active keys per user. */
  async create(user: User, name: string, actor: Actor = {}): Promise<{ apiKey: ApiKey; key: string }> {
    const key = generateApiKey();
    const apiKey = await this.deps.db.transaction(async (trx) => {
      // The owner's row is the lock that keeps two parallel creates from passing the count together.
      await forUpdateIfSupported(User.query(trx).findById(user.id), trx);
      const active = await ApiKey.query(trx).where({ userId: user.id }).whereNull('revokedAt').resultSize();
      if (active >= API_KEYS.maxActivePerUser) {
        throw ConflictError('api_key_limit', fillMessage(messages.apiKeys.limitReached, { max: API_KEYS.maxActivePerUser }));
      }
      const created = await ApiKey.query(trx).insertAndFetch({
        userId: user.id,
        name: name.trim(),
        prefix: key.slice(0, API_KEYS.prefixLength),
        keyHash: hashApiKey(key),
        rateLimitPer15Min: null,
        lastUsedAt: null,
        revokedAt: null,
        createdAt: this.now(),
      });
      await this.deps.audit.record(
        { actorUserId: user.id, action: 'api_key.create', targetType: 'api_key', targetId: created.id, details: { name: created.name, prefix: created.prefix }, ip: actor.ip ?? null },
        trx,
      );
      return created;
    });
    return { apiKey, key };
  }

  /** The owner's active keys, newest first. */
  async list(userId: number): Promise<ApiKey[]> {
    return ApiKey.query(this.deps.db).where({ userId }).whereNull('revokedAt').orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]);
  }

  /** Every key of a user, revoked ones included, for administrators. */
  async listForAdmin(userId: number): Promise<ApiKey[]> {
    return ApiKey.query(this.deps.db).where({ userId }).orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]);
  }

  /** Revokes one of the owner's active keys; anyone else's key (or a revoked one) answers 404. */
  async revoke(user: User, keyId: number, actor: Actor = {}): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      const key = await ApiKey.query(trx).findOne({ id: keyId, userId: user.id }).whereNull('revokedAt');
      if (!key) throw NotFoundError(messages.apiKeys.notFound, 'api_key_not_found');
      await ApiKey.query(trx).patch({ revokedAt: this.now() }).where({ id: key.id });
      await this.deps.audit.record(
        { actorUserId: user.id, action: 'api_key.revoke', targetType: 'api_key', targetId: key.id, details: { name: key.name, prefix: key.prefix }, ip: actor.ip ?? null },
        trx,
      );
    });
  }

  /**
   * The key's owner, or null for a malformed, unknown or revoked key or an inactive owner. One
   * indexed lookup by hash joined to the user; last_used_at is refreshed at most once a minute.
   */
  async authenticate(rawKey: string): Promise<ApiKeyIdentity | null> {
    const key = rawKey.trim();
    if (!API_KEY_PATTERN.test(key)) return null;
    const keyHash = hashApiKey(key);
    let lookup = this.lookups.get(keyHash);
    if (lookup === undefined) {
      lookup = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.lookUp(keyHash))
        .finally(() => this.lookups.delete(keyHash));
      this.lookups.set(keyHash, lookup);
    }
    const shared = await lookup;
    if (!shared || !shared.user.isActive) return null;
    // Each request gets its own copy of the owner the lookup read, so that nothing one request
    // sets on it reaches another. Its fields are values (numbers, strings, dates read once), so a
    // copy of the fields is enough; objection's deep $clone was a tenth of the request.
    const user = Object.assign(Object.create(User.prototype) as User, shared.user);
    const { keyId, rateLimitPer15Min, lastUsedAt } = shared;
    this.rememberRateLimit(keyHash, { keyId, rateLimitPer15Min });
    await this.touch(keyId, lastUsedAt);
    return { keyId, userId: user.id, username: user.username, rateLimitPer15Min, user };
  }

  /** The key's rate limit as its last authentication here found it; null for a key not seen yet. */
  rateLimitHint(rawKey: string): ApiKeyRateLimitHint | null {
    const key = rawKey.trim();
    return API_KEY_PATTERN.test(key) ? (this.rateLimitHints.get(hashApiKey(key)) ?? null) : null;
  }

  private rememberRateLimit(keyHash: string, hint: ApiKeyRateLimitHint): void {
    this.rateLimitHints.delete(keyHash);
    this.rateLimitHints.set(keyHash, hint);
    if (this.rateLimitHints.size > RATE_LIMIT_HINTS_KEPT) this.rateLimitHints.delete(this.rateLimitHints.keys().next().value as string);
  }

  /**
   * The key's row joined to its owner, read once for every request that asks while it is read.
   * Through knex rather than objection's query builder (which cost the public send API as much as
   * the read itself); the owner becomes a User model as objection would make it.
   */
  private async lookUp(keyHash: string): Promise<KeyOwner | undefined> {
    const row = (await this.deps.db('users')
      .select('users.*', 'k.id as apiKeyId', 'k.rateLimitPer15Min as apiKeyRateLimit', 'k.lastUsedAt as apiKeyLastUsedAt')
      .join('api_keys as k', 'k.userId', 'users.id')
      .where('k.keyHash', keyHash)
      .whereNull('k.revokedAt')
      .whereNull('users.deletedAt')
      .first()) as (Record<string, unknown> & { apiKeyId: number; apiKeyRateLimit: number | null; apiKeyLastUsedAt: unknown }) | undefined;
    if (!row) return undefined;
    const { apiKeyId, apiKeyRateLimit, apiKeyLastUsedAt, ...userColumns } = row;
    return {
      user: User.fromDatabaseJson(userColumns),
      keyId: Number(apiKeyId),
      rateLimitPer15Min: apiKeyRateLimit ?? null,
      lastUsedAt: apiKeyLastUsedAt === null || apiKeyLastUsedAt === undefined ? null : toDate(apiKeyLastUsedAt),
    };
  }

  private async touch(keyId: number, lastUsedAt: Date | null): Promise<void> {
    const now = this.now();
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_WRITE_INTERVAL_MS) return;
    const cutoff = new Date(now.getTime() - LAST_USED_WRITE_INTERVAL_MS).toISOString();
    // The condition makes parallel requests on several instances write once between them.
    await ApiKey.query(this.deps.db)
      .patch({ lastUsedAt: now })
      .where({ id: keyId })
      .where((query) => query.whereNull('lastUsedAt').orWhere('lastUsedAt', '<', cutoff));
  }

  /** An administrator sets a key's own limit (requests per 15 minutes), or null for the default. */
  async setRateLimit(admin: User, keyId: number, limit: number | null, ip?: string | null): Promise<ApiKey> {
    return this.deps.db.transaction(async (trx) => {
      const key = await forUpdateIfSupported(ApiKey.query(trx).findById(keyId), trx);
      if (!key) throw NotFoundError(messages.apiKeys.notFound, 'api_key_not_found');
      const updated = await ApiKey.query(trx).patchAndFetchById(key.id, { rateLimitPer15Min: limit });
      await this.deps.audit.record(
        {
          actorUserId: admin.id,
          action: 'api_key.rate_limit',
          targetType: 'api_key',
          targetId: key.id,
          details: { ownerUserId: key.userId, prefix: key.prefix, from: key.rateLimitPer15Min, to: limit },
          ip: ip ?? null,
        },
        trx,
      );
      return updated;
    });
  }
}
