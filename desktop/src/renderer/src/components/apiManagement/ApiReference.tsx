import { useQuery } from '@tanstack/react-query';
import { messages } from '@shared/messages';
import { curlSample, docEntries, javascriptSample, pythonSample, type DocEntry, type OpenApiDoc } from '@shared/openapiSamples';
import { apiGet, errorText } from '../../api/client';
import { cn } from '../../lib/cn';
import { CodeBlock } from '../public/CodeBlock';
import { Alert } from '../ui/alert';
import { SimpleTable } from '../ui/simple-table';
import { Spinner } from '../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';

const METHOD_TONES: Record<string, string> = {
  get: 'bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300',
  post: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  delete: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
};

function Operation({ entry, baseUrl }: { entry: DocEntry; baseUrl: string }) {
  const { operation } = entry;
  const parameters = operation.parameters ?? [];
  const request = operation.requestBody?.content['application/json'].example;
  return (
    <section className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800" aria-labelledby={`op-${operation.operationId}`} data-testid="api-reference-operation">
      <h4 id={`op-${operation.operationId}`} className="flex flex-wrap items-center gap-2 font-semibold text-slate-900 dark:text-slate-100">
        <span className={cn('rounded px-1.5 py-0.5 font-mono text-xs uppercase', METHOD_TONES[entry.method])}>{entry.method}</span>
        <code className="font-mono text-sm">{entry.path}</code>
        <span className="font-normal text-slate-600 dark:text-slate-400">— {operation.summary}</span>
      </h4>
      {operation.description ? <p>{operation.description}</p> : null}
      {parameters.length > 0 ? (
        <SimpleTable
          label={`Parameters of ${entry.method.toUpperCase()} ${entry.path}`}
          head={['Parameter', 'In', 'Required', 'Description']}
          rows={parameters.map((p) => [<code key="name" className="font-mono text-xs">{p.name}</code>, p.in, p.required ? 'Yes' : 'No', p.description ?? ''])}
        />
      ) : null}
      {request !== undefined ? <CodeBlock code={JSON.stringify(request, null, 2)} label="Request body" /> : null}
      <SimpleTable
        label={`Answers of ${entry.method.toUpperCase()} ${entry.path}`}
        head={['Status', 'Meaning']}
        rows={Object.entries(operation.responses).map(([status, response]) => [<strong key="status">{status}</strong>, response.description])}
      />
      {Object.entries(operation.responses)
        .filter(([status, response]) => status.startsWith('2') && response.content?.['application/json'].example !== undefined)
        .map(([status, response]) => (
          <CodeBlock key={status} code={JSON.stringify(response.content?.['application/json'].example, null, 2)} label={`Response ${status}`} />
        ))}
      <Tabs defaultValue="curl">
        <TabsList aria-label={`Samples for ${entry.method.toUpperCase()} ${entry.path}`}>
          <TabsTrigger value="curl">cURL</TabsTrigger>
          <TabsTrigger value="javascript">JavaScript</TabsTrigger>
          <TabsTrigger value="python">Python</TabsTrigger>
        </TabsList>
        <TabsContent value="curl">
          <CodeBlock code={curlSample(entry, baseUrl)} label="cURL" />
        </TabsContent>
        <TabsContent value="javascript">
          <CodeBlock code={javascriptSample(entry, baseUrl)} label="JavaScript" />
        </TabsContent>
        <TabsContent value="python">
          <CodeBlock code={pythonSample(entry, baseUrl)} label="Python" />
        </TabsContent>
      </Tabs>
    </section>
  );
}

/**
 * The API reference rendered from GET /api/openapi.json: every public call with its
 * parameters, examples and copyable curl, JavaScript and Python samples. Rendered here from the
 * document rather than by a third-party viewer: no CDN, nothing to bundle beyond this file.
 */
export function ApiReference({ baseUrl }: { baseUrl: string }) {
  const document = useQuery({ queryKey: ['openapi'], queryFn: () => apiGet<OpenApiDoc>('/api/openapi.json'), staleTime: 5 * 60_000 });
  if (document.isPending) return <Spinner label="Loading the API reference" />;
  if (document.isError) return <Alert tone="error">{errorText(document.error, messages.integrations.referenceLoadFailed)}</Alert>;
  const entries = docEntries(document.data);
  const tags = [...new Set(entries.map((e) => e.operation.tags?.[0] ?? 'Other'))];
  return (
    <div className="flex flex-col gap-6" data-testid="api-reference">
      <p>
        {document.data.info.description} Version {document.data.info.version}. The document itself:{' '}
        <a className="font-medium text-emerald-700 underline dark:text-emerald-400" href={`${baseUrl}/api/openapi.json`} target="_blank" rel="noreferrer">
          /api/openapi.json
        </a>
        . Set <code className="font-mono">SANDESH_API_KEY</code> to your key before running a sample.
      </p>
      {tags.map((tag) => (
        <div key={tag} className="flex flex-col gap-4">
          <h3 className="text-base font-semibold text-slate-900 dark:text-slate-100">{tag}</h3>
          {entries
            .filter((e) => (e.operation.tags?.[0] ?? 'Other') === tag)
            .map((entry) => (
              <Operation key={`${entry.method} ${entry.path}`} entry={entry} baseUrl={baseUrl} />
            ))}
        </div>
      ))}
    </div>
  );
}
