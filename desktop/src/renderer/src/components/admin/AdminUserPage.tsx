import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { messages } from '@shared/messages';
import type { TAdminUserDetails } from '@shared/types';
import { errorText } from '../../api/client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { ErrorCard } from './ErrorCard';
import { useAdminUserDetails } from '../../hooks/useAdminUser';

export type AdminUserView = TAdminUserDetails['user'];

/** Spec 001: back and cancel on the per-user admin screens go to the dashboard. */
export const ADMIN_BACK_PATH = '/admin/dashboard';

export function BackToDashboardButton() {
  return (
    <Button variant="outline" asChild>
      <Link to={ADMIN_BACK_PATH}>
        <ArrowLeft aria-hidden="true" />
        Back to Dashboard
      </Link>
    </Button>
  );
}

/** The `:id` of /admin/users/:id/...; NaN when it is not a positive whole number. */
export function useUserIdParam(): number {
  const { id } = useParams();
  return id && /^\d+$/.test(id) ? Number(id) : Number.NaN;
}

/**
 * Frame of the per-user admin screens: title and back button, then the user once loaded, an
 * error card with Retry when the load failed, or a spinner meanwhile.
 */
export function AdminUserPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: (user: AdminUserView) => ReactNode;
}) {
  const id = useUserIdParam();
  const details = useAdminUserDetails(id);

  let body: ReactNode;
  if (Number.isNaN(id)) {
    body = <Alert tone="error">{messages.admin.userNotFound}</Alert>;
  } else if (details.error) {
    body = (
      <ErrorCard
        title={messages.adminWallet.fetchUserFailed}
        detail={errorText(details.error, messages.adminWallet.fetchUserFailed)}
        onRetry={() => void details.refetch()}
        isRetrying={details.isFetching}
      />
    );
  } else if (details.data) {
    body = children(details.data);
  } else {
    body = (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" label={messages.common.loading} />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
        </div>
        <BackToDashboardButton />
      </div>
      {body}
    </div>
  );
}
