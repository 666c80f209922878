import { ChevronDown, CreditCard, LogOut, Menu, UserCog, Wallet } from 'lucide-react';
import { NotificationBell } from '../notifications/NotificationBell';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@shared/messages';
import type { TUser } from '@shared/types';
import { formatCredits } from '../../lib/format';
import { headerText } from '../../lib/headerTitles';
import { useLiveCreditBalance } from '../../hooks/useCreditBalance';
import { useUIStore } from '../../stores/uiStore';
import { useLogout } from '../../hooks/useLogout';
import { ThemeToggle } from '../ThemeToggle';
import { Button, focusRing } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';
import { cn } from '../../lib/cn';
import { roleLabel } from './navItems';
import { Avatar } from './UserCard';
import { AccountSwitcher } from './AccountSwitcher';

const l = messages.layout;

function CreditsBadge() {
  const balance = useLiveCreditBalance();
  return (
    <Link
      to="/user/wallet"
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border border-emerald-200 bg-emerald-50 px-2.5 py-1.5 text-xs text-emerald-800 sm:gap-2 sm:px-3 sm:text-sm',
        'hover:bg-emerald-100 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-300 dark:hover:bg-emerald-500/20',
        focusRing,
      )}
    >
      <Wallet className="hidden size-4 sm:block" aria-hidden="true" />
      <span className="sr-only sm:not-sr-only">Credits</span>
      <span className="font-semibold tabular-nums" data-testid="credits-balance">
        {formatCredits(balance)}
      </span>
    </Link>
  );
}

export function Header({ user }: { user: TUser }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  const toggleSidebar = useUIStore((state) => state.toggleSidebar);
  const isAdmin = user.role === 'admin';
  const { title, subtitle } = headerText(pathname, isAdmin);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      <div className="flex h-16 items-center gap-2 px-3 sm:gap-3 sm:px-6">
        <Button variant="ghost" size="icon" onClick={toggleSidebar}>
          <Menu aria-hidden="true" />
          <span className="sr-only">Toggle navigation</span>
        </Button>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base font-semibold text-slate-900 sm:text-lg dark:text-white">{title}</h1>
          <p className="hidden truncate text-sm text-slate-500 dark:text-slate-400 sm:block">{subtitle}</p>
        </div>
        {isAdmin ? null : <AccountSwitcher />}
        {isAdmin ? null : <CreditsBadge />}
        <NotificationBell />
        <ThemeToggle />
        <DropdownMenu>
          <DropdownMenuTrigger
            className={cn(
              'flex items-center gap-2 rounded-full p-1 hover:bg-slate-100 sm:pr-2 dark:hover:bg-slate-800',
              focusRing,
            )}
          >
            <Avatar name={user.name} className="size-8" />
            <span className="hidden max-w-[10rem] truncate text-sm font-medium text-slate-700 dark:text-slate-200 md:inline">
              {user.name}
            </span>
            <ChevronDown className="hidden size-4 text-slate-500 sm:block" aria-hidden="true" />
            <span className="sr-only md:hidden">{user.name}</span>
          </DropdownMenuTrigger>
          <DropdownMenuContent className="w-64">
            <DropdownMenuLabel>
              <p className="truncate font-semibold">{user.name}</p>
              <p className="truncate text-xs font-normal text-slate-500 dark:text-slate-400">{user.email}</p>
              <p className="mt-1 text-xs font-medium text-emerald-700 dark:text-emerald-400">{roleLabel(user.role)}</p>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => navigate(isAdmin ? '/admin/profile' : '/user/profile')}>
              <UserCog aria-hidden="true" />
              {l.profileSettings}
            </DropdownMenuItem>
            {isAdmin ? null : (
              <DropdownMenuItem onSelect={() => navigate('/user/billing')}>
                <CreditCard aria-hidden="true" />
                {l.billingAndCredits}
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={() => void logout()}>
              <LogOut aria-hidden="true" />
              {l.signOut}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </header>
  );
}
