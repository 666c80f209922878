import { messages } from '@shared/messages';
import { errorText } from '../../api/client';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { useAdminUsers } from '../../hooks/useAdminData';
import { UserListCard } from '../../components/admin/UserListCard';

/** /admin/users (docs/decisions/2026-11-24-routes.md): the user list titled "User Management", without the stat cards. */
export function AdminUsersPage() {
  const users = useAdminUsers();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">User Management</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{messages.layout.subtitleUsers}</p>
      </div>
      {users.error ? (
        <ErrorCard
          detail={errorText(users.error, messages.admin.loadDataFailed)}
          onRetry={() => void users.refetch()}
          isRetrying={users.isFetching}
        />
      ) : (
        <UserListCard users={users.data ?? []} isLoading={users.isPending} title="All Users" />
      )}
    </div>
  );
}
