import { STORAGE_KEYS } from '@shared/constants';
import type { TUser } from '@shared/types';

/** Storage may be unavailable (privacy modes); the app then simply keeps nothing. */
function safely<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

function looksLikeUser(value: unknown): value is TUser {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<TUser>;
  return (
    typeof candidate.id === 'number' &&
    typeof candidate.username === 'string' &&
    (candidate.role === 'user' || candidate.role === 'admin')
  );
}

export function readStoredUser(): TUser | null {
  return safely(() => {
    const raw = localStorage.getItem(STORAGE_KEYS.user);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return looksLikeUser(parsed) ? parsed : null;
  }, null);
}

export function writeStoredUser(user: TUser): void {
  safely(() => localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user)), undefined);
}

export function removeStoredUser(): void {
  safely(() => localStorage.removeItem(STORAGE_KEYS.user), undefined);
}

/**
 * Logout clears local and session storage (spec 000 §4.1). The theme is a device preference,
 * not session data, so it survives: otherwise every sign-out would flip a dark-mode user back.
 */
export function clearAllStorage(): void {
  safely(() => {
    const theme = localStorage.getItem(STORAGE_KEYS.theme);
    localStorage.clear();
    if (theme !== null) localStorage.setItem(STORAGE_KEYS.theme, theme);
  }, undefined);
  safely(() => sessionStorage.clear(), undefined);
}
