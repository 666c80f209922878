import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TAudiencePreview, TContact, TContactAttributeList, TContactBulkResponse, TContactHistory, TContactTagList, TSegment, TSegmentCount } from '@shared/schemas/contacts';
import type { TestClient } from '../../server/test/client';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { pngFile } from '../../server/test/media';
import { pollUntil } from '../../server/test/polling';
import { sandboxNumber } from '../../server/test/sending';
import { numberChange, postWebhook, statusEvent, webhookBody } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';
import { NEXT_BATCH_SQL, RECORD_SENDS_SQL } from '../../server/src/contacts/activity';

const c = messages.contacts;

describe.skipIf(postgresUnavailable)('the contact screens: attributes, tags, history, unsaved counts, sends to an audience, contacts from sends and replies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function bulk(client: TestClient, contacts: unknown[]): Promise<TContactBulkResponse> {
    const response = await client.post<TContactBulkResponse>('/api/contacts/bulk', { contacts });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  async function contact(client: TestClient, phone: string): Promise<TContact> {
    const response = await client.get<TContact>(`/api/contacts/${phone}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  describe('/api/contacts/attributes', () => {
    it('defines an attribute ahead of its values, lists each with how many hold it, and removes one with its values', async () => {
      const { client } = await signedInClient(server);
      const defined = await client.post('/api/contacts/attributes', { name: 'birthday', type: 'date' });
      expect(defined.status, JSON.stringify(defined.body)).toBe(201);
      expect((await client.post('/api/contacts/attributes', { name: 'birthday', type: 'text' })).status).toBe(409);
      expect((await client.post('/api/contacts/attributes', { name: '1bad', type: 'text' })).status).toBe(400);
      await bulk(client, [{ phone: '9876580001', attributes: { city: 'Pune', birthday: '1990-05-01' } }, { phone: '9876580002', attributes: { city: 'Agra' } }]);
      // The defined type holds: a value that is not a date is refused for it.
      expect((await bulk(client, [{ phone: '9876580003', attributes: { birthday: 'soon' } }])).invalid).toEqual([{ index: 0, error: fillMessage(c.attributeNotDate, { name: 'birthday' }) }]);
      expect((await client.get<TContactAttributeList>('/api/contacts/attributes')).body.data).toEqual([
        { name: 'birthday', type: 'date', contacts: 1 },
        { name: 'city', type: 'text', contacts: 2 },
      ]);
      expect((await client.delete('/api/contacts/attributes/city')).status).toBe(204);
      expect((await client.delete('/api/contacts/attributes/city')).status).toBe(404);
      expect((await contact(client, '919876580001')).attributes).toEqual({ birthday: '1990-05-01' });
      // Its column is free again: a new text attribute starts empty.
      await client.post('/api/contacts/attributes', { name: 'area', type: 'text' });
      expect((await contact(client, '919876580002')).attributes).toEqual({});
    });
  });

  it('GET /api/contacts/tags lists the tags in use with their counts', async () => {
    const { client } = await signedInClient(server);
    await bulk(client, [
      { phone: '9876581001', tags: ['vip', 'pune'] },
      { phone: '9876581002', tags: ['vip'] },
    ]);
    expect((await client.get<TContactTagList>('/api/contacts/tags')).body.data).toEqual([
      { tag: 'pune', contacts: 1 },
      { tag: 'vip', contacts: 2 },
    ]);
  });

  it('POST /api/segments/count counts a filter not saved, and refuses an attribute nobody has', async () => {
    const { client, user } = await signedInClient(server);
    await bulk(client, [
      { phone: '9876582001', tags: ['vip'], attributes: { city: 'Pune' } },
      { phone: '9876582002', tags: ['vip'], attributes: { city: 'Delhi' } },
      { phone: '9876582003', tags: ['vip'], attributes: { city: 'Pune' } },
    ]);
    await server.db('suppressions').insert({ userId: user.id, recipient: '919876582003', reason: 'STOP', createdAt: new Date().toISOString() });
    const counted = await client.post<TSegmentCount>('/api/segments/count', { filter: { tags_all: ['vip'], attributes: [{ name: 'city', op: 'eq', value: 'Pune' }] } });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body).toEqual({ count: 1, opted_out: 1 });
    const unknown = await client.post('/api/segments/count', { filter: { attributes: [{ name: 'nope', op: 'eq', value: 'x' }] } });
    expect(unknown.status).toBe(400);
    expect((await client.post('/api/segments/count', { filter: { colour: 'red' } })).status).toBe(400);
  });

  describe('POST /api/whatsapp/audience-send', () => {
    it('previews and sends to tagged contacts with attribute variables and fallbacks, opt-outs left out and counted', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user, 'Hi {{1}}, your {{2}} offer is ready');
      await bulk(client, [
        { phone: '9876583001', tags: ['diwali'], attributes: { first_name: 'Asha', plan: 'gold' } },
        { phone: '9876583002', tags: ['diwali'], attributes: { plan: 'silver' } },
        { phone: '9876583003', tags: ['diwali'], attributes: { first_name: 'Stopped', plan: 'gold' } },
        { phone: '9876583004', tags: ['other'], attributes: { first_name: 'Elsewhere', plan: 'gold' } },
      ]);
      await server.db('suppressions').insert({ userId: user.id, recipient: '919876583003', reason: 'STOP', createdAt: new Date().toISOString() });
      const body = { templatename: template.name, tags: ['diwali'], variables: { '1': 'attr:first_name', '2': 'attr:plan' }, fallbacks: { '1': 'Customer' } };

      const preview = await client.post<{ preview: TAudiencePreview }>('/api/whatsapp/audience-send', { ...body, dry_run: true });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 2, opted_out: 1, using_fallback: 1, category: template.category, sufficient: true });
      expect(preview.body.preview.cost_units).toBe(2 * preview.body.preview.price_units);
      expect(await server.db('campaigns').where({ userId: user.id }).first('id')).toBeUndefined();

      const sent = await client.post<{ data: { campaignId: number; optedOutExcluded: number } }>('/api/whatsapp/audience-send', { ...body, campaign_name: 'Diwali by tag' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.data.optedOutExcluded).toBe(1);
      const rows = (await server.db('messages').where({ campaignId: sent.body.data.campaignId }).orderBy('recipient').select('recipient', 'variables')) as { recipient: string; variables: string }[];
      expect(rows.map((row) => [row.recipient, Object.values(JSON.parse(row.variables) as Record<string, string>)])).toEqual([
        ['919876583001', ['Asha', 'gold']],
        ['919876583002', ['Customer', 'silver']],
      ]);
      const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('name', 'segment_id', 'segment_filter')) as { name: string; segmentId: number | null; segmentFilter: string };
      expect(campaign).toMatchObject({ name: 'Diwali by tag', segmentId: null });
      expect(JSON.parse(campaign.segmentFilter)).toEqual({ tags_any: ['diwali'] });
    });

    it("sends to a contact of another country at its stored number, never reading it again as an Indian mobile typed without its code", async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user, 'Hi {{1}}');
      // A Singapore number: ten digits starting with 6, as an Indian mobile typed without +91 is.
      await bulk(client, [{ phone: '+6591234567', name: 'Wei', tags: ['abroad'] }, { phone: '9876584101', name: 'Ravi', tags: ['abroad'] }]);
      const body = { templatename: template.name, tags: ['abroad'], variables: { '1': 'attr:name' } };
      const sent = await client.post<{ data: { campaignId: number } }>('/api/whatsapp/audience-send', body);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const sentTo = async (campaignId: number) => ((await server.db('messages').where({ campaignId }).orderBy('recipient').select('recipient')) as { recipient: string }[]).map((row) => row.recipient);
      expect(await sentTo(sent.body.data.campaignId)).toEqual(['6591234567', '919876584101']);
      const segment = (await client.post<TSegment>('/api/segments', { name: 'Abroad', filter: { tags_any: ['abroad'] } })).body;
      const { api } = await keyedClient(server, client);
      const batch = await api.post<{ data: { campaignId: number } }>('/api/send/batch', { username: user.username, templatename: template.name, segment_id: segment.id, variables: { '1': 'attr:name' } });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      expect(await sentTo(batch.body.data.campaignId)).toEqual(['6591234567', '919876584101']);
    });

    it('sends to a saved segment, refuses a missing value with no fallback, and asks for a segment or tags', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user, 'Hi {{1}}');
      await bulk(client, [{ phone: '9876584001', tags: ['a'], attributes: { first_name: 'Ravi' } }, { phone: '9876584002', tags: ['a'] }]);
      const segment = (await client.post<TSegment>('/api/segments', { name: 'A', filter: { tags_any: ['a'] } })).body;
      const missing = await client.post('/api/whatsapp/audience-send', { templatename: template.name, segment_id: segment.id, variables: { '1': 'attr:first_name' } });
      expect(missing.status).toBe(400);
      const sent = await client.post<{ data: { campaignId: number } }>('/api/whatsapp/audience-send', {
        templatename: template.name,
        segment_id: segment.id,
        variables: { '1': 'attr:first_name' },
        fallbacks: { '1': 'friend' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(((await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('segment_id')) as { segmentId: number }).segmentId).toBe(segment.id);
      const neither = await client.post<{ error: string }>('/api/whatsapp/audience-send', { templatename: template.name });
      expect(neither.status).toBe(400);
      expect(neither.body.error).toBe(c.audienceRequired);
    });
  });

  it('POST /api/whatsapp/audience-send schedules the send as Quick Send does, and refuses a time past', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await approvedTemplate(server, user, 'Hi {{1}}');
    await bulk(client, [{ phone: '9876590001', tags: ['later'], attributes: { first_name: 'Asha' } }]);
    const body = { templatename: template.name, tags: ['later'], variables: { '1': 'attr:first_name' } };
    const at = new Date(Date.now() + 2 * 3_600_000);
    const sent = await client.post<{ data: { campaignId: number; accepted: number } }>('/api/whatsapp/audience-send', { ...body, scheduledAt: at.toISOString() });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.accepted).toBe(1);
    const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('status', 'scheduledAt')) as { status: string; scheduledAt: string | Date };
    expect(campaign.status).toBe('scheduled');
    expect(new Date(campaign.scheduledAt).getTime()).toBe(at.getTime());
    expect(await server.db('messages').where({ campaignId: sent.body.data.campaignId }).whereNot('status', 'queued').first('id')).toBeUndefined();
    for (const dryRun of [true, false]) {
      const past = await client.post<{ error: string }>('/api/whatsapp/audience-send', { ...body, dry_run: dryRun, scheduledAt: new Date(Date.now() - 3_600_000).toISOString() });
      expect(past.status).toBe(400);
    }
    expect((await client.post('/api/whatsapp/audience-send', { ...body, scheduledAt: 'tomorrow' })).status).toBe(400);
  });

  it('POST /api/whatsapp/audience-send takes the header image of an image template as Quick Send does, to contacts with all the tags', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { headerType: 'image', body: 'Offer for {{1}}' });
    await bulk(client, [
      { phone: '9876591001', tags: ['gold', 'pune'], attributes: { first_name: 'Meena' } },
      { phone: '9876591002', tags: ['gold'], attributes: { first_name: 'Only gold' } },
    ]);
    const fields = { templatename: template.name, language: template.language, tags: JSON.stringify(['gold', 'pune']), tags_match: 'all', variables: JSON.stringify({ '1': 'attr:first_name' }) };
    const form = (extra: Record<string, string>, withImage: boolean) => {
      const data = new FormData();
      for (const [key, value] of Object.entries({ ...fields, ...extra })) data.append(key, value);
      if (withImage) data.append('headerImage', new Blob([new Uint8Array(pngFile())], { type: 'image/png' }), 'banner.png');
      return data;
    };

    const preview = await client.post<{ preview: TAudiencePreview }>('/api/whatsapp/audience-send', form({ dry_run: 'true' }, false));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.preview).toMatchObject({ recipients: 1, opted_out: 0, sample: { phone: '919876591001', values: { '1': 'Meena' } } });

    const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/audience-send', form({ campaign_name: 'Gold in Pune' }, true));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.accepted).toBe(1);
    const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('headerMediaPath', 'headerMediaType', 'segmentFilter')) as { headerMediaPath: string; headerMediaType: string; segmentFilter: string };
    expect(campaign.headerMediaType).toBe('image');
    expect(campaign.headerMediaPath).toMatch(/^media\/campaigns\/[0-9a-f-]{36}\.png$/);
    expect(JSON.parse(campaign.segmentFilter)).toEqual({ tags_all: ['gold', 'pune'] });
    // The provider fetches the image from its public link.
    const media = await fetch(`${server.url}/${campaign.headerMediaPath}`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
  });

  describe('contacts from sends and replies', () => {
    // The factory writes a campaign before its messages, which acceptance never does: the worker
    // must not see one half-written, so these tests drain it themselves.
    beforeAll(async () => {
      await server.services.contactActivity.stop();
    });
    afterAll(() => {
      server.services.contactActivity.start();
    });

    it('makes every recipient a contact after acceptance, counting sends and keeping the last message time once', async () => {
      const { client, user } = await signedInClient(server);
      await bulk(client, [{ phone: '9876585001', name: 'Known', tags: ['old'] }]);
      const campaign = await buildCampaign(server, user, {
        messages: [
          { status: 'delivered', recipient: '919876585001' },
          { status: 'read', recipient: '919876585002' },
          { status: 'duplicate', recipient: '919876585003' },
        ],
      });
      await server.services.contactActivity.drain();
      const known = await contact(client, '919876585001');
      expect(known).toMatchObject({ name: 'Known', tags: ['old'], counts: { sent: 1, delivered: 0, read: 0, replied: 0 } });
      expect(known.last_message_at).not.toBeNull();
      expect((await contact(client, '919876585002')).counts.sent).toBe(1);
      // A send blocked as a duplicate reached nobody: the number is kept, nothing is counted.
      expect(await contact(client, '919876585003')).toMatchObject({ counts: { sent: 0 }, last_message_at: null });
      // Recorded once: draining again changes nothing.
      await server.services.contactActivity.drain();
      expect((await contact(client, '919876585001')).counts.sent).toBe(1);

      const history = await client.get<TContactHistory>('/api/contacts/919876585002/history');
      expect(history.status, JSON.stringify(history.body)).toBe(200);
      expect(history.body.data).toEqual([expect.objectContaining({ kind: 'campaign', campaign_id: campaign.campaignId, status: 'read' })]);
      expect(history.body.has_more).toBe(false);
    });

    it.skipIf(testDatabaseKind() !== 'sqlite')("reads a campaign's batch along the primary key, never through every message of the campaign", async () => {
      // The (campaign, status) index would visit all of a public-API campaign's messages for each
      // batch, and such a campaign takes a batch every few hundred sends.
      const steps = async (sql: string, bindings: (string | number)[]) => ((await server.db.raw(`explain query plan ${sql}`, bindings)) as { detail: string }[]).map((step) => step.detail);
      const nextBatch = await steps(NEXT_BATCH_SQL, [1, 100, 5_000]);
      const recording = await steps(RECORD_SENDS_SQL, ['2026-01-01', '2026-01-01', 1, 100, 5_100]);
      expect(nextBatch).toContain('SEARCH m USING INTEGER PRIMARY KEY (rowid>?)');
      expect(recording).toContain('SEARCH m USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)');
      expect([...nextBatch, ...recording].filter((step) => /messages_campaign/.test(step))).toEqual([]);
    });

    it('records each campaign from its own first message to its last when campaigns follow one another', async () => {
      const { client, user } = await signedInClient(server);
      const first = await buildCampaign(server, user, { messages: [{ status: 'sent', recipient: '919876589001' }, { status: 'sent', recipient: '919876589002' }] });
      const second = await buildCampaign(server, user, { messages: [{ status: 'sent', recipient: '919876589003' }] });
      await server.services.contactActivity.drain();
      const marks = (await server.db('campaigns').whereIn('id', [first.campaignId, second.campaignId]).orderBy('id').select('contactsLastMessageId')) as { contactsLastMessageId: number | string }[];
      const lastIds = await Promise.all([first.campaignId, second.campaignId].map(async (id) => Number((await server.db('messages').where({ campaignId: id }).max({ id: 'id' }))[0]?.id)));
      expect(marks.map((mark) => Number(mark.contactsLastMessageId))).toEqual(lastIds);
      expect((await contact(client, '919876589001')).counts.sent).toBe(1);
      expect((await contact(client, '919876589003')).counts.sent).toBe(1);
    });

    it.skipIf(testDatabaseKind() !== 'postgres')('drains a campaign another transaction holds (a status batch completing it) once that transaction ends, rather than passing it over', async () => {
      const { client, user } = await signedInClient(server);
      const { campaignId } = await buildCampaign(server, user, { messages: [{ status: 'delivered', recipient: '919876589101' }] });
      const holder = await server.db.transaction();
      let drained: Promise<void> | null = null;
      try {
        await holder('campaigns').where({ id: campaignId }).forUpdate().first('id');
        drained = server.services.contactActivity.drain();
        // The drain waits on the campaign's row; the worker's own turns pass such a campaign over.
        await pollUntil(
          async () => {
            const { rows } = (await server.db.raw("select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%contacts_recorded%' and datname = current_database()")) as { rows: { n: string }[] };
            return Number(rows[0]?.n);
          },
          (waiting) => waiting > 0,
          { what: 'the drain waiting on the held campaign', timeoutMs: 10_000 },
        );
      } finally {
        await holder.commit();
      }
      await drained;
      expect((await contact(client, '919876589101')).counts.sent).toBe(1);
    });

    it('counts delivered and read on contacts from status webhooks, once per message, even before the send is recorded', async () => {
      const { client, user } = await signedInClient(server);
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const { campaignId } = await buildCampaign(server, user, {
        template,
        senderNumberId: number.id,
        messages: [
          { status: 'sent', recipient: '919876587001', providerMessageId: `wamid.cnt1.${user.id}` },
          { status: 'sent', recipient: '919876587002', providerMessageId: `wamid.cnt2.${user.id}` },
          { status: 'sent', recipient: '919876587002', providerMessageId: `wamid.cnt3.${user.id}` },
        ],
      });
      const t = Math.floor(Date.now() / 1000);
      const post = (statuses: unknown[]) => postWebhook(server.url, webhookBody({ id: 'WABA', changes: [numberChange(number.phone_number_id, { statuses })] }), server.config.simulator.appSecret);
      // The statuses come before the worker records the campaign: the contacts they make take its sent count later.
      expect((await post([statusEvent(`wamid.cnt1.${user.id}`, 'delivered', t + 1), statusEvent(`wamid.cnt2.${user.id}`, 'read', t + 2)])).status).toBe(200);
      await server.services.engine.ingest.drain();
      // Repeats and a late `delivered` for a read message move nothing, so they count nothing.
      expect((await post([statusEvent(`wamid.cnt1.${user.id}`, 'delivered', t + 3), statusEvent(`wamid.cnt2.${user.id}`, 'delivered', t + 3), statusEvent(`wamid.cnt3.${user.id}`, 'delivered', t + 3)])).status).toBe(200);
      await server.services.engine.ingest.drain();
      expect((await post([statusEvent(`wamid.cnt1.${user.id}`, 'read', t + 4)])).status).toBe(200);
      await server.services.engine.ingest.drain();
      await server.services.contactActivity.drain();
      expect((await contact(client, '919876587001')).counts).toEqual({ sent: 1, delivered: 1, read: 1, replied: 0 });
      // Sent to read in one event was delivered too; its second message only delivered.
      expect((await contact(client, '919876587002')).counts).toEqual({ sent: 2, delivered: 2, read: 1, replied: 0 });
      const [moved] = (await server.db('messages').where({ campaignId }).whereIn('status', ['delivered', 'read']).count({ n: '*' })) as { n: number | string }[];
      expect(Number(moved?.n)).toBe(3);
    });

    describe('a personalised send that remembers its columns', () => {
      async function customSend(client: TestClient, templateName: string, body: Record<string, unknown>) {
        const number = await sandboxNumber(client);
        return client.post<{ data: TCampaignAccepted; error?: string }>('/api/whatsapp/send-custom-messages', {
          templateName,
          language: 'en_US',
          phoneNumberId: number.phone_number_id,
          recipientColumn: 'Phone',
          variableMappings: { '1': 'Name', '2': 'Order No' },
          ...body,
        });
      }

      it("writes each row's mapped columns as its contact's attributes once the worker records the send, defining them as text", async () => {
        const { client, user } = await signedInClient(server, { creditRupees: 10 });
        const template = await buildTemplate(server, user);
        await bulk(client, [{ phone: '9876588001', name: 'Old name', attributes: { city: 'Pune' } }]);
        const data = [
          { Phone: '9876588001', Name: 'Asha', 'Order No': 'ORD-1' },
          { Phone: '9876588002', Name: 'Ravi', 'Order No': 'ORD-2' },
        ];
        const sent = await customSend(client, template.name, { data, rememberColumns: true });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        // Defined at acceptance, written only by the worker: acceptance does not touch the contacts.
        expect((await client.get<TContactAttributeList>('/api/contacts/attributes')).body.data.map((a) => [a.name, a.type])).toEqual([
          ['city', 'text'],
          ['order_no', 'text'],
        ]);
        expect((await contact(client, '919876588001')).attributes).toEqual({ city: 'Pune' });
        await server.services.contactActivity.drain();
        expect(await contact(client, '919876588001')).toMatchObject({ name: 'Asha', attributes: { city: 'Pune', order_no: 'ORD-1' }, counts: { sent: 1 } });
        expect(await contact(client, '919876588002')).toMatchObject({ name: 'Ravi', attributes: { order_no: 'ORD-2' } });

        // Without the tick nothing is remembered.
        const plain = await customSend(client, template.name, { data: [{ Phone: '9876588003', Name: 'Meera', 'Order No': 'ORD-3' }] });
        expect(plain.status, JSON.stringify(plain.body)).toBe(200);
        await server.services.contactActivity.drain();
        expect(await contact(client, '919876588003')).toMatchObject({ name: null, attributes: {} });
      });

      it('refuses the send, preview included, with the catalogue error when the text attribute slots run out', async () => {
        const { client, user } = await signedInClient(server, { creditRupees: 10 });
        const template = await buildTemplate(server, user);
        for (let i = 1; i < CONTACTS.attributeSlots.text; i += 1) {
          expect((await client.post('/api/contacts/attributes', { name: `t${i}`, type: 'text' })).status).toBe(201);
        }
        const data = [{ Phone: '9876589001', Name: 'Asha', 'Order No': 'ORD-1', City: 'Pune' }];
        const refused = (dryRun: boolean) =>
          customSend(client, template.name, { data, rememberColumns: true, dry_run: dryRun, variableMappings: { '1': 'City', '2': 'Order No' } });
        const expected = fillMessage(c.rememberColumnsLimit, { needed: 2, free: 1, max: CONTACTS.attributeSlots.text });
        for (const dryRun of [true, false]) {
          const response = await refused(dryRun);
          expect(response.status).toBe(409);
          expect(response.body.error).toBe(expected);
        }
        expect(await server.db('campaigns').where({ userId: user.id }).first('id')).toBeUndefined();
        expect((await client.get<TContactAttributeList>('/api/contacts/attributes')).body.data).toHaveLength(CONTACTS.attributeSlots.text - 1);
      });
    });

    it('makes every sender of a reply a contact, counting replies, named by their profile, and shows replies in the history', async () => {
      const { client, user } = await signedInClient(server);
      await bulk(client, [{ phone: '9876586001', name: 'Already named' }]);
      const now = Date.now();
      const reply = (contactPhone: string, text: string, at: number, id: string) => ({
        userId: user.id,
        contact: contactPhone,
        phoneNumberId: 'sandbox',
        direction: 'in',
        kind: 'text',
        providerMessageId: id,
        text,
        profileName: 'Profile Name',
        occurredAt: new Date(at).toISOString(),
        createdAt: new Date(at).toISOString(),
      });
      await server.db('conversation_messages').insert([
        reply('919876586001', 'Hello', now - 60_000, `wamid.a${user.id}`),
        reply('919876586001', 'Are you there?', now - 30_000, `wamid.b${user.id}`),
        reply('919876586002', 'Price?', now - 10_000, `wamid.c${user.id}`),
      ]);
      await server.services.conversations.drain();
      const first = await contact(client, '919876586001');
      expect(first).toMatchObject({ name: 'Already named', counts: { replied: 2 } });
      expect(await contact(client, '919876586002')).toMatchObject({ name: 'Profile Name', counts: { replied: 1 } });
      const replied = await client.post<TSegmentCount>('/api/segments/count', { filter: { activity: [{ kind: 'replied_within_days', days: 1 }] } });
      expect(replied.body.count).toBe(2);
      const history = await client.get<TContactHistory>('/api/contacts/919876586001/history');
      expect(history.body.data.map((entry) => [entry.kind, entry.text])).toEqual([
        ['reply_in', 'Are you there?'],
        ['reply_in', 'Hello'],
      ]);
      expect((await client.get('/api/contacts/919876586009/history')).status).toBe(404);
      expect((await client.get('/api/contacts/919876586001/history?cursor=nonsense')).status).toBe(400);
    });
  });
});
