import { toast } from 'sonner';
import { messages } from '@shared/messages';
import type { TAdminUser } from '@shared/types';
import { errorText } from '../../api/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useDeleteUser } from '../../hooks/useAdminData';

/** Confirmation before a user is deleted; `user` null keeps it closed. */
export function DeleteUserDialog({ user, onClose }: { user: TAdminUser | null; onClose: () => void }) {
  const deleteUser = useDeleteUser();

  const handleConfirm = async () => {
    if (!user) return;
    try {
      await deleteUser.mutateAsync(user.id);
      toast.success(messages.admin.userDeleted);
      onClose();
    } catch (caught) {
      toast.error(errorText(caught, messages.admin.deleteUserFailed));
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
        </>
      }
      confirmLabel="Delete"
      busy={deleteUser.isPending}
      onConfirm={() => void handleConfirm()}
      onClose={onClose}
    />
  );
}
