/**
 * Pieces the integrator tests share: an approved template made through the services,
 * an API key for a signed-in client, and a client that calls with that key.
 */
import type { Template, User } from '../src/models';
import { TestClient } from './client';
import { waitForTemplateStatus } from './factories';
import type { TestServer } from './server';

export async function approvedTemplate(server: TestServer, user: User, body = 'Hi {{1}}, your order ships today'): Promise<Template> {
  const name = `notice_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const template = await server.services.templates.create(user, {
    name,
    category: 'UTILITY',
    language: 'en_US',
    headerType: 'none',
    headerText: '',
    bodyText: body,
    footerText: '',
    buttons: [],
    variableExamples: {},
    submit_to_whatsapp: true,
  }, undefined);
  const admin = (await server.db('users').where({ role: 'admin' }).first('id')) as { id: number };
  const adminUser = await server.services.users.findById(admin.id);
  await server.services.templates.review(adminUser!, template.id, { status: 'APPROVED' }, null);
  // Our approval sends it to the simulator, whose review approves it a moment later.
  return waitForTemplateStatus(server, template.id, 'APPROVED');
}

/** A new API key of the signed-in `client`'s user, and a client that presents only that key. */
export async function keyedClient(server: TestServer, client: TestClient): Promise<{ key: string; api: TestClient }> {
  const created = await client.post<{ data: { key: string } }>('/api/keys', { name: `integration ${Date.now()}` });
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${JSON.stringify(created.body)}`);
  const key = created.body.data.key;
  return { key, api: new TestClient(server.url).withHeaders({ 'X-API-Key': key }) };
}

/** Polls `read` until `done` holds, failing after `timeoutMs` with the last value seen. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
