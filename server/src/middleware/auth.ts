import type { Context, Middleware, ParameterizedContext } from 'koa';
import { messages } from '@shared/messages';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { SessionService } from '../accounts/sessions';
import type { AppState, AuthContext } from '../types';

export const SESSION_COOKIE = 'sandesh_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type AuthState = AppState & { authExpired?: boolean };

function bearerToken(ctx: Context): string | null {
  const header = ctx.get('Authorization');
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1] ?? null;
}

/**
 * Resolves the session from the cookie (web) or a bearer token (desktop). State-changing calls
 * count as activity and extend the idle timer; reads (including GET /api/auth/me) do not.
 * Only API calls need it: the web app's files and the simulator never look at the session.
 */
export function sessionAuth(sessions: SessionService): Middleware<AuthState> {
  return async (ctx, next) => {
    ctx.state.auth = null;
    if (!ctx.path.startsWith('/api/')) return next();
    const cookieToken = ctx.cookies.get(SESSION_COOKIE);
    const headerToken = bearerToken(ctx);
    const token = headerToken ?? cookieToken ?? null;
    if (token) {
      const found = await sessions.lookup(token);
      if (found.status === 'valid') {
        const auth: AuthContext = { user: found.user, session: found.session, via: headerToken ? 'bearer' : 'cookie' };
        ctx.state.auth = auth;
        if (!SAFE_METHODS.has(ctx.method)) await sessions.touch(found.session);
      } else if (found.status === 'expired') {
        ctx.state.authExpired = true;
      }
    }
    await next();
  };
}

/** The signed-in caller, or 401 (saying so when the session ran out of time). */
export function requireAuth(ctx: ParameterizedContext<AuthState>): AuthContext {
  if (ctx.state.auth) return ctx.state.auth;
  if (ctx.state.authExpired) throw UnauthorizedError(messages.auth.sessionExpired, 'session_expired');
  throw UnauthorizedError();
}

/** 401 for visitors, 403 for users. */
export function requireAdmin(ctx: ParameterizedContext<AuthState>): AuthContext {
  const auth = requireAuth(ctx);
  if (auth.user.role !== 'admin') throw ForbiddenError(messages.auth.adminRequired, 'admin_required');
  return auth;
}
