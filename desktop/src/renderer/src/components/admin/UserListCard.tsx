import { MoreHorizontal, Search, Trash2, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber, formatRupees } from '@shared/money';
import type { TAdminUser } from '@shared/types';
import { filterUsers } from '../../lib/adminUsers';
import { formatDay } from '../../lib/dates';
import { formatPhoneForDisplay } from '../../lib/format';
import { useSessionStore } from '../../stores/sessionStore';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { AddUserDialog } from './AddUserDialog';
import { DeleteUserDialog } from './DeleteUserDialog';

/** The admin pages of a user, in the order an admin usually needs them. */
const userLinks = [
  { suffix: 'details', label: 'View Details' },
  { suffix: 'settings', label: 'Settings' },
  { suffix: 'wallet', label: 'Wallet' },
  { suffix: 'templates', label: 'Templates' },
] as const;

function RowActions({ user, isSelf, onDelete }: { user: TAdminUser; isSelf: boolean; onDelete: () => void }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon">
          <MoreHorizontal aria-hidden="true" />
          <span className="sr-only">Actions for {user.username}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="text-xs text-slate-500 dark:text-slate-400">@{user.username}</DropdownMenuLabel>
        {userLinks.map(({ suffix, label }) => (
          <DropdownMenuItem key={suffix} onSelect={() => navigate(`/admin/users/${user.id}/${suffix}`)}>
            {label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" disabled={isSelf} onSelect={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete User
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

interface UserListCardProps {
  users: readonly TAdminUser[];
  isLoading: boolean;
  title?: string;
  description?: string;
}

/** Search, Add User and Delete User over the user list; shared by /admin/dashboard and /admin/users. */
export function UserListCard({ users, isLoading, title = 'Users', description }: UserListCardProps) {
  const currentUserId = useSessionStore((state) => state.user?.id);
  const [query, setQuery] = useState('');
  const [isAddOpen, setIsAddOpen] = useState(false);
  const [userToDelete, setUserToDelete] = useState<TAdminUser | null>(null);
  const visibleUsers = useMemo(() => filterUsers(users, query), [users, query]);

  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <CardTitle>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <div className="relative">
            <Label htmlFor="user-search" className="sr-only">
              Search users
            </Label>
            <Search
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
              aria-hidden="true"
            />
            <Input
              id="user-search"
              type="search"
              placeholder="Search by name, email or username"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className="pl-9 sm:w-72"
            />
          </div>
          <Button onClick={() => setIsAddOpen(true)}>
            <UserPlus aria-hidden="true" />
            Add User
          </Button>
        </div>
      </CardHeader>
      <CardContent className="p-0 pb-2">
        <div className="overflow-x-auto">
          <table className="w-full min-w-[52rem] text-left text-sm">
            <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:bg-slate-800/40 dark:text-slate-400">
              <tr>
                <th scope="col" className="px-6 py-3 font-medium">
                  User
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Phone
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Role
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  Credits
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  WhatsApp
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Joined
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {isLoading
                ? Array.from({ length: 4 }, (_, index) => (
                    <tr key={index} aria-hidden="true">
                      <td colSpan={8} className="px-6 py-4">
                        <div className="h-4 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
                      </td>
                    </tr>
                  ))
                : visibleUsers.map((user) => (
                    <tr key={user.id} className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
                      <td className="px-6 py-3">
                        <p className="font-medium text-slate-900 dark:text-white">{user.name}</p>
                        <p className="text-xs text-slate-500 dark:text-slate-400">@{user.username}</p>
                      </td>
                      <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{user.email}</td>
                      <td className="px-4 py-3 text-slate-600 dark:text-slate-300">
                        {formatPhoneForDisplay(user.phoneNumber) ?? '—'}
                      </td>
                      <td className="px-4 py-3">
                        <Badge variant={user.role === 'admin' ? 'info' : 'secondary'}>
                          {user.role === 'admin' ? 'Admin' : 'User'}
                        </Badge>
                      </td>
                      <td className="px-4 py-3 text-right tabular-nums">{formatRupees(user.creditBalance)}</td>
                      <td className="px-4 py-3">
                        {user.isConfigured ? (
                          <Badge>{messages.admin.configured}</Badge>
                        ) : (
                          <Badge variant="warning">{messages.admin.notConfigured}</Badge>
                        )}
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-slate-600 dark:text-slate-300">{formatDay(user.createdAt)}</td>
                      <td className="px-4 py-3 text-right">
                        <RowActions
                          user={user}
                          isSelf={user.id === currentUserId}
                          onDelete={() => setUserToDelete(user)}
                        />
                      </td>
                    </tr>
                  ))}
              {!isLoading && visibleUsers.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-6 py-10 text-center text-slate-500 dark:text-slate-400">
                    {query.trim() ? 'No users match your search.' : 'No users yet.'}
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        {!isLoading ? (
          <p className="px-6 pt-3 text-xs text-slate-500 dark:text-slate-400">
            {fillMessage(messages.counts.usersShowing, { shown: formatIndianNumber(visibleUsers.length), total: formatIndianNumber(users.length) })}
          </p>
        ) : null}
      </CardContent>
      <AddUserDialog open={isAddOpen} onOpenChange={setIsAddOpen} />
      <DeleteUserDialog user={userToDelete} onClose={() => setUserToDelete(null)} />
    </Card>
  );
}
