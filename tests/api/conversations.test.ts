/**
 * Replies: every one of Meta's 16 webhook examples (../shared/reference/meta-whatsapp-openapi,
 * `/whatsapp/webhooks`), signed and posted, is stored and shown; replies are linked to the campaign
 * message they answer; the 24-hour service window holds on our side and on the simulator's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { TConversationThread, TConversationsPage } from '@shared/schemas/conversations';
import type { TCampaign } from '@shared/schemas/sending';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { haveMetaOpenApi, META_OPENAPI } from '../../server/test/metaOpenApi';
import { campaignSettled, pollUntil, waitForCampaign } from '../../server/test/polling';
import { quickSend, sandboxNumber } from '../../server/test/sending';
import { postWebhook } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

type Example = { value: { entry: { id: string; changes: { field: string; value: Record<string, unknown> }[] }[] } };

function metaExamples(): [string, Example][] {
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { paths: Record<string, { post: { requestBody: { content: Record<string, { examples: Record<string, Example> }> } } }> };
  return Object.entries(spec.paths['/whatsapp/webhooks']!.post.requestBody.content['application/json']!.examples);
}

/** What each example must show: its kind and (part of) its text. */
const EXPECTED: Record<string, { kind: string; text: string | null; answers?: boolean } | { unknownField: string }> = {
  'Text Message': { kind: 'text', text: 'Does it come in another color?' },
  'Text Message with Context (Product Inquiry)': { kind: 'text', text: 'Is this still available?' },
  'Text Message from Click to WhatsApp Ad': { kind: 'text', text: 'Hello! Can I get more info on this?' },
  'Reaction Message': { kind: 'reaction', text: '👍' },
  'Image Message': { kind: 'image', text: 'Taj Mahal' },
  'Location Message': { kind: 'location', text: 'Philz Coffee, 101 Forest Ave, Palo Alto, CA 94301' },
  'Contact Sharing Message': { kind: 'contacts', text: 'Lucía Gómez' },
  'Unsupported Message': { kind: 'unsupported', text: null },
  'Button Message': { kind: 'button', text: 'Unsubscribe' },
  'Interactive List Reply Message': { kind: 'interactive', text: 'Priority Mail Express' },
  'Interactive Button Reply Message': { kind: 'interactive', text: 'Cancel' },
  'Order Message': { kind: 'order', text: '2 items' },
  'System Message': { kind: 'system', text: 'User Sheena Nelson changed from' },
  'Group Create Message': { unknownField: 'group_lifecycle_update' },
  'Group Settings Update': { unknownField: 'group_settings_update' },
  'Group Remove Participants': { unknownField: 'group_participants_update' },
};

describe.skipIf(postgresUnavailable || !haveMetaOpenApi)('Replies: incoming messages, the API and the service window', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signedInClient(server, { role: 'admin' })).client;
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  /** A customer with their own number and app secret, as Meta's examples name a business number. */
  async function business(): Promise<{ client: TestClient; userId: number; numberId: string; wabaId: string; secret: string }> {
    sequence += 1;
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const tag = `${Date.now() % 1e9}${sequence}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: '+91 98000 12345',
      whatsappNumberId: `1${tag}`,
      wabaId: `waba${tag}`,
      accessToken: `EAAG-access-token-for-tests-${tag}`,
      appSecret: `app-secret-${tag}`,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    return { client, userId: user.id, numberId: `1${tag}`, wabaId: `waba${tag}`, secret: `app-secret-${tag}` };
  }

  it("stores and shows each of Meta's 16 webhook examples, signed and posted", async () => {
    const owner = await business();
    const examples = metaExamples();
    expect(examples).toHaveLength(16);
    const contacts = new Map<string, string>();
    for (const [index, [name, example]] of examples.entries()) {
      // Each example its own contact, and its own message id: several of Meta's examples share one.
      const contact = `9198${String(700_000 + sequence * 100 + index).padStart(8, '0')}`;
      contacts.set(name, contact);
      const body = JSON.parse(JSON.stringify(example.value).replaceAll('16505551234', contact).replaceAll('106540352242922', owner.numberId)) as Example['value'];
      for (const entry of body.entry) {
        entry.id = owner.wabaId;
        for (const change of entry.changes) for (const message of (change.value.messages as { id: string }[] | undefined) ?? []) message.id = `${message.id}.${index}`;
      }
      const res = await postWebhook(server.url, body, owner.secret);
      expect(res.status, name).toBe(200);
    }
    await server.services.conversations.drain();

    for (const [name, expected] of Object.entries(EXPECTED)) {
      const contact = contacts.get(name) as string;
      if ('unknownField' in expected) {
        const stored = await server.db('webhook_unknown_events').where({ field: expected.unknownField, wabaId: owner.wabaId }).first();
        expect(stored, name).toBeTruthy();
        continue;
      }
      const thread = await owner.client.get<TConversationThread>(`/api/conversations/${contact}/messages`);
      expect(thread.status, name).toBe(200);
      const [message] = thread.body.data;
      expect(message, name).toMatchObject({ direction: 'in', kind: expected.kind, status: 'received' });
      if (expected.text === null) expect(message?.text ?? null, name).toBeNull();
      else expect(message?.text, name).toContain(expected.text);
      // Every example but the system notice carries the sender's profile.
      if (expected.kind !== 'system') {
        expect(message?.profile_name, name).toBe('Sheena Nelson');
        expect(thread.body.conversation.profile_name, name).toBe('Sheena Nelson');
      }
    }
    const image = (await owner.client.get<TConversationThread>(`/api/conversations/${contacts.get('Image Message')}/messages`)).body.data[0];
    // Meta is not reachable in tests: the file is marked as not fetched, never served.
    expect(image?.media).toMatchObject({ mime_type: 'image/jpeg', url: null });
    const location = (await owner.client.get<TConversationThread>(`/api/conversations/${contacts.get('Location Message')}/messages`)).body.data[0];
    expect(location?.details).toMatchObject({ latitude: 37.44221496582, longitude: -122.16165924072 });
    const order = (await owner.client.get<TConversationThread>(`/api/conversations/${contacts.get('Order Message')}/messages`)).body.data[0];
    expect((order?.details as { product_items: unknown[] }).product_items).toHaveLength(2);

    const list = await owner.client.get<TConversationsPage>('/api/conversations');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(13);
    expect(list.body.data.map((c) => c.unread)).toEqual(Array(13).fill(1));
    const byName = await owner.client.get<TConversationsPage>('/api/conversations?q=sheena');
    expect(byName.body.data).toHaveLength(12);
    const byNumber = await owner.client.get<TConversationsPage>(`/api/conversations?q=${contacts.get('Order Message')}`);
    expect(byNumber.body.data.map((c) => c.phone)).toEqual([contacts.get('Order Message')]);

    // A repeat of a delivered webhook is stored once.
    const again = JSON.parse(JSON.stringify(examples[0]![1].value).replaceAll('16505551234', contacts.get('Text Message') as string).replaceAll('106540352242922', owner.numberId)) as Example['value'];
    again.entry[0]!.id = owner.wabaId;
    (again.entry[0]!.changes[0]!.value.messages as { id: string }[])[0]!.id += '.0';
    expect((await postWebhook(server.url, again, owner.secret)).status).toBe(200);
    await server.services.conversations.drain();
    expect((await owner.client.get<TConversationThread>(`/api/conversations/${contacts.get('Text Message')}/messages`)).body.data).toHaveLength(1);
    // A new message Meta sends several times at once is stored once too (the copies may share one insert).
    (again.entry[0]!.changes[0]!.value.messages as { id: string }[])[0]!.id += '.new';
    const copies = await Promise.all([1, 2, 3].map(() => postWebhook(server.url, again, owner.secret)));
    expect(copies.map((res) => res.status)).toEqual([200, 200, 200]);
    await server.services.conversations.drain();
    expect((await owner.client.get<TConversationThread>(`/api/conversations/${contacts.get('Text Message')}/messages`)).body.data).toHaveLength(2);

    // Read: the unread count goes to 0; another user sees none of it.
    const read = await owner.client.post<{ data: { unread: number } }>(`/api/conversations/${contacts.get('Text Message')}/read`, {});
    expect(read.body.data.unread).toBe(0);
    const stranger = (await signedInClient(server, {})).client;
    expect((await stranger.get(`/api/conversations/${contacts.get('Text Message')}/messages`)).status).toBe(404);
    expect((await stranger.get<TConversationsPage>('/api/conversations')).body.data).toHaveLength(0);
  });

  it('links replies, taps and photos to the campaign, answers inside the window and refuses outside it', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await buildTemplate(server, user, {
      body: 'Hi {{1}}, your order {{2}} ships today',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Yes, send me the price' },
        { type: 'QUICK_REPLY', text: 'Not now' },
      ],
    });
    const contacts = ['919811100101', '919811100102', '919811100103'];
    const accepted = await quickSend(client, { template, recipients: contacts, variables: { '1': 'Asha', '2': 'A-1' }, campaignName: 'Replies' });
    await waitForCampaign(client, accepted.campaignId, (c) => campaignSettled(c) && c.counts.read === 3);
    const number = await sandboxNumber(client);
    const inbox = (body: Record<string, unknown>) =>
      fetch(`${server.url}/simulator/inbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number_id: number.phone_number_id, ...body }) });

    expect((await inbox({ from: contacts[0], name: 'Asha', text: 'Yes, send me the price' })).status).toBe(201);
    expect((await inbox({ from: contacts[1], name: 'Ravi', button: 'Yes, send me the price' })).status).toBe(201);
    expect((await inbox({ from: contacts[2], name: 'Meena', photo: true, caption: 'This one?' })).status).toBe(201);
    // A button the template does not have is refused by the simulator.
    expect((await inbox({ from: contacts[2], button: 'Maybe' })).status).toBe(400);

    const threads = await pollUntil(
      () => Promise.all(contacts.map((c) => client.get<TConversationThread>(`/api/conversations/${c}/messages`))),
      (all) => all.every((t) => t.status === 200 && t.body.data[0]?.answers !== null && (t.body.data[0]?.kind !== 'image' || t.body.data[0]?.media?.state === 'stored')),
      { what: 'replies linked to the campaign' },
    );
    for (const thread of threads) expect(thread.body.data[0]?.answers).toMatchObject({ campaign_id: accepted.campaignId, campaign_name: 'Replies', template: template.name });
    expect(threads[1]!.body.data[0]).toMatchObject({ kind: 'button', button_text: 'Yes, send me the price' });
    expect(threads[0]!.body.campaign_messages[0]).toMatchObject({ campaign_id: accepted.campaignId, status: 'read' });
    const photo = threads[2]!.body.data[0]!;
    expect(photo.media).toMatchObject({ state: 'stored', mime_type: 'image/jpeg' });
    const file = await client.get(photo.media!.url as string);
    expect(file.status).toBe(200);
    // Only its owner may read it.
    expect((await (await signedInClient(server, {})).client.get(photo.media!.url as string)).status).toBe(404);

    const campaign = (await client.get<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}`)).body.data;
    expect(campaign).toMatchObject({ replies: 3, reply_rate: 100 });
    const learnt = await client.get<{ data: { replies: number; button_taps: { text: string; taps: number }[] } }>(`/api/campaigns/${accepted.campaignId}/replies`);
    expect(learnt.body.data).toMatchObject({ replies: 3, button_taps: [{ text: 'Yes, send me the price', taps: 1, contacts: 1 }] });
    const byCampaign = await client.get<TConversationsPage>(`/api/conversations?campaign_id=${accepted.campaignId}`);
    expect(byCampaign.body.data.map((c) => c.phone).sort()).toEqual([...contacts].sort());

    // Inside the window: the answer goes out as a service message and reaches the contact.
    const sent = await client.post<{ data: { status: string; id: string } }>(`/api/conversations/${contacts[0]}/messages`, { text: 'It is ₹1,499. Shall I reserve one?' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.status).toBe('accepted');
    const outbox = await pollUntil(
      () => fetch(`${server.url}/simulator/messages?to=${contacts[0]}`).then((r) => r.json() as Promise<{ data: { kind: string; text: string }[] }>),
      (box) => box.data.some((m) => m.kind === 'text' && m.text === 'It is ₹1,499. Shall I reserve one?'),
      { what: 'the answer in the simulator' },
    );
    expect(outbox.data[0]?.kind).toBe('text');
    await pollUntil(
      () => client.get<TConversationThread>(`/api/conversations/${contacts[0]}/messages`),
      (t) => t.body.data[0]?.direction === 'out' && t.body.data[0]?.status === 'read',
      { what: 'the answer read' },
    );

    // Outside the window: 409 on our side.
    await server.db('conversations').where({ userId: user.id, contact: contacts[1] }).update({ lastInboundAt: new Date(Date.now() - 25 * 3_600_000).toISOString() });
    const closed = await client.post<{ code: string }>(`/api/conversations/${contacts[1]}/messages`, { text: 'Hello again' });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('outside_service_window');
    // And on the simulator's, as Meta answers a free-form message to a contact who never wrote (131047).
    const simulatorAnswer = await server.services.engine.providers.providerFor({ ...number, provider: 'simulator' } as never)?.sendService?.({ phoneNumberId: number.phone_number_id, to: '919811100199', content: { type: 'text', body: 'Hi' } });
    expect(simulatorAnswer).toMatchObject({ ok: false, code: 131047 });
  }, 90_000);

  it('sends a campaign again to those who replied, tapped a given button, or read without replying, previewed first', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const { client: stranger } = await signedInClient(server, { creditRupees: 5 });
    const buttons = [
      { type: 'QUICK_REPLY' as const, text: 'Yes, send me the price' },
      { type: 'QUICK_REPLY' as const, text: 'Not now' },
    ];
    const template = await buildTemplate(server, user, { buttons });
    const followUp = await buildTemplate(server, user, { body: 'Hi {{1}}, the price for {{2}} is inside', category: 'UTILITY' });
    const contacts = ['919811200101', '919811200102', '919811200103', '919811200104'];
    const accepted = await quickSend(client, { template, recipients: contacts, variables: { '1': 'Asha', '2': 'A-1' }, campaignName: 'Again' });
    await waitForCampaign(client, accepted.campaignId, (c) => campaignSettled(c) && c.counts.read === 4);
    const number = await sandboxNumber(client);
    const inbox = (body: Record<string, unknown>) =>
      fetch(`${server.url}/simulator/inbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number_id: number.phone_number_id, ...body }) });
    expect((await inbox({ from: contacts[0], text: 'Tell me more' })).status).toBe(201);
    expect((await inbox({ from: contacts[1], button: 'Yes, send me the price' })).status).toBe(201);
    expect((await inbox({ from: contacts[2], button: 'Not now' })).status).toBe(201);
    await pollUntil(
      () => client.get<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}`),
      (res) => res.body.data.replies === 3,
      { what: 'three replies linked' },
    );
    type Preview = { preview: { recipients: number; billable: number; duplicates: number; totalCost: number } };
    const path = `/api/campaigns/${accepted.campaignId}/send-again`;

    // The same template to the same people is a duplicate inside the window: shown, not charged.
    const same = await client.post<Preview>(path, { audience: 'replied' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.preview).toMatchObject({ recipients: 3, billable: 0, duplicates: 3 });

    const replied = await client.post<Preview>(path, { audience: 'replied', template_id: followUp.id });
    expect(replied.body.preview).toMatchObject({ recipients: 3, billable: 3, duplicates: 0 });
    expect(replied.body.preview.totalCost).toBeGreaterThan(0);
    const tapped = await client.post<Preview>(path, { audience: 'tapped', button: 'Yes, send me the price', template_id: followUp.id });
    expect(tapped.body.preview).toMatchObject({ recipients: 1, billable: 1 });
    const silent = await client.post<Preview>(path, { audience: 'read_no_reply', template_id: followUp.id });
    expect(silent.body.preview).toMatchObject({ recipients: 1, billable: 1 });
    // A button nobody tapped, a tap without its button, another user's campaign or template.
    expect((await client.post<{ code: string }>(path, { audience: 'tapped', button: 'Maybe' })).body.code).toBe('nobody_in_audience');
    expect((await client.post(path, { audience: 'tapped' })).status).toBe(400);
    expect((await stranger.post(path, { audience: 'replied' })).status).toBe(404);
    const otherTemplate = await buildTemplate(server, (await signedInClient(server, {})).user, {});
    expect((await client.post(path, { audience: 'replied', template_id: otherTemplate.id })).status).toBe(404);
    // "failed" is today's resend: this campaign has none.
    expect((await client.post<{ code: string }>(path, { audience: 'failed' })).body.code).toBe('nothing_to_resend');

    // Confirmed: a new campaign to those who replied, each with the values it was first sent.
    const sent = await client.post<{ data: { campaignId: number; accepted: number }; message: string }>(path, { audience: 'replied', template_id: followUp.id, confirm: true });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.accepted).toBe(3);
    expect(sent.body.message).toContain('3');
    const again = await waitForCampaign(client, sent.body.data.campaignId, (c) => campaignSettled(c));
    expect(again.name).toBe('Again (replied): Again');
    const outbox = await pollUntil(
      () => fetch(`${server.url}/simulator/messages?to=${contacts[1]}`).then((r) => r.json() as Promise<{ data: { text?: string }[] }>),
      (box) => box.data.some((m) => (m.text ?? '').includes('the price for A-1 is inside')),
      { what: 'the follow-up in the simulator' },
    );
    expect(outbox.data.length).toBeGreaterThan(0);
  }, 90_000);
});
