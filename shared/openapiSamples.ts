/**
 * Copyable samples for one operation of GET /api/openapi.json: curl, JavaScript
 * (fetch) and Python (requests), built from the document's own examples, so the reference and the
 * samples never disagree. The API key is read from SANDESH_API_KEY in each sample.
 */

export interface DocParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  example?: string | number;
  schema?: Record<string, unknown>;
}

export interface DocOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters?: DocParameter[];
  requestBody?: { content: { 'application/json': { example?: unknown; schema?: unknown } } };
  responses: Record<string, { description: string; content?: { 'application/json': { example?: unknown; schema?: unknown } } }>;
  security?: unknown[];
}

export interface DocEntry {
  method: string;
  path: string;
  operation: DocOperation;
}

export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

/** The document's operations in document order. */
export function docEntries(doc: OpenApiDoc): DocEntry[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation })));
}

/** The path with its parameters' examples, and the query parameters that have examples and are required. */
function samplePath(entry: DocEntry): string {
  const params = entry.operation.parameters ?? [];
  let path = entry.path;
  for (const p of params.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example ?? `<${p.name}>`)));
  return path;
}

function bodyOf(entry: DocEntry): unknown {
  return entry.operation.requestBody?.content['application/json'].example;
}

function headerSamples(entry: DocEntry): [string, string][] {
  return (entry.operation.parameters ?? []).filter((p) => p.in === 'header' && p.example !== undefined).map((p) => [p.name, String(p.example)]);
}

const needsKey = (entry: DocEntry) => (entry.operation.security ?? [{}]).length > 0;

export function curlSample(entry: DocEntry, baseUrl: string): string {
  const lines = [`curl -X ${entry.method.toUpperCase()} '${baseUrl}${samplePath(entry)}'`];
  if (needsKey(entry)) lines.push(`  -H "X-API-Key: $SANDESH_API_KEY"`);
  for (const [name, value] of headerSamples(entry)) lines.push(`  -H '${name}: ${value}'`);
  const body = bodyOf(entry);
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

export function javascriptSample(entry: DocEntry, baseUrl: string): string {
  const headers: Record<string, string> = {};
  if (needsKey(entry)) headers['X-API-Key'] = '${process.env.SANDESH_API_KEY}';
  for (const [name, value] of headerSamples(entry)) headers[name] = value;
  const body = bodyOf(entry);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const headerLines = Object.entries(headers)
    .map(([name, value]) => `    '${name}': ${value.startsWith('${') ? 'process.env.SANDESH_API_KEY' : JSON.stringify(value)},`)
    .join('\n');
  return [
    `const response = await fetch('${baseUrl}${samplePath(entry)}', {`,
    `  method: '${entry.method.toUpperCase()}',`,
    `  headers: {\n${headerLines}\n  },`,
    ...(body !== undefined ? [`  body: JSON.stringify(${JSON.stringify(body, null, 2).replaceAll('\n', '\n  ')}),`] : []),
    `});`,
    `const result = response.status === 204 ? null : await response.json();`,
    `if (!response.ok) throw new Error(result.error);`,
    `console.log(result);`,
  ].join('\n');
}

export function pythonSample(entry: DocEntry, baseUrl: string): string {
  const headers: string[] = [];
  if (needsKey(entry)) headers.push(`"X-API-Key": os.environ["SANDESH_API_KEY"]`);
  for (const [name, value] of headerSamples(entry)) headers.push(`${JSON.stringify(name)}: ${JSON.stringify(value)}`);
  const body = bodyOf(entry);
  const python = (value: unknown) => JSON.stringify(value, null, 4).replaceAll('true', 'True').replaceAll('false', 'False').replaceAll('null', 'None');
  return [
    'import os',
    'import requests',
    '',
    `response = requests.${entry.method.toLowerCase()}(`,
    `    "${baseUrl}${samplePath(entry)}",`,
    `    headers={${headers.join(', ')}},`,
    ...(body !== undefined ? [`    json=${python(body).replaceAll('\n', '\n    ')},`] : []),
    '    timeout=30,',
    ')',
    'response.raise_for_status()',
    'print(response.json() if response.status_code != 204 else "done")',
  ].join('\n');
}
