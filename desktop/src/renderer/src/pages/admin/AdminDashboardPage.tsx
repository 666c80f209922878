import { Settings } from 'lucide-react';
import { Link } from 'react-router-dom';
import { messages } from '@shared/messages';
import { errorText } from '../../api/client';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { StatCards, UsageStatCards } from '../../components/admin/StatCards';
import { useAdminStats, useAdminUsers } from '../../hooks/useAdminData';
import { UserListCard } from '../../components/admin/UserListCard';
import { Button } from '../../components/ui/button';

/** /admin/dashboard (spec 001 "Admin dashboard"): totals and the user list. */
export function AdminDashboardPage() {
  const users = useAdminUsers();
  const stats = useAdminStats();
  const failed = users.error ?? stats.error;

  const handleRetry = () => {
    void users.refetch();
    void stats.refetch();
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Admin Dashboard</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">Users, wallets and provider set-up at a glance.</p>
        </div>
        <Button variant="outline" asChild>
          <Link to="/admin/settings">
            <Settings aria-hidden="true" />
            Platform Settings
          </Link>
        </Button>
      </div>
      {failed ? (
        <ErrorCard
          detail={errorText(failed, messages.admin.loadDataFailed)}
          onRetry={handleRetry}
          isRetrying={users.isFetching || stats.isFetching}
        />
      ) : (
        <>
          <StatCards stats={stats.data} isLoading={stats.isPending} />
          <UsageStatCards stats={stats.data} isLoading={stats.isPending} />
          <UserListCard
            users={users.data ?? []}
            isLoading={users.isPending}
            title="Users"
            description="Search, add and remove accounts."
          />
        </>
      )}
    </div>
  );
}
