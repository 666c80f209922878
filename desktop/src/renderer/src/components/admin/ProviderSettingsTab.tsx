import { Check, Copy, Eye, EyeOff, KeyRound, RefreshCw, RotateCcw, Save } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { PROVIDERS } from '@shared/constants';
import { messages } from '@shared/messages';
import type { TProviderSettings } from '@shared/types';
import { serverFieldErrors } from '../../api/client';
import { formatDateTime } from '../../lib/dates';
import { formatPhoneForDisplay } from '../../lib/format';
import {
  canSaveProvider,
  defaultProviderSettings,
  providerFormFrom,
  providerLoadFailure,
  providerSaveFailure,
  ZProviderSettingsForm,
  type ProviderSettingsForm,
} from '../../lib/providerSettingsForm';
import { cn } from '../../lib/cn';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button, focusRing } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { FormTextField, useBoundInput } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { FieldShell } from '../ui/form-field';
import { Input } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { useProviderSettings, useSaveProviderSettings } from '../../hooks/useProviders';

const p = messages.providers;
const API_KEY_HINT = `Leave empty to keep the stored key; a new one replaces it (${PROVIDERS.apiKeyMin} to ${PROVIDERS.apiKeyMax} characters). Hold the eye to see what you typed.`;

/**
 * Shows the typed key only while the button is held, and only after PROVIDERS.revealHoldMs
 * (spec 001): a glance over the shoulder during a click reveals nothing. Space or Enter held
 * down does the same from the keyboard.
 */
function HoldToRevealButton({
  controls,
  revealed,
  onRevealChange,
  disabled,
}: {
  controls: string;
  revealed: boolean;
  onRevealChange: (revealed: boolean) => void;
  disabled: boolean;
}) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const start = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onRevealChange(true), PROVIDERS.revealHoldMs);
  };
  const stop = () => {
    clearTimeout(timer.current);
    onRevealChange(false);
  };
  const isHoldKey = (key: string) => key === ' ' || key === 'Enter';

  return (
    <button
      type="button"
      disabled={disabled}
      aria-controls={controls}
      aria-pressed={revealed}
      title="Hold to reveal"
      onPointerDown={(event) => {
        if (event.button === 0) start();
      }}
      onPointerUp={stop}
      onPointerLeave={stop}
      onPointerCancel={stop}
      onKeyDown={(event) => {
        if (!isHoldKey(event.key)) return;
        event.preventDefault();
        if (!event.repeat) start();
      }}
      onKeyUp={(event) => {
        if (isHoldKey(event.key)) stop();
      }}
      onBlur={stop}
      onContextMenu={(event) => event.preventDefault()}
      className={cn(
        'absolute inset-y-0 right-0 flex w-10 touch-none select-none items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 disabled:opacity-50 dark:text-slate-400 dark:hover:text-white',
        focusRing,
      )}
    >
      {revealed ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
      <span className="sr-only">Hold to reveal API key</span>
    </button>
  );
}

/** The read-only webhook URL with a copy button; "Copied" stays PROVIDERS.copiedIndicatorMs. */
function WebhookUrlField({ url }: { url: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      toast.error(p.copyFailed);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), PROVIDERS.copiedIndicatorMs);
  };

  return (
    <FieldShell id={id} label="Webhook URL" hint={p.d360WebhookNote}>
      <div className="flex gap-2">
        <Input id={id} value={url} placeholder="—" readOnly className="font-mono text-xs" aria-describedby={`${id}-hint`} />
        <Button variant="outline" onClick={() => void handleCopy()} disabled={!url} className="w-28">
          {copied ? <Check aria-hidden="true" className="text-emerald-600 dark:text-emerald-400" /> : <Copy aria-hidden="true" />}
          {copied ? p.copied : 'Copy'}
          <span className="sr-only"> webhook URL</span>
        </Button>
      </div>
      <span role="status" className="sr-only">
        {copied ? p.copied : ''}
      </span>
    </FieldShell>
  );
}

function ReadOnlyItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

function ProviderSettingsFormCard({
  userId,
  settings,
  loadWarning,
}: {
  userId: number;
  settings: TProviderSettings;
  loadWarning: ReactNode;
}) {
  const save = useSaveProviderSettings(userId);
  const [saved, setSaved] = useState<ProviderSettingsForm>(() => providerFormFrom(settings));
  // Spec 001 checks each field as it is typed, once it has been edited.
  const form = useSchemaForm(ZProviderSettingsForm, saved, { checkWhileTyping: true });
  const { control } = form;
  const [revealed, setRevealed] = useState(false);
  const busy = save.isPending;
  const values = form.watch();
  const apiKey = useBoundInput({ control, name: 'apiKey' });
  const changed = saved.channelId !== values.channelId || values.apiKey !== '';
  const whatsappNumber =
    settings.whatsappNumber === p.whatsappNumberDefault ? settings.whatsappNumber : (formatPhoneForDisplay(settings.whatsappNumber) ?? settings.whatsappNumber);

  const handleReset = () => {
    form.reset(saved);
    setRevealed(false);
  };

  const handleSubmit = form.handleSubmit(async (payload) => {
    try {
      const response = await save.mutateAsync(payload);
      const next = providerFormFrom({ channelId: response.channelId });
      setSaved(next);
      form.reset(next);
      setRevealed(false);
      // Saved either way; the webhook registration at 360dialog is reported beside it.
      if (response.webhook && !response.webhook.registered) toast.warning(response.message || p.settingsSaved, { description: response.webhook.error ?? undefined });
      else toast.success(response.message || p.settingsSaved, response.webhook?.registered ? { description: p.d360WebhookRegistered } : undefined);
    } catch (caught) {
      const failure = providerSaveFailure(caught);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(failure.title, { description: failure.description });
    }
  });

  return (
    <Card className="max-w-3xl">
      <form noValidate onSubmit={(event) => void handleSubmit(event)} aria-label="Channel provider settings">
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div>
            <CardTitle>Channel Provider</CardTitle>
            <CardDescription>{p.channelProviderDescription}</CardDescription>
          </div>
          {settings.apiKeySet ? (
            <Badge data-testid="api-key-badge">
              <KeyRound className="size-3" aria-hidden="true" />
              {p.apiKeySet}
            </Badge>
          ) : (
            <Badge variant="secondary" data-testid="api-key-badge">
              {p.apiKeyNotSet}
            </Badge>
          )}
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {loadWarning}
          <dl className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-4 dark:border-slate-800">
            <ReadOnlyItem label="Business name">{settings.businessName}</ReadOnlyItem>
            <ReadOnlyItem label="WhatsApp number">{whatsappNumber}</ReadOnlyItem>
            <ReadOnlyItem label="Provider">{p.channelProviderName}</ReadOnlyItem>
            <ReadOnlyItem label="Last updated">{settings.updatedAt ? formatDateTime(settings.updatedAt) : '—'}</ReadOnlyItem>
          </dl>
          <FormTextField
            control={control}
            name="channelId"
            id="provider-channel-id"
            label="Channel ID"
            autoComplete="off"
            spellCheck={false}
            hint={`${PROVIDERS.channelIdMin} to ${PROVIDERS.channelIdMax} letters, numbers, dots, underscores or hyphens.`}
            disabled={busy}
          />
          <FieldShell id="provider-api-key" label="API Key" error={apiKey.error} hint={`${settings.apiKeySet ? 'A key is stored and never shown. ' : ''}${API_KEY_HINT}`}>
            <div className="relative">
              <Input
                {...apiKey.input}
                id="provider-api-key"
                type={revealed ? 'text' : 'password'}
                autoComplete="new-password"
                spellCheck={false}
                placeholder={settings.apiKeySet ? '••••••••••••' : ''}
                invalid={Boolean(apiKey.error)}
                aria-describedby={apiKey.error ? 'provider-api-key-error' : 'provider-api-key-hint'}
                className="pr-10"
                disabled={busy}
              />
              <HoldToRevealButton controls="provider-api-key" revealed={revealed} onRevealChange={setRevealed} disabled={busy || values.apiKey === ''} />
            </div>
          </FieldShell>
          <WebhookUrlField url={settings.webhookUrl} />
        </CardContent>
        <CardFooter className="justify-end">
          <Button variant="outline" onClick={handleReset} disabled={busy || !changed}>
            <RotateCcw aria-hidden="true" />
            Reset
          </Button>
          <Button type="submit" disabled={!canSaveProvider(saved, values, busy)}>
            {busy ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
            Save Settings
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

/**
 * User Settings, WhatsApp Business tab (spec 001): channel id and write-only API key, the
 * read-only webhook URL. A failed load still offers the form, on defaults, with a warning.
 */
export function ProviderSettingsTab({ userId }: { userId: number }) {
  const query = useProviderSettings(userId);

  if (query.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner className="size-6" label={messages.common.loading} />
      </div>
    );
  }

  const warning = query.isError ? (
    <Alert tone="warning">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="font-medium">{providerLoadFailure(query.error)}</p>
          <p>{p.loadWarning}</p>
        </div>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
          <RefreshCw className={query.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          Retry
        </Button>
      </div>
    </Alert>
  ) : null;

  // A new key once data arrives after a failed load, so the form starts from the real values.
  return (
    <ProviderSettingsFormCard
      key={query.data ? 'loaded' : 'defaults'}
      userId={userId}
      settings={query.data ?? defaultProviderSettings(userId)}
      loadWarning={warning}
    />
  );
}
