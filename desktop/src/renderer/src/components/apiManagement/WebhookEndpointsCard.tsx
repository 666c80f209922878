import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, RefreshCw, RotateCcw, Send, Trash2, Webhook } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import {
  WEBHOOK_EVENT_TYPES,
  ZCreateWebhookEndpointRequest,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type TWebhookEndpointCreated,
  type TCreateWebhookEndpointRequest,
} from '@shared/schemas/webhookEndpoints';
import { errorText, serverFieldErrors } from '../../api/client';
import { webhookEndpointsApi, webhookQueryKeys } from '../../api/webhookEndpoints';
import { formatDateTime } from '../../lib/dates';
import { FormTextField } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Input } from '../ui/input';
import { SimpleTable } from '../ui/simple-table';
import { Spinner } from '../ui/spinner';
import { CopyButton } from './CopyButton';

const w = messages.integrations;

/** The description field is text; left empty it is not sent. */
const ZWebhookEndpointForm = ZCreateWebhookEndpointRequest.extend({
  description: z
    .string()
    .transform((description) => description || undefined)
    .pipe(ZCreateWebhookEndpointRequest.shape.description),
});

const emptyEndpoint: z.input<typeof ZWebhookEndpointForm> = {
  url: '',
  description: '',
  events: ['message.delivered', 'message.failed'],
  batch: false,
};

/** The secret, shown once: after creation or rotation the server never answers it again. */
function SecretDialog({ shown, onClose }: { shown: TWebhookEndpointCreated | null; onClose: () => void }) {
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Signing secret</DialogTitle>
          <DialogDescription>{w.webhookSecretShownOnce}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <div className="flex items-center gap-2">
            <Input readOnly value={shown.secret} aria-label="Signing secret" data-testid="webhook-secret" className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
            <CopyButton text={shown.secret} label="signing secret" />
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function deliveryBadge(delivery: TWebhookDelivery) {
  if (delivery.state === 'succeeded') return <Badge>Succeeded</Badge>;
  if (delivery.state === 'failed') return <Badge variant="destructive">Failed</Badge>;
  return delivery.attempts > 0 ? <Badge variant="warning">Retrying</Badge> : <Badge variant="secondary">Pending</Badge>;
}

function Deliveries({ endpoint }: { endpoint: TWebhookEndpoint }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: webhookQueryKeys.deliveries(endpoint.id),
    queryFn: () => webhookEndpointsApi.deliveries(endpoint.id),
    // Pending deliveries change by themselves: look again while any is pending.
    refetchInterval: (query) => (query.state.data?.some((d) => d.state === 'pending') ? 1000 : false),
  });
  const retry = useMutation({
    mutationFn: (deliveryId: number) => webhookEndpointsApi.retry(endpoint.id, deliveryId),
    onSuccess: () => toast.success(w.webhookRetryQueued),
    onError: (error) => toast.error(errorText(error, w.webhookRetryFailed)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: webhookQueryKeys.deliveries(endpoint.id) });
      void queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints });
    },
  });
  if (deliveries.isPending) return <Spinner label="Loading deliveries" />;
  if (deliveries.isError) return <Alert tone="error">{errorText(deliveries.error, w.webhookDeliveriesFailed)}</Alert>;
  if (deliveries.data.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">{w.webhookNoDeliveries}</p>;
  return (
    <SimpleTable
      label={`Deliveries to ${endpoint.url}`}
      head={['Event', 'Time', 'Status', 'HTTP', 'Latency', 'Next retry', '']}
      rows={deliveries.data.map((delivery) => [
        <span key="event" className="font-mono text-xs" data-testid="webhook-delivery-event">
          {delivery.event}
          {delivery.event_count > 1 ? ` ×${formatIndianNumber(delivery.event_count)}` : ''}
        </span>,
        formatDateTime(delivery.last_attempt_at ?? delivery.created_at),
        <span key="state" data-testid="webhook-delivery-state">
          {deliveryBadge(delivery)}
        </span>,
        delivery.http_status ?? (delivery.error ? <span title={delivery.error}>Error</span> : '—'),
        delivery.latency_ms === null ? '—' : `${formatIndianNumber(delivery.latency_ms)} ms`,
        formatDateTime(delivery.next_retry_at),
        delivery.state === 'succeeded' ? null : (
          <Button key="retry" size="sm" variant="outline" onClick={() => retry.mutate(delivery.id)} disabled={retry.isPending}>
            <RotateCcw aria-hidden="true" />
            Retry
            <span className="sr-only"> delivery {delivery.id}</span>
          </Button>
        ),
      ])}
    />
  );
}

function EndpointRow({ endpoint, onSecret, onDelete }: { endpoint: TWebhookEndpoint; onSecret: (shown: TWebhookEndpointCreated) => void; onDelete: (endpoint: TWebhookEndpoint) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const test = useMutation({
    mutationFn: () => webhookEndpointsApi.test(endpoint.id),
    onSuccess: () => {
      setOpen(true);
      toast.success(w.webhookTestQueued);
    },
    onError: (error) => toast.error(errorText(error, w.webhookTestFailed)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.deliveries(endpoint.id) }),
  });
  const rotate = useMutation({
    mutationFn: () => webhookEndpointsApi.rotateSecret(endpoint.id),
    onSuccess: onSecret,
    onError: (error) => toast.error(errorText(error, w.webhookRotateFailed)),
  });
  return (
    <li className="flex flex-col gap-3 py-4" data-testid="webhook-endpoint-row">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="truncate font-mono text-sm">{endpoint.url}</span>
            {endpoint.status === 'disabled' ? <Badge variant="destructive">Disabled</Badge> : <Badge>Active</Badge>}
            {endpoint.batch ? <Badge variant="info">Batches</Badge> : null}
          </p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {endpoint.description ? `${endpoint.description} · ` : ''}
            {endpoint.events.join(', ')} · Created {formatDateTime(endpoint.created_at)}
            {endpoint.failing_since ? ` · Failing since ${formatDateTime(endpoint.failing_since)}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
            Deliveries
          </Button>
          <Button size="sm" variant="outline" onClick={() => test.mutate()} disabled={test.isPending}>
            <Send aria-hidden="true" />
            Send test
          </Button>
          <Button size="sm" variant="outline" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
            <RefreshCw aria-hidden="true" />
            Rotate secret
          </Button>
          <Button size="sm" variant="outline" onClick={() => onDelete(endpoint)}>
            <Trash2 aria-hidden="true" />
            Delete
            <span className="sr-only"> {endpoint.url}</span>
          </Button>
        </div>
      </div>
      {open ? <Deliveries endpoint={endpoint} /> : null}
    </li>
  );
}

/** Webhook endpoints on API Management: list, create (secret shown once), deliveries with retry. */
export function WebhookEndpointsCard() {
  const queryClient = useQueryClient();
  const formId = useId();
  const endpoints = useQuery({ queryKey: webhookQueryKeys.endpoints, queryFn: webhookEndpointsApi.list });
  const form = useSchemaForm(ZWebhookEndpointForm, emptyEndpoint);
  const [secret, setSecret] = useState<TWebhookEndpointCreated | null>(null);
  const [pendingDelete, setPendingDelete] = useState<TWebhookEndpoint | null>(null);

  const create = useMutation({
    mutationFn: webhookEndpointsApi.create,
    onSuccess: (created) => {
      setSecret(created);
      form.reset({ ...form.getValues(), url: '', description: '' });
      toast.success(w.webhookAdded);
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields.url || fields.events) showServerFieldErrors(form, fields);
      else toast.error(errorText(error, w.webhookAddFailed));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => webhookEndpointsApi.remove(id),
    onSuccess: () => {
      toast.success(w.webhookDeleted);
      setPendingDelete(null);
    },
    onError: (error) => toast.error(errorText(error, w.webhookDeleteFailed)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints }),
  });

  const handleCreate = (endpoint: TCreateWebhookEndpointRequest) => create.mutate(endpoint);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Webhook className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          Webhooks
        </CardTitle>
        <CardDescription>
          Get message statuses, completed campaigns, low balance and template reviews pushed to your server, signed with a secret of the endpoint.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={(event) => void form.handleSubmit(handleCreate)(event)} className="flex flex-col gap-3" noValidate aria-label="Add webhook endpoint">
          <div className="grid gap-3 sm:grid-cols-2">
            <FormTextField control={form.control} name="url" label="Endpoint URL" placeholder="https://example.com/sandesh/webhooks" />
            <FormTextField control={form.control} name="description" label="Description (optional)" placeholder="e.g. Order system" maxLength={200} />
          </div>
          <Controller
            control={form.control}
            name="events"
            render={({ field, fieldState }) => (
              <fieldset>
                <legend className="text-sm font-medium">Events</legend>
                <div className="mt-2 grid gap-2 sm:grid-cols-4">
                  {WEBHOOK_EVENT_TYPES.map((type, index) => (
                    <label key={type} className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        // The first box takes the focus when no event is chosen.
                        ref={index === 0 ? field.ref : undefined}
                        checked={field.value.includes(type)}
                        onChange={(event) =>
                          field.onChange(event.target.checked ? [...field.value, type] : field.value.filter((chosen) => chosen !== type))
                        }
                        className="size-4 accent-emerald-600"
                      />
                      <span className="font-mono text-xs">{type}</span>
                    </label>
                  ))}
                </div>
                {fieldState.error ? <p className="mt-1 text-sm text-red-600 dark:text-red-400">{fieldState.error.message}</p> : null}
              </fieldset>
            )}
          />
          <Controller
            control={form.control}
            name="batch"
            render={({ field }) => (
              <label className="flex items-center gap-2 text-sm" htmlFor={`${formId}-batch`}>
                <input
                  id={`${formId}-batch`}
                  type="checkbox"
                  ref={field.ref}
                  checked={field.value ?? false}
                  onChange={(event) => field.onChange(event.target.checked)}
                  className="size-4 accent-emerald-600"
                />
                Deliver in batches of up to 100 events
              </label>
            )}
          />
          <Button type="submit" disabled={create.isPending} className="self-start">
            {create.isPending ? <Spinner className="text-current" /> : <Plus aria-hidden="true" />}
            Add endpoint
          </Button>
        </form>

        {endpoints.isPending ? (
          <Spinner label="Loading webhook endpoints" />
        ) : endpoints.isError ? (
          <Alert tone="error">{errorText(endpoints.error, w.webhookLoadFailed)}</Alert>
        ) : endpoints.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">{w.webhookNoEndpoints}</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Your webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} onSecret={setSecret} onDelete={setPendingDelete} />
            ))}
          </ul>
        )}
      </CardContent>
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete this webhook endpoint?"
        description={`Deliveries to ${pendingDelete?.url ?? ''} stop, and its delivery history is removed.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => pendingDelete && remove.mutate(pendingDelete.id)}
        onClose={() => setPendingDelete(null)}
      />
    </Card>
  );
}
