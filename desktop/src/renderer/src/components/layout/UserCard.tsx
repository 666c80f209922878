import type { TUser } from '@shared/types';
import { roleLabel } from './navItems';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

export function Avatar({ name, className = 'size-9' }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`flex ${className} shrink-0 items-center justify-center rounded-full bg-emerald-700 text-sm font-semibold text-white dark:bg-emerald-500 dark:text-slate-950`}
    >
      {initials(name)}
    </span>
  );
}

/** The signed-in person's name and role, as the sidebar and drawer show them. */
export function UserCard({ user }: { user: TUser }) {
  return (
    <div className="flex items-center gap-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
      <Avatar name={user.name} />
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold text-slate-900 dark:text-white">{user.name}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{roleLabel(user.role)}</p>
      </div>
    </div>
  );
}
