import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TAdminPendingTemplatesResponse, TAdminTemplateQueueResponse } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient, uniqueName } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('admin template review queue', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const queue = async (query: string) => {
    const response = await admin.get<TAdminTemplateQueueResponse>(`/api/admin/templates${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  it('answers 401 to a visitor and 403 to a user on both routes', async () => {
    const { client } = await signedInClient(server);
    for (const path of ['/api/admin/templates', '/api/admin/templates/pending-count']) {
      expect((await new TestClient(server.url).get(path)).status).toBe(401);
      const refused = await client.get(path);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: messages.auth.adminRequired });
    }
  });

  it('lists pending templates across users by default, oldest submission first, with their owners', async () => {
    const tag = uniqueName('queue');
    const asha = await buildUser(server, { name: 'Asha Rao', username: `${tag}_asha` });
    const ravi = await buildUser(server, { name: 'Ravi Kumar', username: `${tag}_ravi` });
    const first = await buildTemplate(server, asha, { status: 'PENDING', name: `${tag}_first` });
    const second = await buildTemplate(server, ravi, { status: 'PENDING', name: `${tag}_second` });
    await buildTemplate(server, ravi, { status: 'APPROVED', name: `${tag}_approved` });
    await buildTemplate(server, asha, { status: 'DRAFT', name: `${tag}_draft` });

    const body = await queue(`?search=${tag}`);
    expect(body.templates.map((t) => t.name)).toEqual([first.name, second.name]);
    expect(body.templates[0]).toMatchObject({ status: 'PENDING', owner: { id: asha.id, name: 'Asha Rao', username: asha.username } });
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
  });

  it('filters by status, category, owner and a search on the owner name, and pages', async () => {
    const tag = uniqueName('filters');
    const owner = await buildUser(server, { name: `Meera ${tag}` });
    const other = await buildUser(server);
    await buildTemplate(server, owner, { status: 'PENDING', name: `${tag}_m1`, category: 'MARKETING' });
    await buildTemplate(server, owner, { status: 'PENDING', name: `${tag}_u1`, category: 'UTILITY' });
    await buildTemplate(server, owner, { status: 'REJECTED', name: `${tag}_r1` });
    await buildTemplate(server, other, { status: 'PENDING', name: `${tag}_o1` });

    expect((await queue(`?search=${tag}&category=UTILITY`)).templates.map((t) => t.name)).toEqual([`${tag}_u1`]);
    expect((await queue(`?search=${tag}&status=REJECTED`)).templates.map((t) => t.name)).toEqual([`${tag}_r1`]);
    expect((await queue(`?userId=${owner.id}&status=ALL`)).pagination.total).toBe(3);
    // The owner's name matches, in any case: the other user's template does not.
    const byOwner = await queue(`?search=${encodeURIComponent(`MEERA ${tag}`)}`);
    expect(byOwner.templates.map((t) => t.name).sort()).toEqual([`${tag}_m1`, `${tag}_u1`]);
    const pageTwo = await queue(`?search=${tag}&limit=2&page=2`);
    expect(pageTwo.templates).toHaveLength(1);
    expect(pageTwo.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it('treats % and _ in a search as plain characters', async () => {
    const tag = uniqueName('literal');
    const owner = await buildUser(server, { name: `Shop 100 ${tag}` });
    await buildTemplate(server, owner, { status: 'PENDING' });
    expect((await queue(`?search=${encodeURIComponent(`shop 100 ${tag}`)}`)).pagination.total).toBe(1);
    // As wildcards these would match "Shop 100 ..."; as characters they match nothing.
    expect((await queue(`?search=${encodeURIComponent(`shop 1%0 ${tag}`)}`)).pagination.total).toBe(0);
    expect((await queue(`?search=${encodeURIComponent(`shop 1_0 ${tag}`)}`)).pagination.total).toBe(0);
  });

  it('counts pending templates for the sidebar, and the count follows a review from the queue', async () => {
    const owner = await buildUser(server);
    const before = (await admin.get<TAdminPendingTemplatesResponse>('/api/admin/templates/pending-count')).body.pending;
    const template = await buildTemplate(server, owner, { status: 'PENDING' });
    expect((await admin.get<TAdminPendingTemplatesResponse>('/api/admin/templates/pending-count')).body).toEqual({ success: true, pending: before + 1 });
    const approved = await admin.put(`/api/admin/templates/${template.id}/status`, { status: 'APPROVED' });
    expect(approved.status).toBe(200);
    expect((await admin.get<TAdminPendingTemplatesResponse>('/api/admin/templates/pending-count')).body.pending).toBe(before);
  });

  it('leaves out the templates of deleted accounts', async () => {
    const owner = await buildUser(server);
    const template = await buildTemplate(server, owner, { status: 'PENDING' });
    expect((await queue(`?search=${template.name}`)).pagination.total).toBe(1);
    expect((await admin.request('DELETE', `/api/admin/users/${owner.id}`)).status).toBe(200);
    expect((await queue(`?search=${template.name}`)).pagination.total).toBe(0);
  });
});
