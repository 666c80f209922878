import type { Middleware, ParameterizedContext } from 'koa';
import { fillMessage, messages } from '@shared/messages';
import { AppError, TooManyRequestsError, UnauthorizedError } from '../errors';
import { usernameKey, type User } from '../models';
import type { ApiRateLimitDecision, ApiRateLimiter } from '../apiKeys/rateLimit';
import type { ApiKeyService } from '../apiKeys/service';
import type { AppState } from '../types';

/** What the public send routes find in `ctx.state` once the key is accepted. */
export interface ApiKeyStateExtra {
  apiKey: { keyId: number; userId: number; username: string };
  /** The key's owner. */
  apiUser: User;
}
export type ApiKeyState = AppState & ApiKeyStateExtra;

export interface ApiKeyAuthDeps {
  apiKeys: ApiKeyService;
  apiRateLimit: ApiRateLimiter;
}

const invalidKey = () => UnauthorizedError(messages.publicApi.invalidCredentials, 'invalid_api_key');

/** The key from `X-API-Key`, or else from `Authorization: Bearer <key>`. */
export function readApiKey(ctx: { get(field: string): string }): string | null {
  const header = ctx.get('X-API-Key').trim();
  if (header) return header;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  return bearer?.[1] ?? null;
}

function setRateLimitHeaders(ctx: ParameterizedContext, decision: ApiRateLimitDecision): void {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  // Epoch seconds, as GitHub and most APIs send it.
  ctx.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
}

/**
 * Authenticates the public send API (`POST /api/send`, `POST /api/send/batch`) by API key and
 * applies its rate limit (services/apiRateLimit.ts: per IP with the default, per key when an
 * administrator gave the key its own limit). Every request is counted, including ones with a
 * missing or wrong key, so guessing is throttled too; over the limit answers 429 before the key
 * is judged. Then a missing, unknown or revoked key answers 401.
 *
 * Errors of this face follow the public contract `{success: false, error, code}`: AppErrors
 * thrown by the route behind this middleware (validation, assertKeyOwner, insufficient balance)
 * are answered in that shape too, with their status and headers.
 */
export function apiKeyAuth(deps: ApiKeyAuthDeps): Middleware<ApiKeyState> {
  return async (ctx, next) => {
    try {
      const rawKey = readApiKey(ctx);
      const lookup = rawKey ? deps.apiKeys.authenticate(rawKey) : Promise.resolve(null);
      const hint = rawKey ? deps.apiKeys.rateLimitHint(rawKey) : null;
      const decision = await deps.apiRateLimit.consumeWhileIdentifying(
        ctx.ip,
        hint && { id: hint.keyId, rateLimitPer15Min: hint.rateLimitPer15Min },
        lookup.then((found) => found && { id: found.keyId, rateLimitPer15Min: found.rateLimitPer15Min }),
      );
      const identity = await lookup;
      setRateLimitHeaders(ctx, decision);
      if (!decision.allowed) {
        throw TooManyRequestsError(fillMessage(messages.publicApi.tooManyRequestsLimit, { limit: decision.limit }), decision.retryAfterSeconds, 'rate_limited');
      }
      if (!identity) throw invalidKey();
      ctx.state.apiKey = { keyId: identity.keyId, userId: identity.userId, username: identity.username };
      ctx.state.apiUser = identity.user;
      await next();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      ctx.status = error.status;
      ctx.body = {
        success: false,
        error: error.message,
        code: error.code,
        ...(error.field ? { field: error.field } : {}),
        ...(error.details ? { details: error.details } : {}),
      };
    }
  };
}

/**
 * The body's `username` must name the key's owner (docs/decisions/2026-11-21-accounts-and-api-keys.md); otherwise 401 with the same
 * text as a wrong key, so the answer does not tell which of the two was wrong. Usernames compare
 * without regard to case, as they are unique.
 */
export function assertKeyOwner(ctx: { state: Partial<ApiKeyStateExtra> }, username: unknown): void {
  const key = ctx.state.apiKey;
  if (!key || typeof username !== 'string' || usernameKey(username) !== usernameKey(key.username)) throw invalidKey();
}
