import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { ZDeleteAccountRequest, type TDeleteAccountRequest } from '@shared/schemas/team';
import { teamApi } from '../../api/team';
import { errorText, serverFieldErrors } from '../../api/client';
import { useSessionStore } from '../../stores/sessionStore';
import { FormPasswordField } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

const t = messages.team;
const empty = { currentPassword: '' };

/**
 * Team > danger zone: the owner deletes the account after typing their password in a confirm
 * dialog. The server refuses while the wallet holds money or campaigns are in flight; on success
 * every session in the account has ended, this one included.
 */
export function DeleteAccountCard() {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useSchemaForm(ZDeleteAccountRequest, empty);

  const handleOpenChange = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    setError('');
    form.reset(empty);
  };

  const handleDelete = async (request: TDeleteAccountRequest) => {
    setError('');
    setBusy(true);
    try {
      const answer = await teamApi.deleteAccount(request);
      toast.success(answer.message);
      setOpen(false);
      useSessionStore.getState().clearSession();
    } catch (caught) {
      const text = errorText(caught, messages.common.unknownError, messages.common.failedToConnect);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="border-red-200 dark:border-red-900">
      <CardHeader>
        <CardTitle className="text-red-700 dark:text-red-300">{t.deleteAccountTitle}</CardTitle>
        <CardDescription>{t.deleteAccountBody}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" variant="destructive" onClick={() => handleOpenChange(true)}>
          <Trash2 aria-hidden="true" />
          {t.deleteAccountButton}
        </Button>
        <Dialog open={open} onOpenChange={handleOpenChange}>
          <DialogContent>
            <form noValidate aria-label={t.deleteAccountTitle} onSubmit={(event) => void form.handleSubmit(handleDelete)(event)} className="grid gap-4">
              <DialogHeader>
                <DialogTitle>{t.deleteAccountConfirmTitle}</DialogTitle>
                <DialogDescription>{t.deleteAccountBody}</DialogDescription>
              </DialogHeader>
              {error ? <Alert tone="error">{error}</Alert> : null}
              <FormPasswordField
                control={form.control}
                name="currentPassword"
                id="delete-account-password"
                label={t.deleteAccountPasswordLabel}
                autoComplete="current-password"
                disabled={busy}
              />
              <DialogFooter>
                <Button type="button" variant="outline" disabled={busy} onClick={() => handleOpenChange(false)}>
                  {t.deleteAccountCancel}
                </Button>
                <Button type="submit" variant="destructive" disabled={busy}>
                  {busy ? <Spinner className="text-current" /> : null}
                  {t.deleteAccountConfirmButton}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
