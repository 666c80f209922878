import type { Context, Middleware, ParameterizedContext } from 'koa';
import { fillMessage, messages } from '@shared/messages';
import { TEAM_ROLE_LABELS, rolesFor } from '@shared/teamRoles';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { SessionService } from '../accounts/sessions';
import type { TeamService } from '../accounts/team';
import type { User } from '../models';
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
export function sessionAuth(sessions: SessionService, team: TeamService): Middleware<AuthState> {
  return async (ctx, next) => {
    ctx.state.auth = null;
    if (!ctx.path.startsWith('/api/')) return next();
    const cookieToken = ctx.cookies.get(SESSION_COOKIE);
    const headerToken = bearerToken(ctx);
    const token = headerToken ?? cookieToken ?? null;
    if (token) {
      const found = await sessions.lookup(token);
      if (found.status === 'valid') {
        // The person acts in the session's account: services read `user` as the account's owner
        // row, so every owner-scoped query is account-scoped; `actor` keeps who it is.
        const resolved = await team.resolve(found.user.id, found.session.accountId);
        const auth: AuthContext = {
          user: resolved?.account ?? found.user,
          actor: found.user,
          accountRole: resolved?.role ?? null,
          session: found.session,
          via: headerToken ? 'bearer' : 'cookie',
        };
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

/**
 * 401 for visitors, 403 for users. The platform role is the person's: an admin who joined a
 * customer's account and switched to it is still the admin here, acting as themself.
 */
export function requireAdmin(ctx: ParameterizedContext<AuthState>): AuthContext {
  const auth = requireAuth(ctx);
  if (auth.actor.role !== 'admin') throw ForbiddenError(messages.auth.adminRequired, 'admin_required');
  return { ...auth, user: auth.actor, accountRole: 'owner' };
}

/** The signed-in person (not the account they act in): for their own profile, password, invites. */
export function requirePerson(ctx: ParameterizedContext<AuthState>): AuthContext & { user: User } {
  const auth = requireAuth(ctx);
  return { ...auth, user: auth.actor };
}

/**
 * Holds every user-area route to the roles the shared table gives it (shared/teamRoles.ts),
 * before any handler runs. Callers without a session pass: the route's own check answers 401 or
 * takes an API key, which acts for its account as the owner who made it.
 */
export function requireRole(): Middleware<AuthState> {
  return async (ctx, next) => {
    const auth = ctx.state.auth;
    if (!auth || ctx.method === 'OPTIONS') return next();
    const roles = rolesFor(ctx.method, ctx.path);
    if (roles === null) return next();
    const role = auth.accountRole;
    if (role === null) throw ForbiddenError(messages.team.noAccount, 'no_account');
    if (!roles.includes(role)) {
      const needed = roles.map((name) => TEAM_ROLE_LABELS[name].toLowerCase()).join(' or ');
      throw ForbiddenError(fillMessage(messages.team.roleRequired, { role: TEAM_ROLE_LABELS[role].toLowerCase(), roles: needed }), 'role_required');
    }
    return next();
  };
}
