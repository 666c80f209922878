import { ROLES, type Role } from '@shared/constants';
import { cn } from '../../lib/cn';
import { FieldShell } from '../ui/form-field';

interface RoleSelectProps {
  id: string;
  value: string;
  error?: string;
  disabled?: boolean;
  onChange(role: Role): void;
}

/** The User/Admin role picker of the Add User dialog and the user settings Basic tab. */
export function RoleSelect({ id, value, error, disabled, onChange }: RoleSelectProps) {
  return (
    <FieldShell id={id} label="Role" error={error}>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-invalid={Boolean(error) || undefined}
        onChange={(e) => onChange(e.target.value as Role)}
        className={cn(
          'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900',
          'focus-visible:border-emerald-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500/30',
          'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
          error && 'border-red-500',
        )}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role === 'admin' ? 'Admin' : 'User'}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
