import type { TAdminApiKey, TApiKey, TCreatedApiKey } from '@shared/apiKeys';
import type { ApiKey } from '../models/ApiKey';

/** A key as its owner sees it: never the hash, never the full key. */
export function presentApiKey(key: ApiKey): TApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    rateLimitPer15Min: key.rateLimitPer15Min ?? null,
  };
}

export function presentAdminApiKey(key: ApiKey): TAdminApiKey {
  return { ...presentApiKey(key), revokedAt: key.revokedAt?.toISOString() ?? null };
}

/** The create answer: the only time the full key leaves the server. */
export function presentCreatedApiKey(key: ApiKey, fullKey: string): TCreatedApiKey {
  return { id: key.id, name: key.name, prefix: key.prefix, key: fullKey, createdAt: key.createdAt.toISOString() };
}
