import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import type { TAdminUser } from '@shared/types';
import { adminKeys } from '../../api/admin';
import { errorText } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useDeleteUser } from '../../hooks/useAdminData';

/** Confirmation before a user is deleted; `user` null keeps it closed. */
export function DeleteUserDialog({ user, onClose }: { user: TAdminUser | null; onClose: () => void }) {
  const deleteUser = useDeleteUser();
  const queryClient = useQueryClient();
  // The server deletes a user holding money only with the balance confirmed as shown here.
  const balance = user && user.creditBalance !== 0 ? user.creditBalance : null;

  const handleConfirm = async () => {
    if (!user) return;
    try {
      await deleteUser.mutateAsync({ id: user.id, ...(balance !== null ? { confirmBalance: balance } : {}) });
      toast.success(messages.admin.userDeleted);
      onClose();
    } catch (caught) {
      toast.error(errorText(caught, messages.admin.deleteUserFailed));
      // The balance changed since the list was read: show the one held now before another try.
      if (caught instanceof ApiError && caught.code === 'balance_not_confirmed') void queryClient.invalidateQueries({ queryKey: adminKeys.users });
    }
  };

  return (
    <ConfirmDialog
      open={user !== null}
      title="Delete User"
      description={
        <>
          Are you sure you want to delete <strong className="text-slate-900 dark:text-white">{user?.name}</strong>
          {user ? ` (@${user.username})` : ''}? They can no longer sign in, and their username and e-mail become free.
          Their payments and message history are kept for the records.
          {balance !== null ? (
            <strong className="mt-3 block font-semibold text-red-700 dark:text-red-300" data-testid="delete-user-balance">
              {fillMessage(messages.admin.deleteUserHoldsBalance, { amount: formatRupees(balance) })}
            </strong>
          ) : null}
        </>
      }
      confirmLabel="Delete"
      busy={deleteUser.isPending}
      onConfirm={() => void handleConfirm()}
      onClose={onClose}
    />
  );
}
