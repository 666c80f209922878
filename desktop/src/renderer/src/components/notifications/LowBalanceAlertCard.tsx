import { BellRing } from 'lucide-react';
import { z } from 'zod';
import { messages } from '@shared/messages';
import { ZLowBalanceThresholdRequest, type TLowBalanceThresholdRequest } from '@shared/schemas/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../api/client';
import { notificationKeys, notificationsApi } from '../../api/notifications';
import { FormAmountField } from '../form/fields';
import { textReadInto, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

const text = messages.notifications;

/** Wallet page: the balance below which the user is told, at most once a day (default ₹100). */
export function LowBalanceAlertCard() {
  const current = useQuery({ queryKey: notificationKeys.lowBalance, queryFn: notificationsApi.lowBalance, refetchOnWindowFocus: false });
  // The form starts from the saved threshold, so it mounts once that is known.
  return current.data ? <LowBalanceAlertForm saved={current.data.thresholdRupees} /> : null;
}

/** The threshold as typed; an empty field is no number, so the schema's message shows. */
const ZLowBalanceForm = z.object({
  thresholdRupees: textReadInto(ZLowBalanceThresholdRequest.shape.thresholdRupees, (typed) => (typed.trim() === '' ? Number.NaN : Number(typed))),
});

function LowBalanceAlertForm({ saved }: { saved: number }) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(ZLowBalanceForm, { thresholdRupees: String(saved) });
  const save = useMutation({
    mutationFn: (rupees: number) => notificationsApi.setLowBalance(rupees),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.lowBalance });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });

  const handleSave = ({ thresholdRupees }: TLowBalanceThresholdRequest) => save.mutate(thresholdRupees);

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
        <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void form.handleSubmit(handleSave)(event)} noValidate>
          <FormAmountField control={form.control} name="thresholdRupees" label="₹" paise autoComplete={undefined} fieldClassName="w-40" />
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
