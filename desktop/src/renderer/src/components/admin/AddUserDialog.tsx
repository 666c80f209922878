import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PHONE_EXAMPLE, USERS, type Role } from '@shared/constants';
import { messages } from '@shared/messages';
import { ZCreateUserRequest } from '@shared/schemas/admin';
import { errorText, serverFieldErrors } from '../../api/client';
import { parseCreditInput } from '../../lib/adminUsers';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { PasswordField, TextField } from '../ui/form-field';
import { Spinner } from '../ui/spinner';
import { AccountIdentityFields } from './AccountIdentityFields';
import { RoleSelect } from './RoleSelect';
import { useCreateUser } from '../../hooks/useAdminData';

interface AddUserForm {
  name: string;
  email: string;
  username: string;
  password: string;
  phoneNumber: string;
  role: Role;
  creditBalance: string;
}

const emptyForm: AddUserForm = {
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
  const [form, setForm] = useState<AddUserForm>(emptyForm);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      setForm(emptyForm);
      setFieldErrors({});
      setError('');
      createUser.reset();
    }
    onOpenChange(next);
  };

  const handleChange = (field: keyof AddUserForm) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const payload = {
      name: form.name,
      email: form.email,
      username: form.username,
      password: form.password,
      phoneNumber: form.phoneNumber,
      role: form.role,
      creditBalance: parseCreditInput(form.creditBalance),
    };
    const validation = validateForm(ZCreateUserRequest, payload);
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    try {
      await createUser.mutateAsync(validation.data);
      toast.success(messages.admin.userCreated);
      handleOpenChange(false);
    } catch (caught) {
      const text = errorText(caught, messages.admin.createUserFailed);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
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
        <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <AccountIdentityFields
              idPrefix="add-user"
              values={form}
              errors={fieldErrors}
              disabled={busy}
              onChange={(field, value) => handleChange(field)(value)}
            />
            <PasswordField
              id="add-user-password"
              label="Password"
              autoComplete="new-password"
              value={form.password}
              error={fieldErrors.password}
              disabled={busy}
              onChange={(e) => handleChange('password')(e.target.value)}
            />
            <TextField
              id="add-user-phone"
              label="Phone Number"
              inputMode="numeric"
              placeholder={PHONE_EXAMPLE}
              value={form.phoneNumber}
              error={fieldErrors.phoneNumber}
              disabled={busy}
              onChange={(e) => handleChange('phoneNumber')(e.target.value)}
            />
            <RoleSelect
              id="add-user-role"
              value={form.role}
              error={fieldErrors.role}
              disabled={busy}
              onChange={(role) => handleChange('role')(role)}
            />
            <TextField
              id="add-user-credits"
              label="Initial Credits"
              inputMode="numeric"
              value={form.creditBalance}
              error={fieldErrors.creditBalance}
              hint="Whole credits; one credit is ₹1."
              disabled={busy}
              onChange={(e) => handleChange('creditBalance')(e.target.value)}
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
