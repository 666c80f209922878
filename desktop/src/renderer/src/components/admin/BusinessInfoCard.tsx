import { Building2, Save } from 'lucide-react';
import { useState } from 'react';
import { Controller, useWatch, type Control } from 'react-hook-form';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import type { TBusinessInfoRequest } from '@shared/schemas/providers';
import { errorText, serverFieldErrors } from '../../api/client';
import { useAdminUserDetails } from '../../hooks/useAdminUser';
import { useSaveBusinessInfo } from '../../hooks/useProviders';
import { businessInfoFormFrom, isBusinessInfoChanged, ZBusinessInfoForm, type BusinessInfoForm } from '../../lib/businessInfoForm';
import { FormPhoneField, FormTextField, useBoundInput } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { FieldError, Input } from '../ui/input';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';
import { Switch } from '../ui/switch';
import type { AdminUserView } from './AdminUserPage';
import { AdminStoppedNumbers } from './AdminStoppedNumbers';

const p = messages.providers;

type SecretField = 'accessToken' | 'webhookVerifyToken' | 'appSecret';

const secretLabels: Record<SecretField, string> = {
  accessToken: 'Access Token',
  webhookVerifyToken: 'Webhook Verify Token',
  appSecret: 'App Secret',
};

/** A write-only secret: a badge says whether one is stored; typing replaces it, empty keeps it. */
function SecretInput({
  control,
  name,
  id,
  label,
  isSet,
  disabled,
}: {
  control: Control<BusinessInfoForm, unknown, TBusinessInfoRequest>;
  name: SecretField;
  id: string;
  label: string;
  isSet: boolean;
  disabled: boolean;
}) {
  const { input, error } = useBoundInput({ control, name });
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Badge variant={isSet ? 'default' : 'secondary'} data-testid={`${id}-status`}>
          {isSet ? p.secretSet : p.secretNotSet}
        </Badge>
      </div>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        placeholder={isSet ? '••••••••••••' : ''}
        {...input}
        invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        disabled={disabled}
      />
      {error ? (
        <FieldError id={`${id}-error`} message={error} />
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {p.secretKeepHint}
        </p>
      )}
    </div>
  );
}

function secretFlags(user: AdminUserView): Record<SecretField, boolean> {
  return {
    accessToken: user.businessInfo?.accessTokenSet ?? false,
    webhookVerifyToken: user.businessInfo?.webhookVerifyTokenSet ?? false,
    appSecret: user.businessInfo?.appSecretSet ?? false,
  };
}

/**
 * Meta Cloud API set-up of one user (business info and its write-only secrets), on the Provider
 * tab beside the channel settings (provider set-up in one place).
 */
export function BusinessInfoCard({ user }: { user: AdminUserView }) {
  const details = useAdminUserDetails(user.id);
  const saveBusiness = useSaveBusinessInfo(user.id);
  const [saved, setSaved] = useState<BusinessInfoForm>(() => businessInfoFormFrom(user.businessInfo));
  const form = useSchemaForm(ZBusinessInfoForm, saved);
  const values = useWatch({ control: form.control });
  const [secretsSet, setSecretsSet] = useState(() => secretFlags(user));
  const [error, setError] = useState('');
  const busy = saveBusiness.isPending;
  const changed = isBusinessInfoChanged(saved, { ...saved, ...values });
  const configured = Boolean(details.data?.businessInfo ?? user.businessInfo);

  const handleSave = async (info: TBusinessInfoRequest) => {
    setError('');
    try {
      await saveBusiness.mutateAsync(info);
      toast.success(p.detailsSaved);
      // The form starts again from what the server now holds (spec 001: reload after a save).
      const fresh = (await details.refetch()).data;
      const next = businessInfoFormFrom(fresh?.businessInfo ?? null);
      setSaved(next);
      form.reset(next);
      if (fresh) setSecretsSet(secretFlags(fresh));
    } catch (caught) {
      const text = errorText(caught, p.updateBusinessFailed, messages.common.failedToConnect);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card className="max-w-3xl">
      <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)} aria-label="Meta Cloud API settings">
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div>
            <CardTitle className="flex items-center gap-2">
              <Building2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              Meta Cloud API
            </CardTitle>
            <CardDescription>The user's WhatsApp Business account with Meta. Secrets are write-only.</CardDescription>
          </div>
          {configured ? <Badge>{messages.admin.configured}</Badge> : <Badge variant="warning">{messages.admin.notConfigured}</Badge>}
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <AdminStoppedNumbers userId={user.id} />
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormTextField
              control={form.control}
              name="businessName"
              id="business-name"
              label="Business Name"
              autoComplete="off"
              disabled={busy}
            />
            <FormPhoneField
              control={form.control}
              name="whatsappNumber"
              id="business-whatsapp-number"
              label="WhatsApp Number"
              inputMode="tel"
              autoComplete="off"
              placeholder="+91 98765 43210"
              disabled={busy}
            />
            <FormTextField
              control={form.control}
              name="whatsappNumberId"
              id="business-number-id"
              label="Phone Number ID"
              autoComplete="off"
              spellCheck={false}
              hint="From the WhatsApp Manager (Cloud API)."
              disabled={busy}
            />
            <FormTextField
              control={form.control}
              name="wabaId"
              id="business-waba-id"
              label="WhatsApp Business Account ID"
              autoComplete="off"
              spellCheck={false}
              disabled={busy}
            />
            <FormTextField
              control={form.control}
              name="webhookUrl"
              id="business-webhook-url"
              label="Business Webhook URL"
              type="url"
              autoComplete="off"
              placeholder="https://"
              fieldClassName="sm:col-span-2"
              disabled={busy}
            />
            {(Object.keys(secretLabels) as SecretField[]).map((field) => (
              <SecretInput
                key={field}
                control={form.control}
                name={field}
                id={`business-${field}`}
                label={secretLabels[field]}
                isSet={secretsSet[field]}
                disabled={busy}
              />
            ))}
            <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4 sm:col-span-2 dark:border-slate-800">
              <div>
                <Label htmlFor="business-active">Active</Label>
                <p id="business-active-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Off: this business's numbers stop sending.
                </p>
              </div>
              <Controller
                control={form.control}
                name="isActive"
                render={({ field }) => (
                  <Switch
                    id="business-active"
                    ref={field.ref}
                    checked={field.value}
                    disabled={busy}
                    aria-describedby="business-active-hint"
                    onCheckedChange={field.onChange}
                  />
                )}
              />
            </div>
          </div>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={busy || !changed}>
            {busy ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
            Save Cloud API Settings
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
