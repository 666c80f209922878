import type { Middleware, ParameterizedContext } from 'koa';
import { API_KEY_PATTERN } from '@shared/apiKeys';
import type { User } from '../models';
import { apiKeyAuth, readApiKey, type ApiKeyAuthDeps, type ApiKeyStateExtra } from './apiKey';
import { requireAuth } from './auth';
import type { AppState } from '../types';

/** A route that a signed-in user and an API key may both call. */
export type SessionOrKeyState = AppState & Partial<ApiKeyStateExtra> & { authExpired?: boolean };

/**
 * A session when there is one; else an API key (X-API-Key or a bearer in the key's format), with
 * the public API's rate limit and answer shape (middleware/apiKey.ts); else the session's 401.
 * A desktop bearer token that ran out of time still answers `session_expired`.
 */
export function sessionOrApiKey(deps: ApiKeyAuthDeps): Middleware<SessionOrKeyState> {
  const keyed = apiKeyAuth(deps) as Middleware<SessionOrKeyState>;
  return async (ctx, next) => {
    if (ctx.state.auth) return next();
    const presented = readApiKey(ctx);
    if (!presented || ctx.state.authExpired || (!ctx.get('X-API-Key') && !API_KEY_PATTERN.test(presented))) requireAuth(ctx);
    return keyed(ctx, next);
  };
}

/** The caller of a sessionOrApiKey route: the signed-in user or the key's owner. */
export function callerOf(ctx: ParameterizedContext<SessionOrKeyState>): User {
  const user = ctx.state.auth?.user ?? ctx.state.apiUser;
  if (!user) return requireAuth(ctx).user;
  return user;
}
