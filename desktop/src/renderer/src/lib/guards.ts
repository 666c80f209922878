import type { Role } from '@shared/constants';
import { postLoginTarget, roleHome } from './roles';

export interface GuardSession {
  isLoading: boolean;
  user: { role: Role } | null;
}

export type GuardDecision =
  | { kind: 'loading' }
  | { kind: 'allow' }
  | { kind: 'denied' }
  | { kind: 'redirect'; to: string; from?: string };

export type GuardKind = 'auth' | 'admin' | 'user' | 'public-only';

/**
 * What a route guard does (spec 000 §2.2 and §6):
 * - auth: any signed-in user; visitors go to /login carrying their origin.
 * - admin: admins; users see Access Denied (the screen then redirects); visitors to /login.
 * - user: users; admins go to /admin/dashboard; visitors to /login.
 * - public-only (/login, /signup): visitors; a signed-in user goes on to the origin they were
 *   sent from when it suits their role, else their dashboard.
 *
 * `location` is the current path with its query; `from` the origin carried in location state.
 */
export function decideGuard(
  kind: GuardKind,
  session: GuardSession,
  location: string,
  from?: string | null,
): GuardDecision {
  if (session.isLoading) return { kind: 'loading' };
  const user = session.user;
  if (kind === 'public-only') {
    return user ? { kind: 'redirect', to: postLoginTarget(user.role, from) } : { kind: 'allow' };
  }
  if (!user) return { kind: 'redirect', to: '/login', from: location };
  if (kind === 'admin' && user.role !== 'admin') return { kind: 'denied' };
  if (kind === 'user' && user.role === 'admin') return { kind: 'redirect', to: roleHome('admin') };
  return { kind: 'allow' };
}
