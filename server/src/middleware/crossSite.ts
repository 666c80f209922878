/**
 * Cross-site request forgery. The session cookie is sent with any request the browser makes to
 * us, whichever site's page asked for it: SameSite=Lax holds back cross-site POSTs from other
 * registrable domains, but a sibling subdomain is the same site, and older browsers do not honour
 * it at all. So a state-changing request that the session cookie authenticates must also show that
 * the page which sent it is ours:
 * - where it came from: an `Origin` we trust passes; else `Sec-Fetch-Site` (sent by every current
 *   browser, and not writable by pages) must be `same-origin` or `none`; else, without it, an
 *   `Origin` must name this server's own host. A request with neither header is not from a
 *   browser (browsers send `Origin` with every POST): it passes, held by the next rule.
 * - what it carries: a POST, and any request with a body, must declare JSON (or the upload type
 *   its route takes). JSON cannot be sent across sites without a CORS preflight, which only the
 *   trusted origins pass; forms and `fetch(..., {mode: 'no-cors'})` can send only form, multipart
 *   and text bodies, or none.
 * Bearer tokens (the desktop app) and API keys are never sent by a browser on its own, so calls
 * made with them are left alone. Sign-in, sign-up and the password reset read cookies and set the
 * session cookie without a session, so they are held to the same rules (login CSRF).
 */
import type { Context, Middleware } from 'koa';
import { messages } from '@shared/messages';
import { ForbiddenError } from '../errors';
import type { AppState } from '../types';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CrossSiteRules {
  /** Origins whose pages may change state with the cookie besides this server's own (CORS_ORIGINS, PUBLIC_BASE_URL, the desktop app). */
  trustedOrigins: ReadonlySet<string>;
  /** Paths that read or set the session's cookies before there is a session: sign-in, sign-up, resets, sign-out. */
  signInPaths: ReadonlySet<string>;
  /** Body types a path takes besides JSON: multipart/form-data on uploads, raw bytes on upload parts. */
  otherBodyTypes: (path: string) => readonly string[];
}

/** Whether the request came from a page of this server or of a trusted origin. */
export function fromTrustedPage(ctx: Context, trustedOrigins: ReadonlySet<string>): boolean {
  const origin = ctx.get('Origin');
  if (origin && trustedOrigins.has(origin)) return true;
  const site = ctx.get('Sec-Fetch-Site');
  if (site) return site === 'same-origin' || site === 'none';
  if (!origin) return true;
  try {
    // `Origin: null` (a sandboxed frame, a redirect across sites) does not parse, and is refused.
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}

function hasBody(ctx: Context): boolean {
  return ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length') || 0) > 0;
}

/** Whether the request declares a body type the route takes; a POST must declare one. */
export function bodyTypeAllowed(ctx: Context, otherTypes: readonly string[]): boolean {
  const type = ctx.request.type;
  if (!type) return ctx.method !== 'POST' && !hasBody(ctx);
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type) || otherTypes.includes(type);
}

/**
 * Refuses with 403 `cross_site_request` a state-changing request authenticated by the session
 * cookie (or made to a sign-in path) that is not shown to come from our own pages. It runs before
 * any body is read; the unread body is not drained (the connection closes after the answer).
 */
export function crossSiteGuard(rules: CrossSiteRules): Middleware<AppState> {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const via = ctx.state.auth?.via;
    if (via === 'bearer') return next();
    if (via !== 'cookie' && !rules.signInPaths.has(ctx.path)) return next();
    if (!fromTrustedPage(ctx, rules.trustedOrigins) || !bodyTypeAllowed(ctx, rules.otherBodyTypes(ctx.path))) {
      ctx.set('Connection', 'close');
      throw ForbiddenError(messages.auth.crossSiteRequest, 'cross_site_request');
    }
    return next();
  };
}
