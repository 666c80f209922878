import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, FlaskConical, Send, XCircle } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Controller, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { messages } from '@shared/messages';
import type { TTemplate } from '@shared/types';
import { apiKeyQueryKeys, apiKeysApi, sendTestRequest } from '../../api/apiKeys';
import {
  buildSendPayload,
  buildSnippets,
  consoleParams,
  consolePreview,
  formatResponseBody,
  isSuccessStatus,
  languageToSend,
  paramValue,
  ZApiConsoleForm,
  type ConsoleResult,
  type TApiConsoleForm,
} from '../../lib/apiConsole';
import { useBoundInput } from '../form/fields';
import { useSchemaForm } from '../form/useSchemaForm';
import { cn } from '../../lib/cn';
import { templateLanguageName } from '../../lib/templateReview';
import { CodeBlock } from '../public/CodeBlock';
import { MessagePreview } from '../templates/MessagePreview';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell, TextField } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { Spinner } from '../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';

const k = messages.apiKeys;

interface ApiConsoleProps {
  username: string;
  baseUrl: string;
  apiKey: string;
  onApiKeyChange: (key: string) => void;
  templates: readonly TTemplate[];
  templatesLoading: boolean;
  templatesError: string | null;
}

function ResponsePanel({ result, isSending }: { result: ConsoleResult | null; isSending: boolean }) {
  const ok = result ? isSuccessStatus(result.status) : false;
  return (
    <section aria-labelledby="api-console-response" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h4 id="api-console-response" className="text-sm font-semibold">
          Response
        </h4>
        {isSending ? <Spinner label="Sending test request" /> : null}
      </div>
      <div role="status" aria-live="polite" data-testid="api-console-response">
        {result ? (
          <div className="flex flex-col gap-2">
            <p
              className={cn(
                'inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold',
                ok ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300' : 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
              )}
              data-testid="api-console-status"
            >
              {ok ? <CheckCircle2 className="size-3.5" aria-hidden="true" /> : <XCircle className="size-3.5" aria-hidden="true" />}
              Status {result.status} · {ok ? 'Success' : 'Error'}
            </p>
            <pre className="max-h-72 overflow-auto rounded-lg bg-slate-950 p-3 text-xs leading-5 text-slate-100" tabIndex={0} data-testid="api-console-body">
              {formatResponseBody(result.body)}
            </pre>
          </div>
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">Send a test request to see the status and the response body here.</p>
        )}
      </div>
    </section>
  );
}

/** The test recipient: a plus sign is dropped as it is typed (spec 002 §5: enter it without the +). */
function RecipientField({ control }: { control: Control<TApiConsoleForm, unknown, z.output<typeof ZApiConsoleForm>> }) {
  const { input, error } = useBoundInput({ control, name: 'recipient' }, (typed) => typed.replace(/\+/g, ''));
  return (
    <TextField
      label="Recipient number"
      {...input}
      error={error}
      inputMode="tel"
      autoComplete="off"
      placeholder="919876543210"
      hint={k.recipientHint}
    />
  );
}

/**
 * The API testing console (spec 002 "API Management", §4, §5): it sends `POST /api/send` with the
 * key the way an integrator would, shows the status and body, previews the message and writes
 * the same request as cURL, JavaScript and Python.
 */
export function ApiConsole({ username, baseUrl, apiKey, onApiKeyChange, templates, templatesLoading, templatesError }: ApiConsoleProps) {
  const ids = useId();
  const form = useSchemaForm(ZApiConsoleForm, { templateId: '', recipient: '', values: {} } satisfies TApiConsoleForm);
  const { control } = form;
  const templateId = form.watch('templateId');
  const recipient = form.watch('recipient');
  const values = form.watch('values');
  const [result, setResult] = useState<ConsoleResult | null>(null);

  const template = templates.find((candidate) => String(candidate.id) === templateId);
  const info = useQuery({
    queryKey: apiKeyQueryKeys.templateInfo(username, template?.name ?? ''),
    queryFn: () => apiKeysApi.templateInfo(username, template?.name ?? ''),
    enabled: Boolean(template && username),
    retry: false,
  });
  const params = useMemo(() => consoleParams(template, info.data?.requirements.optional_params), [template, info.data]);
  const language = template ? languageToSend(templates, template) : undefined;
  const payload = buildSendPayload({ username, templatename: template?.name ?? '', recipient, params, values, language });
  const snippets = buildSnippets(baseUrl, apiKey, payload);
  const preview = template ? consolePreview(template, params, values) : null;
  const templateHint = templatesError ?? (templates.length === 0 && !templatesLoading ? k.noApprovedTemplates : undefined);

  const send = useMutation({
    mutationFn: () => sendTestRequest(baseUrl, apiKey, payload),
    onMutate: () => setResult(null),
    onSuccess: (answer) => setResult(answer),
  });

  const handleTemplateChange = (id: string) => {
    form.setValue('templateId', id);
    // Another template's parameters start again from its examples.
    form.setValue('values', {});
    setResult(null);
  };

  const handleSubmit = form.handleSubmit(() => {
    if (send.isPending) return;
    send.mutate();
  });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <FlaskConical className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            API Testing Console
          </CardTitle>
          <CardDescription>
            Sends a real <code className="font-mono">POST /api/send</code> with your key: the message is delivered and charged like any other.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 lg:grid-cols-2">
          <form onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4" noValidate aria-label="API test request">
            <TextField
              label="API key"
              value={apiKey}
              onChange={(event) => onApiKeyChange(event.target.value.trim())}
              placeholder="snd_…"
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
              hint={k.keyHint}
            />
            <TextField label="Username" value={username} readOnly hint="The send API requires the key owner's username." />
            <FieldShell id={`${ids}-template`} label="Template" hint={templateHint}>
              <Controller
                control={control}
                name="templateId"
                render={({ field }) => (
                  <NativeSelect
                    id={`${ids}-template`}
                    name={field.name}
                    ref={field.ref}
                    value={field.value}
                    onBlur={field.onBlur}
                    onChange={(event) => handleTemplateChange(event.target.value)}
                    disabled={templatesLoading}
                    aria-describedby={templateHint ? `${ids}-template-hint` : undefined}
                  >
                    <option value="">{templatesLoading ? messages.common.loading : 'Select a template'}</option>
                    {templates.map((candidate) => (
                      <option key={candidate.id} value={String(candidate.id)}>
                        {candidate.name} ({templateLanguageName(candidate.language)})
                      </option>
                    ))}
                  </NativeSelect>
                )}
              />
            </FieldShell>
            <RecipientField control={control} />
            {info.isError ? <Alert tone="warning">{k.templateInfoFailed}</Alert> : null}
            {info.isFetching ? <Spinner label="Loading template parameters" /> : null}
            {params.length > 0 ? (
              <fieldset className="flex flex-col gap-3">
                <legend className="mb-2 text-sm font-semibold">Template parameters</legend>
                {params.map((param) => (
                  <Controller
                    key={param.name}
                    control={control}
                    name={`values.${param.name}`}
                    render={({ field }) => (
                      <TextField
                        label={
                          <>
                            <code className="font-mono">{param.name}</code>
                            {param.required ? (
                              <span className="text-red-600 dark:text-red-400" aria-hidden="true">
                                {' '}
                                *
                              </span>
                            ) : null}
                          </>
                        }
                        aria-label={param.name}
                        name={field.name}
                        ref={field.ref}
                        onBlur={field.onBlur}
                        // Untouched, a parameter shows (and sends) the template's example.
                        value={paramValue(param, values)}
                        placeholder={param.example}
                        hint={param.description}
                        onChange={(event) => field.onChange(event.target.value)}
                      />
                    )}
                  />
                ))}
              </fieldset>
            ) : null}
            <Button type="submit" disabled={!payload.recipient_number || send.isPending} className="self-start">
              {send.isPending ? <Spinner className="text-current" /> : <Send aria-hidden="true" />}
              Send Test Request
            </Button>
          </form>

          <div className="flex flex-col gap-6">
            <section aria-labelledby="api-console-preview" className="flex flex-col gap-2">
              <h4 id="api-console-preview" className="text-sm font-semibold">
                Message Preview
              </h4>
              {preview ? (
                <MessagePreview preview={preview} />
              ) : (
                <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
                  Choose a template to see the message with your values.
                </p>
              )}
            </section>
            <ResponsePanel result={result} isSending={send.isPending} />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Code Examples</CardTitle>
          <CardDescription>The request above, ready to paste into your own code.</CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs defaultValue="curl">
            <TabsList aria-label="Code example language">
              <TabsTrigger value="curl">cURL</TabsTrigger>
              <TabsTrigger value="javascript">JavaScript</TabsTrigger>
              <TabsTrigger value="python">Python</TabsTrigger>
            </TabsList>
            <TabsContent value="curl">
              <CodeBlock code={snippets.curl} label="cURL" />
            </TabsContent>
            <TabsContent value="javascript">
              <CodeBlock code={snippets.javascript} label="JavaScript" />
            </TabsContent>
            <TabsContent value="python">
              <CodeBlock code={snippets.python} label="Python" />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </div>
  );
}
