import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { API_KEYS, type TApiKey, type TCreatedApiKey } from '@shared/apiKeys';
import { fillMessage, messages } from '@shared/messages';
import { ZCreateApiKeyRequest, type TCreateApiKeyRequest } from '@shared/schemas/apiKeys';
import { apiKeyQueryKeys, apiKeysApi } from '../../api/apiKeys';
import { errorText, serverFieldErrors } from '../../api/client';
import { keyRateLimitLabel } from '../../lib/apiConsole';
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
import { Spinner } from '../ui/spinner';
import { CopyButton } from './CopyButton';

const k = messages.apiKeys;

/** The new key, shown once: the server never answers it again. */
function NewKeyDialog({ created, onClose }: { created: TCreatedApiKey | null; onClose: () => void }) {
  return (
    <Dialog open={created !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>API key created</DialogTitle>
          <DialogDescription>{k.shownOnce}</DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-medium">{created.name}</p>
            <div className="flex items-center gap-2">
              <Input
                readOnly
                value={created.key}
                aria-label="New API key"
                data-testid="new-api-key"
                className="font-mono text-xs"
                onFocus={(event) => event.currentTarget.select()}
              />
              <CopyButton text={created.key} label="API key" />
            </div>
            <p className="text-xs text-slate-500 dark:text-slate-400">It is filled into the testing console below for this visit.</p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: TApiKey; onRevoke: (key: TApiKey) => void }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key-row">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{apiKey.name}</span>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
            {apiKey.prefix}…
          </code>
          {apiKey.rateLimitPer15Min !== null ? <Badge variant="info">Raised limit</Badge> : null}
        </p>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          Created {formatDateTime(apiKey.createdAt)} · Last used {apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : 'never'} ·{' '}
          {keyRateLimitLabel(apiKey.rateLimitPer15Min)}
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={() => onRevoke(apiKey)} className="self-start sm:self-center">
        <Trash2 aria-hidden="true" />
        Revoke
        <span className="sr-only"> {apiKey.name}</span>
      </Button>
    </li>
  );
}

/** Key management on API Management: list, create (shown once), revoke after confirmation. */
export function ApiKeysCard({ onCreated }: { onCreated: (key: string) => void }) {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: apiKeyQueryKeys.keys, queryFn: async () => (await apiKeysApi.list()).data });
  const form = useSchemaForm(ZCreateApiKeyRequest, { name: '' });
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const [pendingRevoke, setPendingRevoke] = useState<TApiKey | null>(null);

  const create = useMutation({
    mutationFn: (keyName: string) => apiKeysApi.create(keyName),
    onSuccess: (response) => {
      setCreated(response.data);
      form.reset({ name: '' });
      onCreated(response.data.key);
      toast.success(response.message || k.created);
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.name) showServerFieldErrors(form, { name: fieldErrors.name });
      else toast.error(errorText(error, k.createFailed));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKeys.keys }),
  });

  const revoke = useMutation({
    mutationFn: (id: number) => apiKeysApi.revoke(id),
    onSuccess: (response) => {
      toast.success(response.message || k.revoked);
      setPendingRevoke(null);
    },
    onError: (error) => toast.error(errorText(error, k.revokeFailed)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKeys.keys }),
  });

  const activeCount = keys.data?.length ?? 0;
  const atLimit = activeCount >= API_KEYS.maxActivePerUser;

  const handleCreate = ({ name }: TCreateApiKeyRequest) => create.mutate(name);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          API Keys
        </CardTitle>
        <CardDescription>
          Send a key as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> or <code className="font-mono">X-API-Key</code>. Keep keys on
          your server; anyone holding one can send messages from your wallet.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form
          onSubmit={(event) => void form.handleSubmit(handleCreate)(event)}
          className="flex flex-col gap-3 sm:flex-row sm:items-start"
          noValidate
        >
          <FormTextField
            control={form.control}
            name="name"
            label="Key name"
            placeholder="e.g. Order system"
            maxLength={API_KEYS.nameMaxLength}
            hint={atLimit ? fillMessage(k.limitReached, { max: API_KEYS.maxActivePerUser }) : `Up to ${API_KEYS.maxActivePerUser} active keys.`}
            fieldClassName="flex-1"
            disabled={atLimit}
          />
          <Button type="submit" disabled={create.isPending || atLimit} className="sm:mt-6">
            {create.isPending ? <Spinner className="text-current" /> : <Plus aria-hidden="true" />}
            Create Key
          </Button>
        </form>

        {keys.isPending ? (
          <Spinner label="Loading API keys" />
        ) : keys.isError ? (
          <Alert tone="error">{errorText(keys.error, k.loadFailed)}</Alert>
        ) : keys.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">{k.noKeys}</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Your API keys">
            {keys.data.map((apiKey) => (
              <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={setPendingRevoke} />
            ))}
          </ul>
        )}
      </CardContent>

      <NewKeyDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={pendingRevoke !== null}
        title={`Revoke ${pendingRevoke?.name ?? 'API key'}?`}
        description={fillMessage(k.revokeConfirm, { name: pendingRevoke?.name ?? '' })}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => pendingRevoke && revoke.mutate(pendingRevoke.id)}
        onClose={() => setPendingRevoke(null)}
      />
    </Card>
  );
}
