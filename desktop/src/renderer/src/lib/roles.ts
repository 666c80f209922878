import { ROLE_HOME, type Role } from '@shared/constants';

/** The dashboard a role lands on (spec 000 §2.2). Anything but admin counts as a user. */
export function roleHome(role: Role | string | null | undefined): string {
  return role === 'admin' ? ROLE_HOME.admin : ROLE_HOME.user;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function isAdminPath(path: string): boolean {
  return isUnder(path, '/admin');
}

export function isUserPath(path: string): boolean {
  return isUnder(path, '/user');
}

/** Paths that a signed-in user is sent away from. */
export function isPublicOnlyPath(path: string): boolean {
  return path === '/login' || path === '/signup';
}

/** Only the path part: the origin may carry a query or hash that does not matter for roles. */
function pathOnly(location: string): string {
  const end = location.search(/[?#]/);
  return end === -1 ? location : location.slice(0, end);
}

/**
 * Where to go after signing in: back to the screen that sent the visitor to /login when that
 * screen suits the role, otherwise the role's dashboard.
 */
export function postLoginTarget(role: Role | string, from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//')) return roleHome(role);
  const path = pathOnly(from);
  if (path === '/' || isPublicOnlyPath(path)) return roleHome(role);
  if (isAdminPath(path) && role !== 'admin') return roleHome(role);
  if (isUserPath(path) && role === 'admin') return roleHome(role);
  return from;
}
