import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { USERS } from '@shared/constants';
import { messages } from '@shared/messages';
import { ZCreateUserRequest, type TCreateUserRequest } from '@shared/schemas/admin';
import { errorText, serverFieldErrors } from '../../api/client';
import { parseCreditInput } from '../../lib/adminUsers';
import { FormAmountField, FormPasswordField, FormPhoneField } from '../form/fields';
import { showServerFieldErrors, textReadInto, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { AccountIdentityFields } from './AccountIdentityFields';
import { RoleSelect } from './RoleSelect';
import { useCreateUser } from '../../hooks/useAdminData';

/** The dialog's fields as typed: the credits are text until the shared schema reads them. */
const ZAddUserForm = ZCreateUserRequest.extend({
  creditBalance: textReadInto(ZCreateUserRequest.shape.creditBalance, parseCreditInput),
});

const emptyForm: z.input<typeof ZAddUserForm> = {
  name: '',
  email: '',
  username: '',
  password: '',
  phoneNumber: '',
  role: 'user',
  creditBalance: String(USERS.defaultCreatedUserCredits),
};

export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const createUser = useCreateUser();
  const form = useSchemaForm(ZAddUserForm, emptyForm);
  const [error, setError] = useState('');

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      form.reset(emptyForm);
      setError('');
      createUser.reset();
    }
    onOpenChange(next);
  };

  const handleCreate = async (user: TCreateUserRequest) => {
    setError('');
    try {
      await createUser.mutateAsync(user);
      toast.success(messages.admin.userCreated);
      handleOpenChange(false);
    } catch (caught) {
      const text = errorText(caught, messages.admin.createUserFailed);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  const busy = createUser.isPending;

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>Create an account. The user can sign in at once with these details.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void form.handleSubmit(handleCreate)(event)} className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <AccountIdentityFields idPrefix="add-user" control={form.control} disabled={busy} />
            <FormPasswordField control={form.control} name="password" id="add-user-password" label="Password" autoComplete="new-password" disabled={busy} />
            <FormPhoneField control={form.control} name="phoneNumber" id="add-user-phone" autoComplete="off" disabled={busy} />
            <Controller
              control={form.control}
              name="role"
              render={({ field, fieldState }) => (
                <RoleSelect id="add-user-role" value={field.value ?? 'user'} error={fieldState.error?.message} disabled={busy} onChange={field.onChange} />
              )}
            />
            <FormAmountField
              control={form.control}
              name="creditBalance"
              id="add-user-credits"
              label="Initial Credits"
              hint="Whole credits; one credit is ₹1."
              disabled={busy}
            />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => handleOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? <Spinner className="text-current" /> : <UserPlus aria-hidden="true" />}
              Create User
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
