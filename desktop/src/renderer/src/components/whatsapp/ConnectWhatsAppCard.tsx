import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Circle, Loader2, MessageCircle, XCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { roleCan } from '@shared/teamRoles';
import { ZConnectPinForm, type TConnectionStepState, type TWhatsappConnection } from '@shared/schemas/whatsappConnections';
import { errorText } from '../../api/client';
import { whatsappConnectionKeys, whatsappConnectionsApi } from '../../api/whatsappConnections';
import { runEmbeddedSignup, type SignupResult } from '../../lib/embeddedSignup';
import { platform } from '../../platform';
import { useSessionStore } from '../../stores/sessionStore';
import { FormCodeField } from '../form/fields';
import { useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';

const t = messages.whatsappConnect;
const PIN_LENGTH = 6;

/** What the PIN form is for: a new signup's result, or a stopped connection resumed with another PIN or a new code. */
type PinTarget = { kind: 'start'; signup: SignupResult } | { kind: 'resume'; connection: TWhatsappConnection; code?: string };

function StepIcon({ state }: { state: TConnectionStepState }) {
  if (state === 'done') return <CheckCircle2 className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />;
  if (state === 'failed') return <XCircle className="size-4 text-red-600 dark:text-red-400" aria-hidden="true" />;
  if (state === 'running') return <Loader2 className="size-4 animate-spin text-sky-600 dark:text-sky-400" aria-hidden="true" />;
  return <Circle className="size-4 text-slate-400" aria-hidden="true" />;
}

function PinForm({ busy, onSubmit, onCancel }: { busy: boolean; onSubmit: (pin: string) => void; onCancel: () => void }) {
  const form = useSchemaForm(ZConnectPinForm, { pin: '' });
  return (
    <form noValidate className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700" onSubmit={(event) => void form.handleSubmit((values) => onSubmit(values.pin))(event)}>
      <p className="font-medium text-slate-900 dark:text-white">{t.pinTitle}</p>
      <FormCodeField
        control={form.control}
        name="pin"
        id="connect-pin"
        label={t.pinLabel}
        hint={t.pinHelp}
        length={PIN_LENGTH}
        autoFocus
        autoComplete="off"
        className="font-mono tracking-[0.4em]"
        disabled={busy}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy} data-testid="connect-pin-submit">
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {t.continue}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}

function ConnectionItem({ connection, busy, onResume, onRemove }: { connection: TWhatsappConnection; busy: boolean; onResume: () => void; onRemove: () => void }) {
  const tone = connection.status === 'connected' ? 'default' : connection.status === 'failed' ? 'destructive' : connection.status === 'in_progress' ? 'info' : 'secondary';
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700" data-testid="whatsapp-connection">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium text-slate-900 dark:text-white">{connection.display_phone_number ?? connection.phone_number_id}</p>
          {connection.verified_name ? <p className="text-sm text-slate-600 dark:text-slate-300">{connection.verified_name}</p> : null}
        </div>
        <Badge variant={tone} data-testid="whatsapp-connection-status">
          {t.statuses[connection.status]}
        </Badge>
      </div>
      {connection.status === 'connected' ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {[
            connection.quality_rating ? fillMessage(t.quality, { quality: connection.quality_rating }) : null,
            connection.messaging_limit_tier ? fillMessage(t.limit, { tier: connection.messaging_limit_tier }) : null,
            connection.templates_imported !== null ? fillMessage(t.templatesImported, { count: connection.templates_imported }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      ) : (
        <ol className="flex flex-col gap-1.5" aria-label={t.title}>
          {connection.steps.map(({ step, state }) => (
            <li key={step} className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200" data-testid={`connect-step-${step}`} data-state={state}>
              <StepIcon state={state} />
              <span>{t.steps[step]}</span>
              <span className="sr-only">: {t.stepStates[state]}</span>
            </li>
          ))}
        </ol>
      )}
      {connection.error && connection.status === 'failed' ? (
        <Alert tone="error" data-testid="whatsapp-connection-error">
          {connection.error.message}
        </Alert>
      ) : null}
      <div className="flex gap-2">
        {connection.status === 'failed' ? (
          <Button size="sm" onClick={onResume} disabled={busy}>
            {t.resume}
          </Button>
        ) : null}
        {connection.status !== 'in_progress' ? (
          <Button size="sm" variant="outline" onClick={onRemove} disabled={busy}>
            {connection.status === 'connected' ? t.disconnect : t.remove}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * Connect WhatsApp yourself: runs Meta's Embedded Signup (or the simulator's in the sandbox), asks
 * for the registration PIN, and shows each step's progress, errors, resume and remove.
 */
/** The card, for those whose role may connect numbers (the account's owner); nothing for others. */
export function ConnectWhatsAppCard() {
  const accountRole = useSessionStore((state) => state.user?.account?.role);
  if (accountRole && !roleCan(accountRole, 'numbers')) return null;
  return <ConnectWhatsAppPanel />;
}

function ConnectWhatsAppPanel() {
  const queryClient = useQueryClient();
  const setup = useQuery({ queryKey: whatsappConnectionKeys.setup(), queryFn: () => whatsappConnectionsApi.setup(), staleTime: Infinity });
  const [pinTarget, setPinTarget] = useState<PinTarget | null>(null);
  const [launching, setLaunching] = useState(false);
  const [removing, setRemoving] = useState<TWhatsappConnection | null>(null);

  const run = useMutation({
    mutationFn: (input: { target: PinTarget; pin: string | undefined }) =>
      input.target.kind === 'start'
        ? whatsappConnectionsApi.start({ ...input.target.signup, pin: input.pin ?? '' })
        : whatsappConnectionsApi.resume(input.target.connection.id, { ...(input.pin ? { pin: input.pin } : {}), ...(input.target.code ? { code: input.target.code } : {}) }),
    onSuccess: (answer) => {
      setPinTarget(null);
      toast.success(answer.message);
    },
    onError: (error) => {
      setPinTarget(null);
      toast.error(errorText(error, messages.common.unknownError));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappConnectionKeys.list() }),
  });
  const connections = useQuery({
    queryKey: whatsappConnectionKeys.list(),
    queryFn: () => whatsappConnectionsApi.list(),
    // While a run is under way its steps move on the server: follow them.
    refetchInterval: run.isPending ? 1_000 : false,
  });
  const remove = useMutation({
    mutationFn: (id: number) => whatsappConnectionsApi.remove(id),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
    onSettled: () => {
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: whatsappConnectionKeys.list() });
    },
  });

  const config = setup.data?.setup;
  if (!config) return null;

  const launch = async (): Promise<SignupResult | null> => {
    setLaunching(true);
    try {
      return await runEmbeddedSignup(config, await platform.serverUrl());
    } catch (error) {
      toast.error(error instanceof Error ? error.message : messages.common.unknownError);
      return null;
    } finally {
      setLaunching(false);
    }
  };

  const handleConnect = async () => {
    const signup = await launch();
    if (signup) setPinTarget({ kind: 'start', signup });
  };

  const handleResume = async (connection: TWhatsappConnection) => {
    if (connection.needs_code) {
      // Meta's code is used once: a new popup gives a new one for the same number.
      const signup = await launch();
      if (signup) run.mutate({ target: { kind: 'resume', connection, code: signup.code }, pin: undefined });
      return;
    }
    if (connection.step === 'register') setPinTarget({ kind: 'resume', connection });
    else run.mutate({ target: { kind: 'resume', connection }, pin: undefined });
  };

  const list = connections.data?.connections ?? [];
  const busy = launching || run.isPending || remove.isPending;
  return (
    <Card data-testid="connect-whatsapp-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessageCircle className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          {t.title}
        </CardTitle>
        <CardDescription>{config.enabled ? t.intro : t.disabled}</CardDescription>
      </CardHeader>
      {config.enabled ? (
        <CardContent className="flex flex-col gap-4">
          {config.sandbox ? <Alert tone="info">{t.sandboxNote}</Alert> : null}
          {list.length > 0 ? (
            <ul className="flex flex-col gap-3">
              {list.map((connection) => (
                <ConnectionItem
                  key={connection.id}
                  connection={connection}
                  busy={busy}
                  onResume={() => void handleResume(connection)}
                  onRemove={() => setRemoving(connection)}
                />
              ))}
            </ul>
          ) : null}
          {pinTarget ? (
            <PinForm busy={run.isPending} onSubmit={(pin) => run.mutate({ target: pinTarget, pin })} onCancel={() => setPinTarget(null)} />
          ) : (
            <div>
              <Button onClick={() => void handleConnect()} disabled={busy} data-testid="connect-whatsapp-start">
                {launching ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                {list.some((c) => c.status === 'connected') ? t.connectAnother : t.start}
              </Button>
            </div>
          )}
        </CardContent>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.status === 'connected' ? t.disconnect : t.remove}
        description={t.removeConfirm}
        confirmLabel={removing?.status === 'connected' ? t.disconnect : t.remove}
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id)}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
