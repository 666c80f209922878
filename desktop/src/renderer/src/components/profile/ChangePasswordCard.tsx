import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { ZChangePasswordRequest } from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText, serverFieldErrors } from '../../api/client';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { PasswordField } from '../ui/form-field';
import { Spinner } from '../ui/spinner';

const a = messages.auth;
const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };
type Field = keyof typeof empty;

/**
 * Profile > Security: the user changes their own password with the current one. The
 * server applies the signup rules, keeps this session and ends the others.
 */
export function ChangePasswordCard() {
  const [form, setForm] = useState(empty);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  const handleChange = (field: Field) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const validation = validateForm(ZChangePasswordRequest, { currentPassword: form.currentPassword, newPassword: form.newPassword });
    const confirmError = !form.confirmPassword
      ? messages.validation.confirmPasswordRequired
      : form.confirmPassword !== form.newPassword
        ? messages.validation.passwordsDoNotMatch
        : undefined;
    if (!validation.ok || confirmError) {
      setFieldErrors({ ...(validation.ok ? {} : validation.errors), ...(confirmError ? { confirmPassword: confirmError } : {}) });
      return;
    }
    setIsSaving(true);
    try {
      const response = await authApi.changePassword(validation.data);
      setForm(empty);
      setFieldErrors({});
      toast.success(response.message || a.passwordChanged);
    } catch (caught) {
      const text = errorText(caught, a.changePasswordFailed, messages.common.failedToConnect);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={handleSubmit} aria-label="Change password">
        <CardHeader>
          <CardTitle>Change Password</CardTitle>
          <CardDescription>Your current password is needed. Other devices signed in to this account are signed out; this one stays.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <PasswordField
            id="profile-current-password"
            label="Current Password"
            autoComplete="current-password"
            value={form.currentPassword}
            error={fieldErrors.currentPassword}
            disabled={isSaving}
            onChange={(e) => handleChange('currentPassword')(e.target.value)}
          />
          <PasswordField
            id="profile-new-password"
            label="New Password"
            autoComplete="new-password"
            value={form.newPassword}
            error={fieldErrors.newPassword}
            hint="At least 6 characters."
            disabled={isSaving}
            onChange={(e) => handleChange('newPassword')(e.target.value)}
          />
          <PasswordField
            id="profile-confirm-password"
            label="Confirm New Password"
            autoComplete="new-password"
            value={form.confirmPassword}
            error={fieldErrors.confirmPassword}
            disabled={isSaving}
            onChange={(e) => handleChange('confirmPassword')(e.target.value)}
          />
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={isSaving}>
            {isSaving ? <Spinner className="text-current" /> : <KeyRound aria-hidden="true" />}
            Change Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
