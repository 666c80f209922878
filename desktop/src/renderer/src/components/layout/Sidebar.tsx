import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { TUser } from '@shared/types';
import { usePublicConfig } from '../../context/publicConfig';
import { cn } from '../../lib/cn';
import { roleHome } from '../../lib/roles';
import { LogoMark } from '../brand/Logo';
import { focusRing } from '../ui/button';
import { usePendingTemplateCount } from '../../hooks/useAdminTemplates';
import { navFor, type NavBadgeCounts } from './navItems';
import { NavList } from './NavList';
import { UserCard } from './UserCard';

/** The admin's badge figures; users have none, and nothing is asked for them. */
function useNavBadges(user: TUser): NavBadgeCounts {
  const pending = usePendingTemplateCount(user.role === 'admin');
  return pending.data === undefined ? {} : { pendingTemplates: pending.data };
}

function Brand({ user }: { user: TUser }) {
  const { brandName } = usePublicConfig();
  return (
    <Link to={roleHome(user.role)} className={cn('flex items-center gap-2 rounded-lg', focusRing)}>
      <LogoMark />
      <span className="text-lg font-bold tracking-tight text-slate-900 dark:text-white">{brandName}</span>
    </Link>
  );
}

/** The desktop sidebar (from 1024 px). */
export function Sidebar({ user, open }: { user: TUser; open: boolean }) {
  const badges = useNavBadges(user);
  return (
    <aside
      className={cn(
        'sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-r border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900',
        open && 'lg:flex',
      )}
    >
      <div className="flex h-16 items-center px-5">
        <Brand user={user} />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <NavList items={navFor(user.role, 'sidebar', user.account?.role)} badges={badges} />
      </nav>
      <div className="border-t border-slate-200 p-3 dark:border-slate-800">
        <UserCard user={user} />
      </div>
    </aside>
  );
}

/** The mobile slide-in drawer (below 1024 px). */
export function MobileDrawer({
  user,
  open,
  onOpenChange,
}: {
  user: TUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const badges = useNavBadges(user);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-950/50 lg:hidden" />
        <DialogPrimitive.Content
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl dark:bg-slate-900 lg:hidden"
          aria-describedby={undefined}
        >
          <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4 dark:border-slate-800">
            <DialogPrimitive.Title asChild>
              <div>
                <Brand user={user} />
              </div>
            </DialogPrimitive.Title>
            <DialogPrimitive.Close
              className={cn(
                'rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:hover:bg-slate-800 dark:hover:text-white',
                focusRing,
              )}
            >
              <X className="size-5" aria-hidden="true" />
              <span className="sr-only">Close menu</span>
            </DialogPrimitive.Close>
          </div>
          <div className="p-3">
            <UserCard user={user} />
          </div>
          <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 pb-4">
            <NavList items={navFor(user.role, 'drawer', user.account?.role)} badges={badges} onNavigate={() => onOpenChange(false)} />
          </nav>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
