import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaign, TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import { TestClient } from '../../server/test/client';
import { buildCampaign, buildMessage, buildTemplate, buildUser, signedInClient, uniquePhone } from '../../server/test/factories';
import { pngFile } from '../../server/test/media';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { apiKeyFor, postApiSend, sandboxNumber } from '../../server/test/sending';
import { numberChange, postWebhook, statusEvent, webhookBody } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { metaRejectionText } from '../../server/src/templates/templateEvents';

describe.skipIf(postgresUnavailable)('sending: quick send, personalised send, dispatch and statuses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const settled = (c: TCampaign) => c.status === 'completed' && c.counts.queued === 0 && c.counts.sending === 0 && c.counts.sent === 0;

  async function ledger(userId: number): Promise<{ type: string; amount: number }[]> {
    return (await server.db('credit_transactions').where({ userId }).orderBy('id').select('type', 'amount')) as { type: string; amount: number }[];
  }

  it('lists the sandbox number every user gets', async () => {
    const { client } = await signedInClient(server);
    const number = await sandboxNumber(client);
    expect(number).toMatchObject({ provider: 'simulator', is_sandbox: true, label: expect.stringContaining('Sandbox') });
    expect((await new TestClient(server.url).get('/api/whatsapp/numbers')).status).toBe(401);
  });

  it('sends a quick send end to end: charges, statuses from webhooks, test numbers and a refund', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const number = await sandboxNumber(client);
    const res = await client.post<{ data: TCampaignAccepted; message: string }>('/api/whatsapp/quick-send', {
      phone_number_id: number.phone_number_id,
      template_name: template.name,
      language: 'en_US',
      recipients_text: '919811110001\n+91 98111 10002, 919811110000\n919811113333\n919811113333\nabc',
      variables: { '1': 'Asha', '2': 'A-17' },
      campaign_name: 'Diwali',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 4, duplicates: 1, invalid: 1, suppressed: 0, totalCost: 3.2 });
    expect(res.body.message).toBe(fillMessage(messages.sending.quickSendAccepted, { count: '4' }));

    const campaign = await waitForCampaign(client, res.body.data.campaignId, (c) => settled(c) && c.counts.read >= 2);
    expect(campaign.counts).toMatchObject({ failed: 1, delivered: 1, read: 2, queued: 0, sending: 0 });
    expect(campaign.refunded).toBe(0.8);

    const rows = (await server.db('messages').where({ campaignId: campaign.id }).orderBy('recipient').select('recipient', 'status', 'errorCode', 'attempts', 'deliveredAt', 'readAt')) as {
      recipient: string;
      status: string;
      errorCode: number | null;
      attempts: number;
    }[];
    const byRecipient = Object.fromEntries(rows.map((r) => [r.recipient, r]));
    expect(byRecipient['919811110000']).toMatchObject({ status: 'failed', errorCode: 131026 });
    expect(byRecipient['919811110001']).toMatchObject({ status: 'delivered' });
    // 0002 is refused once with 130429, then goes through.
    expect(byRecipient['919811110002']).toMatchObject({ status: 'read', attempts: 2 });
    expect(byRecipient['919811113333']).toMatchObject({ status: 'read' });

    expect(await ledger(user.id)).toEqual([
      { type: 'OPENING_BALANCE_ADD', amount: 100_000 },
      { type: 'CAMPAIGN_DEBIT', amount: -32_000 },
      { type: 'REFUND_ADD', amount: 8_000 },
    ]);
    expect(await server.services.wallet.balance(user.id)).toBe(100_000 - 24_000);

    // The simulator rendered what the recipient saw.
    const seen = await client.get('/simulator/messages?to=919811113333');
    expect(JSON.stringify(seen.body)).toContain('Hi Asha, your order A-17 ships today');
  });

  it('blocks an identical send within the window as Duplicate Blocked, uncharged', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const number = await sandboxNumber(client);
    const payload = { phone_number_id: number.phone_number_id, template_name: template.name, language: 'en_US', recipients_text: '919822220011', variables: ['Ravi', 'B-1'] };
    const first = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', payload);
    expect(first.body.data).toMatchObject({ accepted: 1, duplicates: 0 });
    const second = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', payload);
    expect(second.body.data).toMatchObject({ accepted: 0, duplicates: 1, totalCost: 0 });
    const row = (await server.db('messages').where({ campaignId: second.body.data.campaignId }).first()) as { status: string; priceUnits: number; errorMessage: string };
    expect(row).toMatchObject({ status: 'duplicate', priceUnits: 0, errorMessage: 'Duplicate Blocked' });
    // Different values are a different message.
    const third = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', { ...payload, variables: ['Ravi', 'B-2'] });
    expect(third.body.data).toMatchObject({ accepted: 1 });
  });

  it('refuses what cannot be sent, with the catalogue messages, and queues nothing', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1 });
    const template = await buildTemplate(server, user);
    const number = await sandboxNumber(client);
    const base = { phone_number_id: number.phone_number_id, template_name: template.name, language: 'en_US', variables: { '1': 'A', '2': 'B' } };

    const missing = await client.post('/api/whatsapp/quick-send', { ...base, template_name: '' , recipients_text: '919833330001' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe(messages.sending.missingFields);

    const none = await client.post('/api/whatsapp/quick-send', { ...base, recipients_text: 'abc, 12' });
    expect(none.body.error).toBe(messages.sending.noValidRecipients);

    const variable = await client.post('/api/whatsapp/quick-send', { ...base, variables: { '1': 'A' }, recipients_text: '919833330001' });
    expect(variable.body.error).toBe(fillMessage(messages.sending.variableMissing, { name: '2' }));

    const wrongNumber = await client.post('/api/whatsapp/quick-send', { ...base, phone_number_id: 'not-mine', recipients_text: '919833330001' });
    expect(wrongNumber.body.error).toBe(messages.sending.numberNotFound);

    const poor = await client.post('/api/whatsapp/bulk-quick-send', { ...base, recipients_text: '919833330001\n919833330002' });
    expect(poor.status).toBe(402);
    expect(poor.body.error).toBe(fillMessage(messages.sending.insufficientBalance, { cost: '1.60', balance: '1.00' }));
    expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(0);
    expect(await server.services.wallet.balance(user.id)).toBe(10_000);
  });

  it('requires the header image of an image template, checks it, and sends its link', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { headerType: 'image', body: 'Offer for {{1}}' });
    const number = await sandboxNumber(client);
    const fields = { phone_number_id: number.phone_number_id, template_name: template.name, language: 'en_US', recipients_text: '919844440001', variables: JSON.stringify({ '1': 'Meena' }) };

    const form = (file?: { content: Buffer; name: string; type: string }) => {
      const data = new FormData();
      for (const [key, value] of Object.entries(fields)) data.append(key, value);
      if (file) data.append('headerImage', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
      return data;
    };
    const wrongType = await client.post('/api/whatsapp/quick-send', form({ content: Buffer.from('%PDF-1.4 not an image'), name: 'x.png', type: 'image/png' }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toBe(messages.sending.imageWrongType);

    const ok = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', form({ content: pngFile(), name: 'banner.png', type: 'image/png' }));
    expect(ok.status).toBe(200);
    const campaign = (await server.db('campaigns').where({ id: ok.body.data.campaignId }).first()) as { headerMediaPath: string; headerMediaType: string };
    expect(campaign.headerMediaType).toBe('image');
    // The provider fetches the image from its public link.
    const media = await fetch(`${server.url}/${campaign.headerMediaPath}`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    await waitForCampaign(client, ok.body.data.campaignId, (c) => c.processed === 1);
  });

  it('imports recipients from a file and parses a spreadsheet', async () => {
    const { client } = await signedInClient(server);
    const csv = (text: string, name = 'numbers.csv') => {
      const data = new FormData();
      data.append('file', new Blob([text], { type: 'text/csv' }), name);
      return data;
    };
    const imported = await client.post<{ data: { valid_numbers: string[]; valid_count: number; invalid_count: number } }>('/api/whatsapp/import-recipients', csv('phone\n919855550001\n+91 98555 50002\nnope\n919855550001\n'));
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ valid_numbers: ['919855550001', '919855550002'], valid_count: 2 });
    expect(imported.body.data.invalid_count).toBeGreaterThanOrEqual(1);

    const wrongType = await client.post('/api/whatsapp/import-recipients', csv('x', 'numbers.txt'));
    expect(wrongType.body.error).toBe(messages.sending.importInvalidFileType);

    const parsed = await client.post<{ data: { rows: Record<string, string>[]; columns: string[]; totalRows: number; truncated: boolean } }>(
      '/api/whatsapp/parse-excel',
      csv('Phone,Name,Order\n919855550010,"Kumar, R",A1\n919855550011,Lata,A2\n', 'people.csv'),
    );
    expect(parsed.body.data).toEqual({
      columns: ['Phone', 'Name', 'Order'],
      rows: [
        { Phone: '919855550010', Name: 'Kumar, R', Order: 'A1' },
        { Phone: '919855550011', Name: 'Lata', Order: 'A2' },
      ],
      totalRows: 2,
      truncated: false,
    });
    const badType = await client.post('/api/whatsapp/parse-excel', csv('x', 'people.pdf'));
    expect(badType.body.error).toBe(messages.sending.invalidFileTypeSpreadsheet);
  });

  it('sends personalised messages from spreadsheet rows, normal and bulk paths', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const number = await sandboxNumber(client);
    const payload = {
      templateName: template.name,
      language: 'en_US',
      phoneNumberId: number.phone_number_id,
      recipientColumn: 'Phone',
      variableMappings: { '1': 'Name', '2': 'Order' },
      data: [
        { Phone: '919866660001', Name: 'Anil', Order: 'X1' },
        { Phone: 919866660002, Name: 'Bina', Order: 'X2' },
        { Phone: 'n/a', Name: 'Nobody', Order: 'X3' },
        { Phone: '919866660003', Name: '', Order: 'X4' },
      ],
    };
    const normal = await client.post<{ sent_count: number; data: TCampaignAccepted }>('/api/whatsapp/send-custom-messages', payload);
    expect(normal.status).toBe(200);
    expect(normal.body.sent_count).toBe(2);
    const campaign = await waitForCampaign(client, normal.body.data.campaignId, (c) => c.processed === 2);
    expect(campaign.source).toBe('custom');
    const seen = await client.get('/simulator/messages?to=919866660002');
    expect(JSON.stringify(seen.body)).toContain('Hi Bina, your order X2 ships today');

    const bulk = await client.post<{ data: { successful_sends: number; failed_sends: number } }>('/api/whatsapp/bulk-customize-send', {
      ...payload,
      data: payload.data.map((row) => ({ ...row, Order: `${row.Order}-b` })),
    });
    expect(bulk.body.data).toMatchObject({ successful_sends: 2, failed_sends: 2 });

    const missingColumn = await client.post('/api/whatsapp/send-custom-messages', { ...payload, recipientColumn: 'Mobile' });
    expect(missingColumn.body.error).toBe(fillMessage(messages.sending.recipientColumnMissing, { column: 'Mobile' }));
    const empty = await client.post('/api/whatsapp/send-custom-messages', { ...payload, data: [] });
    expect(empty.body.error).toBe(messages.sending.noRecipientsInFile);
  });

  it('previews the cost in the shape the sending decision record fixes', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 5 });
    const template = await buildTemplate(server, user, { category: 'UTILITY' });
    const res = await client.post<{ preview: TCostPreview }>('/api/send/cost-preview', {
      username: user.username,
      templatename: template.name,
      recipients: ['919877770001', '919877770002', 'bad', '919877770001'],
    });
    expect(res.status).toBe(200);
    expect(res.body.preview).toEqual({
      recipients: 4,
      billable: 2,
      duplicates: 1,
      invalid: 1,
      category: 'UTILITY',
      pricePerMessage: 0.15,
      totalCost: 0.3,
      currency: 'INR',
      balance: 5,
      balanceAfter: 4.7,
      sufficient: true,
      exact: true,
    });
  });

  describe('webhooks', () => {
    const post = (body: unknown, secret = server.config.simulator.appSecret) => postWebhook(server.url, body, secret);
    const envelope = (phoneNumberId: string, value: Record<string, unknown>) => webhookBody({ id: 'WABA', changes: [numberChange(phoneNumberId, value)] });
    const status = statusEvent;

    it('refuses a forged signature and answers the hub handshake only with a known token', async () => {
      const { client } = await signedInClient(server);
      const number = await sandboxNumber(client);
      const forged = await post(envelope(number.phone_number_id, { statuses: [] }), 'not-the-secret');
      expect(forged.status).toBe(401);
      const unsigned = await fetch(`${server.url}/api/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(unsigned.status).toBe(401);
      const handshake = await fetch(`${server.url}/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=123`);
      expect(handshake.status).toBe(403);
    });

    it('moves statuses only forward, ignores repeats and late ones, and waits for unknown ids', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const { campaignId } = await buildCampaign(server, user, { template, senderNumberId: number.id, messages: [{ status: 'sent', recipient: '919888880001', providerMessageId: 'wamid.manual1' }] });
      const t = Math.floor(Date.now() / 1000);
      expect((await post(envelope(number.phone_number_id, { statuses: [status('wamid.manual1', 'read', t + 2)] }))).status).toBe(200);
      expect((await post(envelope(number.phone_number_id, { statuses: [status('wamid.manual1', 'delivered', t + 1), status('wamid.manual1', 'read', t + 2)] }))).status).toBe(200);
      expect((await post(envelope(number.phone_number_id, { statuses: [status('wamid.manual1', 'failed', t + 3)] }))).status).toBe(200);
      await server.services.engine.ingest.drain();
      const row = (await server.db('messages').where({ providerMessageId: 'wamid.manual1' }).first()) as { status: string; readAt: unknown; deliveredAt: unknown; refunded: unknown };
      expect(row.status).toBe('read');
      expect(row.readAt).toBeTruthy();
      expect(row.deliveredAt).toBeTruthy();
      expect(Boolean(row.refunded)).toBe(false);

      // An event for an id not stored yet is kept and applied once the id appears.
      await post(envelope(number.phone_number_id, { statuses: [status('wamid.later', 'delivered', t + 1, '919888880002')] }));
      await server.services.engine.ingest.drain();
      await buildMessage(server, { campaignId, userId: user.id }, { status: 'sent', recipient: '919888880002', providerMessageId: 'wamid.later' });
      await pollUntil(
        async () => ((await server.db('messages').where({ providerMessageId: 'wamid.later' }).first('status')) as { status: string }).status,
        (state) => state === 'delivered',
        { what: 'the held event for an id stored later', timeoutMs: 8_000, intervalMs: 100 },
      );
    });

    it("checks a business's own webhooks with its app secret, and applies template review outcomes to PENDING templates", async () => {
      const { client: admin } = await signedInClient(server, { role: 'admin' });
      const { user } = await signedInClient(server);
      const approved = await buildTemplate(server, user);
      // Still waiting for review: the only state a provider's outcome may move.
      const template = await buildTemplate(server, user, { status: 'PENDING', body: 'Sale on {{1}}' });
      const numberId = String(Date.now()).slice(-12);
      const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
        businessName: 'Asha Stores',
        whatsappNumber: '+91 98000 12345',
        whatsappNumberId: numberId,
        wabaId: `waba${numberId}`,
        accessToken: 'EAAG-access-token-for-tests-0123456789',
        appSecret: 'business-app-secret-123',
        isActive: true,
      });
      expect(saved.status).toBe(200);
      // Signed with the simulator's secret: not this business's webhook.
      expect((await post(envelope(numberId, { statuses: [] }))).status).toBe(401);
      expect((await post(envelope(numberId, { statuses: [] }), 'business-app-secret-123')).status).toBe(200);

      const review = {
        object: 'whatsapp_business_account',
        entry: [{ id: `waba${numberId}`, time: 1, changes: [{ field: 'message_template_status_update', value: { event: 'REJECTED', message_template_id: 1, message_template_name: template.name, message_template_language: 'en_US', reason: 'INCORRECT_CATEGORY' } }] }],
      };
      expect((await post(review)).status).toBe(401);
      expect((await post(review, 'business-app-secret-123')).status).toBe(200);
      const row = (await server.db('templates').where({ id: template.id }).first('status', 'rejectionReason')) as { status: string; rejectionReason: string };
      expect(row).toEqual({ status: 'REJECTED', rejectionReason: metaRejectionText('INCORRECT_CATEGORY') });
      const reviewApproved = JSON.parse(JSON.stringify(review).replace(template.name, approved.name)) as typeof review;
      expect((await post(reviewApproved, 'business-app-secret-123')).status).toBe(200);
      expect(((await server.db('templates').where({ id: approved.id }).first('status')) as { status: string }).status).toBe('APPROVED');
    });

    it('suppresses recipients who reply STOP or opt out, and does not charge them', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const t = String(Math.floor(Date.now() / 1000));
      await post(envelope(number.phone_number_id, { contacts: [{ wa_id: '919899990001' }], messages: [{ id: 'wamid.in1', from: '919899990001', timestamp: t, type: 'text', text: { body: 'STOP' } }] }));
      await post(envelope(number.phone_number_id, { user_preferences: [{ wa_id: '919899990002', detail: 'stop', category: 'marketing_messages', value: 'stop', timestamp: t }] }));
      // Replies are acknowledged at once and applied in batches; the opt-out rule runs in the batch.
      await server.services.conversations.drain();
      const res = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
        phone_number_id: number.phone_number_id,
        template_name: template.name,
        language: 'en_US',
        recipients_text: '919899990001\n919899990002\n919899990003',
        variables: { '1': 'A', '2': 'B' },
      });
      expect(res.body.data).toMatchObject({ accepted: 1, suppressed: 2, totalCost: 0.8 });
      // START undoes a STOP.
      await post(envelope(number.phone_number_id, { messages: [{ id: 'wamid.in2', from: '919899990001', timestamp: t, type: 'text', text: { body: 'start' } }] }));
      await server.services.conversations.drain();
      expect(await server.db('suppressions').where({ userId: user.id, recipient: '919899990001' })).toHaveLength(0);
    });
  });

  describe('public send API', () => {
    const keyFor = (client: TestClient) => apiKeyFor(client);
    const sendApi = <T = Record<string, unknown>>(key: string, body: unknown, path = '/api/send') => postApiSend<T>(server.url, key, body, path);

    it('accepts a message with var fields, answers its id, and sends it', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const res = await sendApi<{ success: boolean; message_id: string; message: string; campaign_id: number }>(key, { username: user.username, templatename: template.name, recipient_number: '+919811000001', var1: 'Joy', var2: 'Z9' });
      expect(res.status).toBe(200);
      const body = res.body;
      expect(body).toMatchObject({ success: true, message: messages.publicApi.sent, message_id: expect.stringMatching(/^msg_\d+$/) });
      await waitForCampaign(client, body.campaign_id, (c) => c.processed === 1);
      const seen = await client.get('/simulator/messages?to=919811000001');
      expect(JSON.stringify(seen.body)).toContain('Hi Joy, your order Z9 ships today');
      // X-API-Key works too.
      const viaHeader = await fetch(`${server.url}/api/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ username: user.username, templatename: template.name, recipient_number: '919811000002', var1: 'A', var2: 'B' }),
      });
      expect(viaHeader.status).toBe(200);
    });

    it('answers 400 for missing fields, 401 for another username or a wrong key, 402 when the wallet is short', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 1 });
      const other = await buildUser(server);
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const missing = await sendApi<{ error: string }>(key, { username: user.username, templatename: template.name });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe(messages.publicApi.missingFields);
      const notOwner = await sendApi<{ error: string }>(key, { username: other.username, templatename: template.name, recipient_number: '919811000003', var1: 'a', var2: 'b' });
      expect(notOwner.status).toBe(401);
      expect(notOwner.body.error).toBe(messages.publicApi.invalidCredentials);
      expect((await sendApi('snd_wrong', { username: user.username, templatename: template.name, recipient_number: '919811000003' })).status).toBe(401);
      const badNumber = await sendApi<{ error: string }>(key, { username: user.username, templatename: template.name, recipient_number: '12', var1: 'a', var2: 'b' });
      expect(badNumber.body.error).toBe(messages.publicApi.invalidRecipient);
      const noVar = await sendApi(key, { username: user.username, templatename: template.name, recipient_number: '919811000003', var1: 'a' });
      expect(noVar.status).toBe(400);
      const first = await sendApi(key, { username: user.username, templatename: template.name, recipient_number: '919811000004', var1: 'a', var2: 'b' });
      expect(first.status).toBe(200);
      const poor = await sendApi(key, { username: user.username, templatename: template.name, recipient_number: '919811000005', var1: 'a', var2: 'b' });
      expect(poor.status).toBe(402);
    });

    it('accepts a burst together, charging each message once and blocking repeats as duplicates', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 100 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const bodies = Array.from({ length: 30 }, (_, i) => ({ username: user.username, templatename: template.name, recipient_number: `9198120${5000 + (i % 25)}`, var1: 'x', var2: 'y' }));
      const answers = await Promise.all(bodies.map((body) => sendApi<{ message_id: string; status: string }>(key, body)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body.message_id)).size).toBe(30);
      expect(answers.filter((a) => a.body.status === 'duplicate')).toHaveLength(5);
      const debits = (await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' }).sum({ total: 'amount' })) as { total: number | string }[];
      expect(Number(debits[0]?.total)).toBe(-25 * 8000);
    });

    it('accepts a batch as one campaign', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const res = await sendApi<{ data: TCampaignAccepted }>(
        key,
        { username: user.username, templatename: template.name, messages: [{ recipient_number: '919813000001', var1: 'a', var2: 'b' }, { recipient_number: '919813000002', var1: 'c', var2: 'd' }, { recipient_number: 'x' }] },
        '/api/send/batch',
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 2, invalid: 1, totalCost: 1.6 });
    });
  });

  it('sends the password-reset code through the provider path', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const res = await new TestClient(server.url).post('/api/auth/forgot-password', { username: user.username, phone });
    expect(res.status).toBe(200);
    const seen = await new TestClient(server.url).get<{ data: { text: string; from: string }[] }>(`/simulator/messages?to=${phone}`);
    expect(seen.body.data[0]?.text).toMatch(/^\d{6} is your .* verification code/);
    expect(seen.body.data[0]?.from).toBe(server.config.platformWhatsappNumber);
  });
});
