import { toast } from 'sonner';
import { messages } from '@shared/messages';
import type { TAdminUser } from '@shared/types';
import { errorText } from '../../api/client';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { useDeleteUser } from './useAdminData';

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
    <AlertDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !deleteUser.isPending) onClose();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete User</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete <strong className="text-slate-900 dark:text-white">{user?.name}</strong>
            {user ? ` (@${user.username})` : ''}? Their account, templates and history go with it. This cannot be
            undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleteUser.isPending}>Cancel</AlertDialogCancel>
          {/* A plain button: the Radix Action would close the dialog before the call answers. */}
          <Button variant="destructive" onClick={() => void handleConfirm()} disabled={deleteUser.isPending}>
            {deleteUser.isPending ? <Spinner className="text-current" /> : null}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
