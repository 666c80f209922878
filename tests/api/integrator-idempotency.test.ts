import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { IdempotencyService, requestHash } from '../../server/src/integratorApi/idempotency';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

type SendAnswer = { success: boolean; message_id: string; campaign_id: number; code?: string; error?: string };

describe.skipIf(postgresUnavailable)('Idempotency-Key on the public send calls', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function integrator(creditRupees = 10): Promise<{ api: TestClient; userId: number; username: string; template: string }> {
    const { client, user } = await signedInClient(server, { creditRupees });
    const template = await approvedTemplate(server, user);
    const { api } = await keyedClient(server, client);
    return { api, userId: user.id, username: user.username, template: template.name };
  }

  const messageCount = async (userId: number) => Number(((await server.db('messages').where({ userId }).count({ n: '*' })) as { n: number | string }[])[0]?.n);

  describe('POST /api/send', () => {
    it('answers the first response again for the same key and body, and charges once', async () => {
      const who = await integrator();
      const body = { username: who.username, templatename: who.template, recipient_number: '919811100001', var1: 'A' };
      const first = await who.api.post<SendAnswer>('/api/send', body, { 'Idempotency-Key': 'order-4521-confirmation' });
      expect(first.status).toBe(200);
      const balanceAfterFirst = await server.services.wallet.balance(who.userId);
      const again = await who.api.post<SendAnswer>('/api/send', body, { 'Idempotency-Key': 'order-4521-confirmation' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await messageCount(who.userId)).toBe(1);
      expect(await server.services.wallet.balance(who.userId)).toBe(balanceAfterFirst);
      // Without a key the same body is a new request (judged by Duplicate Blocked, not replayed).
      const unkeyed = await who.api.post<SendAnswer>('/api/send', body);
      expect(unkeyed.body.message_id).not.toBe(first.body.message_id);
    });

    it('answers 422 idempotency_key_reused for the same key with another body', async () => {
      const who = await integrator();
      const body = { username: who.username, templatename: who.template, recipient_number: '919811100002', var1: 'A' };
      expect((await who.api.post('/api/send', body, { 'Idempotency-Key': 'k-reused' })).status).toBe(200);
      const other = await who.api.post<SendAnswer>('/api/send', { ...body, var1: 'B' }, { 'Idempotency-Key': 'k-reused' });
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ success: false, code: 'idempotency_key_reused', error: messages.integrations.idempotencyKeyReused });
      expect(await messageCount(who.userId)).toBe(1);
    });

    it('keeps keys per API key owner', async () => {
      const first = await integrator();
      const second = await integrator();
      const a = await first.api.post<SendAnswer>('/api/send', { username: first.username, templatename: first.template, recipient_number: '919811100003', var1: 'A' }, { 'Idempotency-Key': 'shared-key' });
      const b = await second.api.post<SendAnswer>('/api/send', { username: second.username, templatename: second.template, recipient_number: '919811100003', var1: 'A' }, { 'Idempotency-Key': 'shared-key' });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.headers.get('idempotent-replayed')).toBeNull();
      expect(b.body.message_id).not.toBe(a.body.message_id);
    });

    it('releases the key of a refused request, so a corrected retry with it runs', async () => {
      const who = await integrator();
      const refused = await who.api.post<SendAnswer>('/api/send', { username: who.username, templatename: who.template, recipient_number: '12' }, { 'Idempotency-Key': 'retry-me' });
      expect(refused.status).toBe(400);
      const corrected = await who.api.post<SendAnswer>('/api/send', { username: who.username, templatename: who.template, recipient_number: '919811100004', var1: 'A' }, { 'Idempotency-Key': 'retry-me' });
      expect(corrected.status).toBe(200);
    });

    it('refuses a key longer than 255 characters or with spaces with 400', async () => {
      const who = await integrator();
      const body = { username: who.username, templatename: who.template, recipient_number: '919811100005', var1: 'A' };
      for (const key of ['k'.repeat(256), 'has space']) {
        const res = await who.api.post<SendAnswer>('/api/send', body, { 'Idempotency-Key': key });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'idempotency_key_invalid' });
      }
      expect((await who.api.post('/api/send', body, { 'Idempotency-Key': 'k'.repeat(255) })).status).toBe(200);
    });

    it('processes one of several simultaneous requests with one key; the others wait for its answer or get 409', async () => {
      const who = await integrator();
      const body = { username: who.username, templatename: who.template, recipient_number: '919811100006', var1: 'A' };
      const answers = await Promise.all(Array.from({ length: 4 }, () => who.api.post<SendAnswer>('/api/send', body, { 'Idempotency-Key': 'simultaneous' })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      const succeeded = answers.filter((a) => a.status === 200);
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      expect(new Set(succeeded.map((a) => a.body.message_id)).size).toBe(1);
      for (const conflict of answers.filter((a) => a.status === 409)) expect(conflict.body.code).toBe('idempotency_key_in_flight');
      expect(await messageCount(who.userId)).toBe(1);
    });
  });

  describe('POST /api/send/batch', () => {
    it('answers the same campaign again for the same key and body, and accepts the batch once', async () => {
      const who = await integrator();
      const body = { username: who.username, templatename: who.template, messages: [1, 2, 3].map((i) => ({ recipient_number: `91981120000${i}`, var1: 'B' })) };
      const [first, second] = await Promise.all([
        who.api.post<{ data: { campaignId: number } }>('/api/send/batch', body, { 'Idempotency-Key': 'batch-1' }),
        who.api.post<{ data: { campaignId: number } }>('/api/send/batch', body, { 'Idempotency-Key': 'batch-1' }),
      ]);
      const ok = [first, second].filter((a) => a.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const third = await who.api.post<{ data: { campaignId: number } }>('/api/send/batch', body, { 'Idempotency-Key': 'batch-1' });
      expect(third.status).toBe(200);
      for (const answer of ok) expect(answer.body.data.campaignId).toBe(third.body.data.campaignId);
      expect(await messageCount(who.userId)).toBe(3);
      const changed = await who.api.post<SendAnswer>('/api/send/batch', { ...body, messages: body.messages.slice(1) }, { 'Idempotency-Key': 'batch-1' });
      expect(changed.status).toBe(422);
      expect(changed.body.code).toBe('idempotency_key_reused');
    });
  });

  describe('the key store', () => {
    it('forgets a key after 24 hours and takes over one left processing by a stopped server', async () => {
      const who = await integrator();
      let now = new Date('2030-01-01T00:00:00.000Z');
      const store = new IdempotencyService({ db: server.db, now: () => now, waitMs: 0 });
      const hash = requestHash('POST', '/api/send', { a: 1 });
      const first = await store.claim(who.userId, 'clocked', hash);
      expect(first.kind).toBe('claimed');
      if (first.kind === 'claimed') await first.finish(200, { ok: 1 });
      now = new Date('2030-01-01T23:59:00.000Z');
      expect(await store.claim(who.userId, 'clocked', hash)).toEqual({ kind: 'replay', status: 200, body: { ok: 1 } });
      now = new Date('2030-01-02T00:00:01.000Z');
      expect((await store.claim(who.userId, 'clocked', requestHash('POST', '/api/send', { a: 2 }))).kind).toBe('claimed');

      const stuck = await store.claim(who.userId, 'stuck', hash);
      expect(stuck.kind).toBe('claimed');
      await expect(store.claim(who.userId, 'stuck', hash)).rejects.toMatchObject({ status: 409, code: 'idempotency_key_in_flight' });
      now = new Date(now.getTime() + 6 * 60 * 1000);
      expect((await store.claim(who.userId, 'stuck', hash)).kind).toBe('claimed');
    });
  });
});
