import { NavLink } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { cn } from '../../lib/cn';
import { focusRing } from '../ui/button';
import type { NavBadgeCounts, NavItem } from './navItems';

export function NavList({ items, badges = {}, onNavigate }: { items: readonly NavItem[]; badges?: NavBadgeCounts; onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map(({ to, label, icon: Icon, badge }) => {
        const count = badge ? (badges[badge] ?? 0) : 0;
        return (
          <li key={to}>
            <NavLink
              to={to}
              onClick={onNavigate}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                  isActive
                    ? 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-300'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
                  focusRing,
                )
              }
            >
              <Icon className="size-4 shrink-0" aria-hidden="true" />
              <span>{label}</span>
              {count > 0 ? (
                <span
                  data-testid={`nav-badge-${badge}`}
                  title={fillMessage(messages.admin.pendingTemplatesBadge, { count: formatIndianNumber(count) })}
                  className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800 tabular-nums dark:bg-amber-500/20 dark:text-amber-200"
                >
                  {formatIndianNumber(count)}
                  <span className="sr-only"> waiting</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}
