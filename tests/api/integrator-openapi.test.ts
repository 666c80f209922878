import { conversationRoutes } from '../../server/src/routes/conversations';
import { suppressionRoutes } from '../../server/src/routes/suppressions';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSample, docEntries, javascriptSample, pythonSample, type OpenApiDoc } from '@shared/openapiSamples';
import { OPENAPI_EXTRA_SCHEMAS, OPENAPI_OPERATIONS, schemaExamples } from '../../server/src/integratorApi/openapi';
import { messageRoutes } from '../../server/src/routes/messages';
import { openApiRoutes } from '../../server/src/routes/openapi';
import { reportRoutes } from '../../server/src/routes/reports';
import { sendingRoutes } from '../../server/src/routes/sending';
import { webhookEndpointRoutes } from '../../server/src/routes/webhookEndpoints';
import { contactRoutes } from '../../server/src/routes/contacts';
import { invoiceRoutes } from '../../server/src/routes/invoices';
import type { AppState } from '../../server/src/types';
import { signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/test/webhookReceiver';

const run = promisify(execFile);

/** `METHOD /path/{param}` for each route a router registers (HEAD is Koa's twin of GET). */
function registered(router: Router<AppState>): string[] {
  return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`));
}

describe.skipIf(postgresUnavailable)('GET /api/openapi.json', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' });
    receiver = await startWebhookReceiver();
    doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenApiDoc;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const documented = () => new Set(docEntries(doc).map((e) => `${e.method.toUpperCase()} ${e.path}`));

  it('is an OpenAPI 3.1 document whose every $ref resolves', () => {
    expect(doc.openapi).toBe('3.1.0');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(doc.components?.schemas?.[name], name).toBeDefined();
  });

  it('documents every route of the public routers, and only routes that exist', () => {
    const services = server.services;
    const noBody = async () => undefined;
    const publicRoutes = [
      ...registered(messageRoutes(services)),
      ...registered(webhookEndpointRoutes(services, noBody)),
      // The app's own send to an audience is the signed-in user's only.
      ...registered(contactRoutes(services, { json: noBody, bulk: noBody })).filter((r) => r !== 'POST /api/whatsapp/audience-send'),
      ...registered(openApiRoutes('test')),
      ...registered(conversationRoutes(services, noBody)),
      // The suppression list; its keyword and flag routes are the signed-in user's only.
      ...registered(suppressionRoutes(services, noBody)).filter((r) => !r.includes('/keywords') && !r.includes('/flags')),
      // The API-key routes of routers that also serve the web app.
      ...registered(sendingRoutes(services, { apiSend: noBody, apiSendBatch: noBody })).filter((r) => r === 'POST /api/send' || r === 'POST /api/send/batch'),
      ...registered(reportRoutes(services)).filter((r) => r === 'GET /api/whatsapp/reports'),
      ...registered(invoiceRoutes(services, 'test')).filter((r) => r.startsWith('GET /api/wallet/invoices')),
    ];
    expect(new Set(publicRoutes)).toEqual(documented());
    expect(documented()).toContain('GET /api/messages/{messageId}');
    expect(documented()).toContain('DELETE /api/webhook-endpoints/{id}');
  });

  it('has examples for every request and answer, each valid against its schema', () => {
    const schemas = [...OPENAPI_OPERATIONS.flatMap((op) => [op.request, ...Object.values(op.responses).map((r) => r.schema)]), ...OPENAPI_EXTRA_SCHEMAS].filter((s) => s !== undefined);
    expect(schemas.length).toBeGreaterThan(15);
    for (const schema of schemas) {
      const examples = schemaExamples(schema);
      expect(examples.length, JSON.stringify(schema.meta())).toBeGreaterThan(0);
      for (const example of examples) {
        const parsed = schema.safeParse(example);
        expect(parsed.success, `${String(schema.meta()?.id)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
    for (const entry of docEntries(doc)) {
      for (const [status, response] of Object.entries(entry.operation.responses)) {
        if (response.content) expect(response.content['application/json'].example, `${entry.path} ${status}`).toBeDefined();
      }
    }
  });

  it('runs the documented curl samples against the server', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(server, user, 'Hello {{1}}, your order {{2}} ships today');
    const { key } = await keyedClient(server, client);
    const entries = docEntries(doc);
    const curlOf = (method: string, path: string) => {
      const entry = entries.find((e) => e.method === method && e.path === path);
      if (!entry) throw new Error(`${method} ${path} not documented`);
      return curlSample(entry, server.url);
    };
    /** Runs a sample with the caller's values in place of the document's placeholders. */
    const runCurl = async (sample: string, replacements: Record<string, string>) => {
      let command = sample;
      for (const [from, to] of Object.entries(replacements)) command = command.replaceAll(from, to);
      const { stdout } = await run('sh', ['-c', `${command} -s -w '\\n%{http_code}'`], { env: { ...process.env, SANDESH_API_KEY: key } });
      const lines = stdout.trimEnd().split('\n');
      const status = Number(lines.pop());
      const text = lines.join('\n');
      return { status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
    };
    const names = { your_username: user.username, order_update: template.name };

    const sent = await runCurl(curlOf('post', '/api/send'), names);
    expect(sent.status).toBe(200);
    const messageId = String(sent.body.message_id);
    const replayed = await runCurl(curlOf('post', '/api/send'), names);
    expect(replayed.body.message_id).toBe(messageId);

    expect((await runCurl(curlOf('post', '/api/send/batch'), names)).status).toBe(200);
    expect((await runCurl(curlOf('get', '/api/messages/{messageId}'), { msg_48213907: messageId })).body).toMatchObject({ message_id: messageId });
    expect((await runCurl(curlOf('get', '/api/messages'), {})).status).toBe(200);
    expect((await runCurl(curlOf('get', '/api/whatsapp/reports'), {})).status).toBe(200);

    const created = await runCurl(curlOf('post', '/api/webhook-endpoints'), { 'https://example.com/sandesh/webhooks': `${receiver.url}/curl` });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect((await runCurl(curlOf('get', '/api/webhook-endpoints'), {})).status).toBe(200);
    const ping = await runCurl(curlOf('post', '/api/webhook-endpoints/{id}/test'), { '/7/': `/${id}/` });
    expect(ping.status).toBe(202);
    expect((await runCurl(curlOf('get', '/api/webhook-endpoints/{id}/deliveries'), { '/7/': `/${id}/` })).status).toBe(200);
    expect((await runCurl(curlOf('post', '/api/webhook-endpoints/{id}/deliveries/{deliveryId}/retry'), { '/7/': `/${id}/`, '/311/': `/${String(ping.body.id)}/` })).status).toBe(202);
    expect((await runCurl(curlOf('post', '/api/webhook-endpoints/{id}/rotate-secret'), { '/7/': `/${id}/` })).status).toBe(200);
    expect((await runCurl(curlOf('delete', '/api/webhook-endpoints/{id}'), { "/7'": `/${id}'` })).status).toBe(204);
    expect((await runCurl(curlOf('get', '/api/openapi.json'), {})).status).toBe(200);
  });

  it('gives JavaScript and Python samples with the key from the environment and the example body', () => {
    const entry = docEntries(doc).find((e) => e.path === '/api/send');
    expect(entry).toBeDefined();
    const js = javascriptSample(entry!, 'https://sandesh.example');
    const py = pythonSample(entry!, 'https://sandesh.example');
    expect(js).toContain("'X-API-Key': process.env.SANDESH_API_KEY");
    expect(js).toContain('"templatename": "order_update"');
    expect(py).toContain('os.environ["SANDESH_API_KEY"]');
    expect(py).toContain('requests.post(');
    expect(py).toContain('"Idempotency-Key": "order-4521-confirmation"');
  });
});
