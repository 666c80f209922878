/**
 * Opt-outs that mean it: replies through the one rule (signed webhooks from the sandbox number),
 * buttons marked as opt-out, flags for the user, and the suppression list by session and API key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TConversationThread } from '@shared/schemas/conversations';
import type { TCostPreview } from '@shared/schemas/sending';
import type { TImportSuppressionsResult, TReplyFlag, TSuppression, TSuppressionsPage } from '@shared/schemas/suppressions';
import type { User } from '../../server/src/models';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { apiKeyFor, sandboxNumber } from '../../server/test/sending';
import { numberChange, postWebhook, webhookBody } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('opt-outs and the suppression list', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  const t = () => String(Math.floor(Date.now() / 1000));
  const listed = async (user: User) => ((await server.db('suppressions').where({ userId: user.id }).orderBy('recipient').select('recipient', 'source', 'reason')) as { recipient: string; source: string; reason: string }[]);

  /** A signed-in user, their sandbox number, and a way to post replies from recipients to it. */
  async function account() {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const number = await sandboxNumber(client);
    const reply = async (from: string, message: Record<string, unknown>) => {
      sequence += 1;
      const body = webhookBody({ id: 'sim', changes: [numberChange(number.phone_number_id, { messages: [{ id: `wamid.in.${Date.now()}.${sequence}`, from, timestamp: t(), ...message }] })] });
      const answer = await postWebhook(server.url, body, server.config.simulator.appSecret);
      expect(answer.status).toBe(200);
      // The rule runs in the batch that applies the stored message, after the webhook's answer.
      await server.services.conversations.drain();
    };
    const text = (from: string, body: string) => reply(from, { type: 'text', text: { body } });
    return { client, user, number, reply, text };
  }

  describe('replies through the webhook', () => {
    it('opts out on an exact keyword (any case, punctuation trimmed, Hindi) and back in on START', async () => {
      const { user, text } = await account();
      await text('919811100001', 'Stop!');
      await text('919811100002', ' unsubscribe ');
      await text('919811100003', 'बंद करो');
      expect(await listed(user)).toEqual([
        { recipient: '919811100001', source: 'keyword_reply', reason: 'Stop!' },
        { recipient: '919811100002', source: 'keyword_reply', reason: 'unsubscribe' },
        { recipient: '919811100003', source: 'keyword_reply', reason: 'बंद करो' },
      ]);
      await text('919811100001', 'START');
      await text('919811100002', 'Subscribe.');
      expect((await listed(user)).map((r) => r.recipient)).toEqual(['919811100003']);
    });

    it('flags "Cancel", a keyword inside a sentence and "please stop sending" for the user, and suppresses nobody', async () => {
      const { client, user, text, reply } = await account();
      await text('919811100011', 'Cancel');
      await text('919811100012', 'Stop. I already paid');
      await text('919811100013', 'please stop sending');
      await reply('919811100014', { type: 'button', button: { text: 'Cancel', payload: 'not-ours' } });
      await text('919811100015', 'Yes, send me the price');
      expect(await listed(user)).toEqual([]);
      const flags = await client.get<{ data: TReplyFlag[] }>('/api/suppressions/flags');
      expect(flags.status).toBe(200);
      expect(flags.body.data.map((f) => [f.phone, f.text])).toEqual([
        ['919811100014', 'Cancel'],
        ['919811100013', 'please stop sending'],
        ['919811100012', 'Stop. I already paid'],
        ['919811100011', 'Cancel'],
      ]);
      const [tapped, sentence] = flags.body.data;
      expect((await client.post(`/api/suppressions/flags/${tapped!.id}/decide`, { decision: 'dismiss' })).status).toBe(204);
      expect((await client.post(`/api/suppressions/flags/${sentence!.id}/decide`, { decision: 'suppress' })).status).toBe(204);
      expect((await client.post(`/api/suppressions/flags/${sentence!.id}/decide`, { decision: 'suppress' })).status).toBe(404);
      expect(await listed(user)).toEqual([{ recipient: '919811100013', source: 'keyword_reply', reason: 'please stop sending' }]);
      expect((await client.get<{ data: TReplyFlag[] }>('/api/suppressions/flags')).body.data).toHaveLength(2);
    });

    it('opts out on a tap of a button the template marks as opt-out, and not on its other buttons', async () => {
      const { user, reply } = await account();
      const template = await buildTemplate(server, user, {
        buttons: [
          { type: 'QUICK_REPLY', text: 'Interested' },
          { type: 'QUICK_REPLY', text: 'Not for me', opt_out: true },
        ],
      });
      const built = await buildCampaign(server, user, { template, messages: [{ status: 'delivered', recipient: '919811100021' }, { status: 'delivered', recipient: '919811100022' }] });
      const [first, second] = built.messages;
      const payload = (id: number) => `sandesh:${id}:0123456789abcdef`;
      await reply('919811100021', { type: 'button', button: { text: 'Interested', payload: payload(first!.id) } });
      await reply('919811100022', { type: 'button', button: { text: 'Not for me', payload: payload(second!.id) } });
      expect(await listed(user)).toEqual([{ recipient: '919811100022', source: 'button', reason: 'Not for me' }]);
      // "Stop promotions" is a keyword too: Meta's own button opts out wherever it was made.
      await reply('919811100023', { type: 'button', button: { text: 'Stop promotions', payload: 'made-at-meta' } });
      expect((await listed(user)).map((r) => [r.recipient, r.source])).toContainEqual(['919811100023', 'button']);
    });

    it("follows the account's own keywords once edited, and restores the defaults", async () => {
      const { client, user, text } = await account();
      const saved = await client.put<{ keywords: string[]; custom: boolean }>('/api/suppressions/keywords', { keywords: ['Band', 'No more offers'] });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ keywords: ['Band', 'No more offers'], custom: true });
      expect((await client.put('/api/suppressions/keywords', { keywords: ['START'] })).status).toBe(400);
      await text('919811100031', 'band');
      await text('919811100032', 'STOP');
      expect((await listed(user)).map((r) => r.recipient)).toEqual(['919811100031']);
      const reset = await client.put<{ keywords: string[]; custom: boolean }>('/api/suppressions/keywords', { keywords: null });
      expect(reset.body.custom).toBe(false);
      expect(reset.body.keywords).toContain('STOP');
    });

    it('keeps the effect on the stored message, lets the last of STOP and START in one body stand, and never reads a caption', async () => {
      const { client, user, number } = await account();
      const at = t();
      const message = (id: string, from: string, extra: Record<string, unknown>) => ({ id: `wamid.batch.${Date.now()}.${id}`, from, timestamp: at, ...extra });
      const body = webhookBody({
        id: 'sim',
        changes: [
          numberChange(number.phone_number_id, {
            messages: [
              message('1', '919811100061', { type: 'text', text: { body: 'STOP' } }),
              message('2', '919811100061', { type: 'text', text: { body: 'start' } }),
              message('3', '919811100062', { type: 'text', text: { body: 'Stop' } }),
              message('4', '919811100063', { type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'STOP' } }),
              message('5', '919811100064', { type: 'text', text: { body: 'please stop sending' } }),
            ],
          }),
        ],
      });
      expect((await postWebhook(server.url, body, server.config.simulator.appSecret)).status).toBe(200);
      await server.services.conversations.drain();
      expect((await listed(user)).map((r) => r.recipient)).toEqual(['919811100062']);
      const stored = (await server.db('conversation_messages').where({ userId: user.id, direction: 'in' }).orderBy('id').select('contact', 'replyEffect')) as { contact: string; replyEffect: string | null }[];
      expect(stored).toEqual([
        { contact: '919811100061', replyEffect: 'opt_out' },
        { contact: '919811100061', replyEffect: 'opt_in' },
        { contact: '919811100062', replyEffect: 'opt_out' },
        { contact: '919811100063', replyEffect: null },
        { contact: '919811100064', replyEffect: 'flag' },
      ]);
      // The thread API shows each message's effect (newest first).
      const effects = async (phone: string) => {
        const thread = await client.get<TConversationThread>(`/api/conversations/${phone}/messages`);
        expect(thread.status).toBe(200);
        return thread.body.data.map((m) => [m.text, m.reply_effect]);
      };
      expect(await effects('919811100061')).toEqual([
        ['start', 'opted_in'],
        ['STOP', 'opted_out'],
      ]);
      expect(await effects('919811100062')).toEqual([['Stop', 'opted_out']]);
      expect((await effects('919811100063'))[0]?.[1]).toBeNull();
      expect(await effects('919811100064')).toEqual([['please stop sending', 'flagged']]);
    });

    it('records the preference webhook as its source', async () => {
      const { user, number } = await account();
      const body = webhookBody({ id: 'sim', changes: [numberChange(number.phone_number_id, { user_preferences: [{ wa_id: '919811100041', category: 'marketing_messages', value: 'stop', timestamp: t() }] })] });
      expect((await postWebhook(server.url, body, server.config.simulator.appSecret)).status).toBe(200);
      expect(await listed(user)).toEqual([{ recipient: '919811100041', source: 'preference_webhook', reason: '' }]);
    });
  });

  describe('the suppression list API', () => {
    it('adds with a reason, lists newest first in cursor pages, searches, and deletes, by session and by API key', async () => {
      const { client } = await account();
      const key = await apiKeyFor(client);
      const keyed = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

      const first = await client.post<TSuppression>('/api/suppressions', { phone: '98111 00051', reason: 'Asked on a call' });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ phone: '919811100051', source: 'manual', reason: 'Asked on a call' });
      expect((await client.post('/api/suppressions', { phone: '919811100051' })).status).toBe(200);
      expect((await client.post('/api/suppressions', { phone: 'abc' })).status).toBe(400);

      const byKey = await keyed('/api/suppressions', { method: 'POST', body: JSON.stringify({ phone: '919811100052' }) });
      expect(byKey.status).toBe(201);
      for (let i = 0; i < 55; i += 1) await client.post('/api/suppressions', { phone: `9198222${String(i).padStart(5, '0')}` });

      const page1 = await client.get<TSuppressionsPage>('/api/suppressions');
      expect(page1.body.data).toHaveLength(50);
      expect(page1.body.has_more).toBe(true);
      expect(page1.body.data[0]!.phone).toBe('919822200054');
      const page2 = await client.get<TSuppressionsPage>(`/api/suppressions?cursor=${page1.body.next_cursor}`);
      expect(page2.body.data.map((s) => s.phone).slice(-2)).toEqual(['919811100052', '919811100051']);
      expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });

      const byDigits = await keyed('/api/suppressions?q=98111');
      expect(((await byDigits.json()) as TSuppressionsPage).data.map((s) => s.phone)).toEqual(['919811100052', '919811100051']);
      const byReason = await client.get<TSuppressionsPage>('/api/suppressions?q=call');
      expect(byReason.body.data.map((s) => s.phone)).toEqual(['919811100051']);

      expect((await keyed('/api/suppressions/919811100051', { method: 'DELETE' })).status).toBe(204);
      expect((await client.delete('/api/suppressions/919811100051')).status).toBe(404);
      expect((await client.get<TSuppressionsPage>('/api/suppressions?q=98111')).body.data.map((s) => s.phone)).toEqual(['919811100052']);
    });

    it("keeps each account's list to itself", async () => {
      const a = await account();
      const b = await account();
      await a.client.post('/api/suppressions', { phone: '919811100061' });
      expect((await b.client.get<TSuppressionsPage>('/api/suppressions')).body.data).toEqual([]);
      expect((await b.client.delete('/api/suppressions/919811100061')).status).toBe(404);
    });

    it('imports a CSV (header, reasons, duplicates, bad rows) and exports the list', async () => {
      const { client } = await account();
      await client.post('/api/suppressions', { phone: '919811100071' });
      const csv = 'Name,Phone,Reason\r\nAsha,919811100071,dup\r\nRavi,98111 00072,"Asked, politely"\r\nX,abc,\r\nMeena,+91 98111 00073,\r\nRavi again,9811100072,\r\n';
      const imported = await client.post<TImportSuppressionsResult>('/api/suppressions/import', { csv });
      expect(imported.status).toBe(200);
      expect(imported.body).toEqual({ added: 2, skipped: 1, invalid: 1 });
      const page = await client.get<TSuppressionsPage>('/api/suppressions');
      expect(page.body.data.map((s) => [s.phone, s.source, s.reason])).toEqual([
        ['919811100073', 'import', ''],
        ['919811100072', 'import', 'Asked, politely'],
        ['919811100071', 'manual', ''],
      ]);
      expect((await client.post('/api/suppressions/import', { csv: '\r\n' })).status).toBe(400);

      const exported = await fetch(`${server.url}/api/suppressions/export`, { headers: { authorization: `Bearer ${await apiKeyFor(client, 'export')}` } });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toContain('text/csv');
      const lines = (await exported.text()).trim().split('\r\n');
      expect(lines[0]).toBe('phone,source,reason,created_at');
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['919811100071', '919811100072', '919811100073']);
      expect(lines[2]).toContain('"Asked, politely"');
    });

    it('a suppressed number is counted in the preview and excluded from the send', async () => {
      const { client, user } = await account();
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      await client.post('/api/suppressions', { phone: '919811100082', reason: 'No' });
      const send = (dry_run: boolean) =>
        client.post<{ preview: TCostPreview; data: { accepted: number; suppressed: number; campaignId: number } }>('/api/whatsapp/quick-send', {
          phone_number_id: number.phone_number_id,
          template_name: template.name,
          language: 'en_US',
          recipients_text: '919811100081\n919811100082',
          variables: { '1': 'Asha', '2': 'A-17' },
          dry_run,
        });
      const preview = await send(true);
      expect(preview.status).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 2, billable: 1, suppressed: 1 });
      const sent = await send(false);
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({ accepted: 1, suppressed: 1 });
      const row = (await server.db('messages').where({ campaignId: sent.body.data.campaignId, recipient: '919811100082' }).first('status', 'priceUnits')) as { status: string; priceUnits: number };
      expect(row).toMatchObject({ status: 'suppressed', priceUnits: 0 });
    });
  });
});
