import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { z } from 'zod';
import { ZChangePasswordRequest } from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText, serverFieldErrors } from '../../api/client';
import { FormPasswordField } from '../form/fields';
import { copyIssues, showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { Spinner } from '../ui/spinner';

const a = messages.auth;
const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The server's rule plus the confirmation only the form asks for. Both are checked on every
 * submit, so an empty form shows a message under each field.
 */
const ZChangePasswordForm = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .transform((form, context) => {
    const request = ZChangePasswordRequest.safeParse({ currentPassword: form.currentPassword, newPassword: form.newPassword });
    if (!request.success) copyIssues(request.error, context);
    const confirmError = !form.confirmPassword
      ? messages.validation.confirmPasswordRequired
      : form.confirmPassword !== form.newPassword
        ? messages.validation.passwordsDoNotMatch
        : undefined;
    if (confirmError) context.addIssue({ code: 'custom', path: ['confirmPassword'], message: confirmError });
    return request.success && !confirmError ? request.data : z.NEVER;
  });

/**
 * Profile > Security: the user changes their own password with the current one. The
 * server applies the signup rules, keeps this session and ends the others.
 */
export function ChangePasswordCard() {
  const form = useSchemaForm(ZChangePasswordForm, empty);
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  const handleChangePassword = async (request: z.output<typeof ZChangePasswordRequest>) => {
    setError('');
    setIsSaving(true);
    try {
      const response = await authApi.changePassword(request);
      form.reset(empty);
      toast.success(response.message || a.passwordChanged);
    } catch (caught) {
      const text = errorText(caught, a.changePasswordFailed, messages.common.failedToConnect);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={(event) => void form.handleSubmit(handleChangePassword)(event)} aria-label="Change password">
        <CardHeader>
          <CardTitle>Change Password</CardTitle>
          <CardDescription>Your current password is needed. Other devices signed in to this account are signed out; this one stays.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <FormPasswordField
            control={form.control}
            name="currentPassword"
            id="profile-current-password"
            label="Current Password"
            autoComplete="current-password"
            disabled={isSaving}
          />
          <FormPasswordField
            control={form.control}
            name="newPassword"
            id="profile-new-password"
            label="New Password"
            autoComplete="new-password"
            hint="At least 6 characters."
            disabled={isSaving}
          />
          <FormPasswordField
            control={form.control}
            name="confirmPassword"
            id="profile-confirm-password"
            label="Confirm New Password"
            autoComplete="new-password"
            disabled={isSaving}
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
