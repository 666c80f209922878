import { BellRing } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { messages } from '@shared/messages';
import { ZLowBalanceThresholdRequest } from '@shared/schemas/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../api/client';
import { notificationKeys, notificationsApi } from '../../api/notifications';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell } from '../ui/form-field';
import { Input } from '../ui/input';

const text = messages.notifications;

/** Wallet page: the balance below which the user is told, at most once a day (default ₹100). */
export function LowBalanceAlertCard() {
  const current = useQuery({ queryKey: notificationKeys.lowBalance, queryFn: notificationsApi.lowBalance, refetchOnWindowFocus: false });
  // The form starts from the saved threshold, so it mounts once that is known.
  return current.data ? <LowBalanceAlertForm saved={current.data.thresholdRupees} /> : null;
}

function LowBalanceAlertForm({ saved }: { saved: number }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(saved));
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (rupees: number) => notificationsApi.setLowBalance(rupees),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.lowBalance });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZLowBalanceThresholdRequest.safeParse({ thresholdRupees: value.trim() === '' ? Number.NaN : Number(value) });
    if (!parsed.success) {
      setError(text.lowBalanceInvalid);
      return;
    }
    setError(undefined);
    save.mutate(parsed.data.thresholdRupees);
  };

  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <BellRing className="size-4 text-slate-500 dark:text-slate-400" aria-hidden="true" />
          <CardTitle className="text-base">{text.lowBalanceSetting}</CardTitle>
        </div>
        <CardDescription>{text.lowBalanceSettingHint}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-wrap items-end gap-3" onSubmit={handleSubmit} noValidate>
          <FieldShell id={id} label="₹" error={error} className="w-40">
            <Input id={id} inputMode="decimal" value={value} invalid={Boolean(error)} onChange={(event) => setValue(event.target.value)} />
          </FieldShell>
          <Button type="submit" disabled={save.isPending}>
            {text.save}
          </Button>
        </form>
        {save.isSuccess ? <Alert tone="success" className="mt-3">{text.lowBalanceSaved}</Alert> : null}
        {save.error ? <Alert tone="error" className="mt-3">{errorText(save.error, text.lowBalanceInvalid)}</Alert> : null}
      </CardContent>
    </Card>
  );
}
