import { Building2, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { errorText, serverFieldErrors } from '../../api/client';
import { useAdminUserDetails } from '../../hooks/useAdminUser';
import { useSaveBusinessInfo } from '../../hooks/useProviders';
import {
  businessInfoFormFrom,
  isBusinessInfoChanged,
  validateBusinessInfo,
  type BusinessInfoForm,
} from '../../lib/businessInfoForm';
import { withoutField, type FieldErrors } from '../../lib/forms';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { TextField } from '../ui/form-field';
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
  id,
  label,
  isSet,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  isSet: boolean;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
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
        value={value}
        invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
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
  const [form, setForm] = useState<BusinessInfoForm>(saved);
  const [secretsSet, setSecretsSet] = useState(() => secretFlags(user));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const busy = saveBusiness.isPending;
  const changed = isBusinessInfoChanged(saved, form);
  const configured = Boolean(details.data?.businessInfo ?? user.businessInfo);

  const handleChange = <K extends keyof BusinessInfoForm>(field: K, value: BusinessInfoForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const checked = validateBusinessInfo(form);
    if (!checked.ok) {
      setFieldErrors(checked.errors);
      return;
    }
    try {
      await saveBusiness.mutateAsync(checked.data);
      toast.success(p.detailsSaved);
      // The form starts again from what the server now holds (spec 001: reload after a save).
      const fresh = (await details.refetch()).data;
      const next = businessInfoFormFrom(fresh?.businessInfo ?? null);
      setSaved(next);
      setForm(next);
      if (fresh) setSecretsSet(secretFlags(fresh));
    } catch (caught) {
      const text = errorText(caught, p.updateBusinessFailed, messages.common.failedToConnect);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card className="max-w-3xl">
      <form noValidate onSubmit={handleSubmit} aria-label="Meta Cloud API settings">
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
            <TextField
              id="business-name"
              label="Business Name"
              autoComplete="off"
              value={form.businessName}
              error={fieldErrors.businessName}
              disabled={busy}
              onChange={(e) => handleChange('businessName', e.target.value)}
            />
            <TextField
              id="business-whatsapp-number"
              label="WhatsApp Number"
              inputMode="tel"
              autoComplete="off"
              placeholder="+91 98765 43210"
              value={form.whatsappNumber}
              error={fieldErrors.whatsappNumber}
              disabled={busy}
              onChange={(e) => handleChange('whatsappNumber', e.target.value)}
            />
            <TextField
              id="business-number-id"
              label="Phone Number ID"
              autoComplete="off"
              spellCheck={false}
              value={form.whatsappNumberId}
              error={fieldErrors.whatsappNumberId}
              hint="From the WhatsApp Manager (Cloud API)."
              disabled={busy}
              onChange={(e) => handleChange('whatsappNumberId', e.target.value)}
            />
            <TextField
              id="business-waba-id"
              label="WhatsApp Business Account ID"
              autoComplete="off"
              spellCheck={false}
              value={form.wabaId}
              error={fieldErrors.wabaId}
              disabled={busy}
              onChange={(e) => handleChange('wabaId', e.target.value)}
            />
            <TextField
              id="business-webhook-url"
              label="Business Webhook URL"
              type="url"
              autoComplete="off"
              placeholder="https://"
              fieldClassName="sm:col-span-2"
              value={form.webhookUrl}
              error={fieldErrors.webhookUrl}
              disabled={busy}
              onChange={(e) => handleChange('webhookUrl', e.target.value)}
            />
            {(Object.keys(secretLabels) as SecretField[]).map((field) => (
              <SecretInput
                key={field}
                id={`business-${field}`}
                label={secretLabels[field]}
                isSet={secretsSet[field]}
                value={form[field]}
                error={fieldErrors[field]}
                disabled={busy}
                onChange={(value) => handleChange(field, value)}
              />
            ))}
            <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4 sm:col-span-2 dark:border-slate-800">
              <div>
                <Label htmlFor="business-active">Active</Label>
                <p id="business-active-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Off: this business's numbers stop sending.
                </p>
              </div>
              <Switch
                id="business-active"
                checked={form.isActive}
                disabled={busy}
                aria-describedby="business-active-hint"
                onCheckedChange={(checked) => handleChange('isActive', checked)}
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
