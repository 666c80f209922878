import type { TAdminUser } from '@shared/types';

/** Spec 001: the search matches name, e-mail or username, ignoring case. */
export function filterUsers<T extends Pick<TAdminUser, 'name' | 'email' | 'username'>>(
  users: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...users];
  return users.filter((user) =>
    [user.name, user.email, user.username].some((value) => (value ?? '').toLowerCase().includes(needle)),
  );
}

/** Spec 001: the Add User credit input is parsed as an integer, falling back to 0. */
export function parseCreditInput(input: string): number {
  const value = Number.parseInt(input.replace(/[,\s]/g, ''), 10);
  return Number.isFinite(value) ? value : 0;
}
