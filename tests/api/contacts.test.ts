import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TContact, TContactBulkResponse, TContactsPage, TSegment, TSegmentCount, TSegmentFilter } from '@shared/schemas/contacts';
import type { TCreatedApiKey } from '@shared/apiKeys';
import { TestClient } from '../../server/test/client';
import { buildCampaign, signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const c = messages.contacts;

describe.skipIf(postgresUnavailable)('contacts and segments', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function bulk(client: TestClient, contacts: unknown[], existing?: 'update' | 'skip'): Promise<TContactBulkResponse> {
    const response = await client.post<TContactBulkResponse>('/api/contacts/bulk', { contacts, ...(existing ? { existing } : {}) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  async function contact(client: TestClient, phone: string): Promise<TContact> {
    const response = await client.get<TContact>(`/api/contacts/${phone}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  async function countOf(client: TestClient, filter: TSegmentFilter): Promise<TSegmentCount> {
    const created = await client.post<TSegment>('/api/segments', { name: 'Filter', filter });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const counted = await client.get<TSegmentCount>(`/api/segments/${created.body.id}/count`);
    expect(counted.status).toBe(200);
    return counted.body;
  }

  describe('POST /api/contacts', () => {
    it('stores the number by the one phone rule, with typed attributes, tags and opt-in', async () => {
      const { client } = await signedInClient(server);
      const response = await client.post<TContact>('/api/contacts', {
        phone: '098765 43210',
        name: 'Asha Verma',
        attributes: { first_name: 'Asha', orders: 4, last_order: '2026-11-30' },
        tags: ['vip', 'vip', 'pune'],
        opt_in: { source: 'website form', at: '2026-11-30T10:15:00Z', evidence: 'Ticked the box at checkout' },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({
        phone: '919876543210',
        name: 'Asha Verma',
        attributes: { first_name: 'Asha', orders: 4, last_order: '2026-11-30' },
        tags: ['pune', 'vip'],
        opt_in: { source: 'website form', at: '2026-11-30T10:15:00.000Z', evidence: 'Ticked the box at checkout' },
        opted_out: false,
        counts: { sent: 0, delivered: 0, read: 0, replied: 0 },
      });
      expect((await contact(client, '+91 98765 43210')).phone).toBe('919876543210');
    });

    it('refuses a number the phone rule refuses, and a second contact with the same number', async () => {
      const { client } = await signedInClient(server);
      const bad = await client.post('/api/contacts', { phone: '12' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: messages.phone.invalid.too_short, field: 'phone' });
      expect((await client.post('/api/contacts', { phone: '9876500001' })).status).toBe(201);
      const twice = await client.post('/api/contacts', { phone: '919876500001' });
      expect(twice.status).toBe(409);
      expect(twice.body).toMatchObject({ code: 'contact_exists' });
    });

    it('holds each attribute to the type it was defined with', async () => {
      const { client } = await signedInClient(server);
      expect((await client.post('/api/contacts', { phone: '9876500002', attributes: { orders: 3 } })).status).toBe(201);
      const wrong = await client.post('/api/contacts', { phone: '9876500003', attributes: { orders: 'many' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: fillMessage(c.attributeNotNumber, { name: 'orders' }) });
      expect((await client.get('/api/contacts/9876500003')).status).toBe(404);
    });
  });

  describe('POST /api/contacts/bulk', () => {
    it('creates, updates by number (idempotently) and reports invalid entries by index', async () => {
      const { client } = await signedInClient(server);
      const first = await bulk(client, [
        { phone: '9876510001', name: 'One', attributes: { city: 'Pune' }, tags: ['import'] },
        { phone: '12' },
        { phone: '9876510002', attributes: { 'bad name': 'x' } },
        { phone: '9876510003', name: 'Three' },
        'not an object',
      ]);
      expect(first.created).toBe(2);
      expect(first.updated).toBe(0);
      expect(first.invalid.map((i) => i.index)).toEqual([1, 2, 4]);
      expect(first.invalid[0]?.error).toBe(messages.phone.invalid.too_short);

      const again = await bulk(client, [
        { phone: '919876510001', attributes: { city: 'Mumbai', zone: 'west' }, tags: ['second'] },
        { phone: '9876510003', name: 'Three' },
      ]);
      expect(again).toEqual({ created: 0, updated: 2, skipped: 0, invalid: [] });
      const one = await contact(client, '919876510001');
      expect(one).toMatchObject({ name: 'One', attributes: { city: 'Mumbai', zone: 'west' }, tags: ['import', 'second'] });

      const skipped = await bulk(client, [{ phone: '9876510001', name: 'Changed' }, { phone: '9876510004' }], 'skip');
      expect(skipped).toEqual({ created: 1, updated: 0, skipped: 1, invalid: [] });
      expect((await contact(client, '919876510001')).name).toBe('One');
    });

    it('changes only what each entry names when entries of one call name different fields, and skips an existing number whatever its entry holds', async () => {
      const { client } = await signedInClient(server);
      await bulk(client, [
        { phone: '9876511001', name: 'Asha', attributes: { city: 'Pune', orders: 3 }, opt_in: { source: 'counter', at: '2026-11-01T00:00:00Z' } },
        { phone: '9876511002', name: 'Ravi', attributes: { city: 'Delhi', orders: 5 } },
      ]);
      const mixed = await bulk(client, [
        { phone: '9876511001', attributes: { orders: 4 } },
        { phone: '9876511002', name: 'Ravi Kumar', opt_in: { source: 'website form', at: '2026-12-01T00:00:00Z' } },
        { phone: '9876511003', attributes: { city: 'Surat' } },
      ]);
      expect(mixed).toEqual({ created: 1, updated: 2, skipped: 0, invalid: [] });
      expect(await contact(client, '919876511001')).toMatchObject({ name: 'Asha', attributes: { city: 'Pune', orders: 4 }, opt_in: { source: 'counter' } });
      expect(await contact(client, '919876511002')).toMatchObject({ name: 'Ravi Kumar', attributes: { city: 'Delhi', orders: 5 }, opt_in: { source: 'website form' } });
      expect(await contact(client, '919876511003')).toMatchObject({ name: null, attributes: { city: 'Surat' }, opt_in: null });

      const skipped = await bulk(client, [{ phone: '9876511001', attributes: { orders: 'many' } }, { phone: '9876511004', attributes: { orders: 'few' } }], 'skip');
      expect(skipped.created).toBe(0);
      expect(skipped.skipped).toBe(1);
      expect(skipped.invalid.map((i) => i.index)).toEqual([1]);
      expect((await contact(client, '919876511001')).attributes).toEqual({ city: 'Pune', orders: 4 });
    });

    it('stores every text and number as given: quotes, backslashes, braces, the word NULL, Hindi and emoji, and a lone surrogate as U+FFFD', async () => {
      const { client } = await signedInClient(server);
      const texts = ['say "hi"', 'C:\\new\\table', '{a,b}', 'NULL', 'null', 'आशा वर्मा', 'Asha 🙏🏽', '\\ud800 as typed', ' , ', '\\'];
      const entries = texts.map((text, i) => ({ phone: `98765130${String(i).padStart(2, '0')}`, name: `n${i}`, attributes: { note: text, amount: i === 0 ? -12.5 : 1e15 + i, day: '2026-02-28' }, opt_in: { source: text, at: '2026-11-01T05:30:00+05:30' } }));
      entries.push({ phone: '9876513099', name: 'A\uD800B', attributes: { note: 'x\uDC00', amount: 0, day: '2026-03-01' }, opt_in: { source: 'form', at: '2026-11-01T00:00:00Z' } });
      expect(await bulk(client, entries)).toEqual({ created: entries.length, updated: 0, skipped: 0, invalid: [] });
      for (const [i, text] of texts.entries()) {
        const stored = await contact(client, `919876513${String(i).padStart(3, '0')}`);
        expect(stored.attributes).toEqual({ note: text, amount: i === 0 ? -12.5 : 1e15 + i, day: '2026-02-28' });
        expect(stored.opt_in).toMatchObject({ source: text.trim(), at: '2026-11-01T00:00:00.000Z' });
      }
      const lone = await contact(client, '919876513099');
      expect(lone).toMatchObject({ name: 'A\uFFFDB', attributes: { note: 'x\uFFFD' } });
    });

    it('deletes a contact with its tags: the number imported again starts untagged', async () => {
      const { client } = await signedInClient(server);
      await bulk(client, [{ phone: '9876512001', tags: ['vip'] }]);
      expect((await client.delete('/api/contacts/9876512001')).status).toBe(204);
      await bulk(client, [{ phone: '9876512001', name: 'Back' }]);
      expect((await contact(client, '919876512001')).tags).toEqual([]);
      expect(await countOf(client, { tags_any: ['vip'] })).toEqual({ count: 0, opted_out: 0 });
    });

    it(`refuses more than ${CONTACTS.bulkMax} contacts in one call`, async () => {
      const { client } = await signedInClient(server);
      const response = await client.post('/api/contacts/bulk', { contacts: Array.from({ length: CONTACTS.bulkMax + 1 }, () => ({ phone: '9876500000' })) });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: fillMessage(c.bulkTooMany, { max: CONTACTS.bulkMax }) });
    });

    it('writes ten thousand contacts in one call', async () => {
      const { client } = await signedInClient(server);
      const contacts = Array.from({ length: CONTACTS.bulkMax }, (_, i) => ({ phone: `91700${String(i).padStart(7, '0')}`, attributes: { n: i }, tags: [i % 2 ? 'odd' : 'even'] }));
      expect(await bulk(client, contacts)).toEqual({ created: CONTACTS.bulkMax, updated: 0, skipped: 0, invalid: [] });
      expect(await countOf(client, { tags_all: ['odd'] })).toEqual({ count: CONTACTS.bulkMax / 2, opted_out: 0 });
    });
  });

  describe('GET /api/contacts', () => {
    it('pages newest first by cursor, and narrows by tag, search and segment', async () => {
      const { client } = await signedInClient(server);
      const entries = Array.from({ length: CONTACTS.pageSize + 5 }, (_, i) => ({ phone: `91800${String(i).padStart(7, '0')}`, tags: i < 3 ? ['gold'] : [] }));
      await bulk(client, [...entries, { phone: '9123456789', name: 'Ravi Kumar' }]);
      const first = await client.get<TContactsPage>('/api/contacts');
      expect(first.body.data).toHaveLength(CONTACTS.pageSize);
      expect(first.body.has_more).toBe(true);
      const second = await client.get<TContactsPage>(`/api/contacts?cursor=${first.body.next_cursor}`);
      expect(second.body.data).toHaveLength(6);
      expect(second.body.has_more).toBe(false);
      const seen = new Set([...first.body.data, ...second.body.data].map((row) => row.phone));
      expect(seen.size).toBe(CONTACTS.pageSize + 6);

      expect((await client.get<TContactsPage>('/api/contacts?tag=gold')).body.data).toHaveLength(3);
      expect((await client.get<TContactsPage>('/api/contacts?q=ravi')).body.data.map((row) => row.phone)).toEqual(['919123456789']);
      expect((await client.get<TContactsPage>('/api/contacts?q=23456')).body.data.map((row) => row.phone)).toEqual(['919123456789']);
      const segment = await client.post<TSegment>('/api/segments', { name: 'Gold', filter: { tags_any: ['gold'] } });
      expect((await client.get<TContactsPage>(`/api/contacts?segment_id=${segment.body.id}`)).body.data).toHaveLength(3);
      const bad = await client.get('/api/contacts?cursor=nonsense');
      expect(bad.status).toBe(400);
    });

    it("never shows another owner's contacts", async () => {
      const { client: owner } = await signedInClient(server);
      const { client: other } = await signedInClient(server);
      await bulk(owner, [{ phone: '9876520001' }]);
      expect((await other.get<TContactsPage>('/api/contacts')).body.data).toEqual([]);
      expect((await other.get('/api/contacts/9876520001')).status).toBe(404);
    });

    it('answers an API key as it answers the session', async () => {
      const { client } = await signedInClient(server);
      const key = (await client.post<{ data: TCreatedApiKey }>('/api/keys', { name: 'CRM' })).body.data.key;
      const integrator = new TestClient(server.url).withHeaders({ 'X-API-Key': key });
      expect((await integrator.post('/api/contacts', { phone: '9876530001', name: 'By key' })).status).toBe(201);
      expect((await integrator.patch<TContact>('/api/contacts/919876530001', { tags: ['api'] })).body.tags).toEqual(['api']);
      expect((await client.get<TContact>('/api/contacts/919876530001')).body).toMatchObject({ name: 'By key', tags: ['api'] });
      expect((await integrator.post<TContactBulkResponse>('/api/contacts/bulk', { contacts: [{ phone: '9876530002' }] })).body.created).toBe(1);
      expect((await new TestClient(server.url).get('/api/contacts')).status).toBe(401);
    });
  });

  describe('PATCH and DELETE /api/contacts/{phone}', () => {
    it('merges attributes (null removes one), replaces tags, clears opt-in, and deletes', async () => {
      const { client } = await signedInClient(server);
      await bulk(client, [{ phone: '9876540001', attributes: { city: 'Pune', plan: 'gold' }, tags: ['a', 'b'], opt_in: { source: 'counter' } }]);
      const patched = await client.patch<TContact>('/api/contacts/9876540001', { attributes: { plan: null, city: 'Delhi' }, tags: ['c'], opt_in: null });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body).toMatchObject({ attributes: { city: 'Delhi' }, tags: ['c'], opt_in: null });
      expect(patched.body.attributes).not.toHaveProperty('plan');
      expect((await client.delete('/api/contacts/9876540001')).status).toBe(204);
      expect((await client.get('/api/contacts/9876540001')).status).toBe(404);
    });
  });

  describe('opt-out', () => {
    it('is the suppression list: one fact, shown on the contact and counted apart in segments', async () => {
      const { client, user } = await signedInClient(server);
      await bulk(client, [
        { phone: '9876550001', tags: ['all'], opt_in: { source: 'form' } },
        { phone: '9876550002', tags: ['all'] },
      ]);
      await server.db('suppressions').insert({ userId: user.id, recipient: '919876550001', reason: 'STOP', createdAt: new Date().toISOString() });
      const stopped = await contact(client, '919876550001');
      expect(stopped.opted_out).toBe(true);
      expect(stopped.opt_in).not.toBeNull();
      expect(await countOf(client, { tags_all: ['all'] })).toEqual({ count: 1, opted_out: 1 });
      // The opt-out outlives the contact: deleting the contact leaves the suppression.
      expect((await client.delete('/api/contacts/919876550001')).status).toBe(204);
      expect(await server.db('suppressions').where({ userId: user.id, recipient: '919876550001' })).toHaveLength(1);
    });
  });

  describe('segments', () => {
    it('counts every filter kind', async () => {
      const { client, user } = await signedInClient(server);
      await bulk(client, [
        { phone: '9876560001', tags: ['vip', 'pune'], attributes: { city: 'Pune', orders: 10, joined: '2026-01-10' }, opt_in: { source: 'form' } },
        { phone: '9876560002', tags: ['vip'], attributes: { city: 'Mumbai', orders: 2, joined: '2026-06-01' } },
        { phone: '9876560003', tags: ['pune'], attributes: { city: 'pune city', orders: 5 } },
        { phone: '9876560004' },
      ]);
      const read = await buildCampaign(server, user, { messages: [{ status: 'read', recipient: '919876560001' }, { status: 'failed', recipient: '919876560002' }] });
      await server.db('contacts').where({ userId: user.id, phone: '919876560003' }).update({ lastRepliedAt: new Date().toISOString() });

      const counts = async (filter: TSegmentFilter) => (await countOf(client, filter)).count;
      expect(await counts({})).toBe(4);
      expect(await counts({ tags_any: ['vip', 'pune'] })).toBe(3);
      expect(await counts({ tags_all: ['vip', 'pune'] })).toBe(1);
      expect(await counts({ tags_none: ['vip'] })).toBe(2);
      expect(await counts({ attributes: [{ name: 'city', op: 'eq', value: 'Pune' }] })).toBe(1);
      expect(await counts({ attributes: [{ name: 'city', op: 'contains', value: 'PUNE' }] })).toBe(2);
      expect(await counts({ attributes: [{ name: 'orders', op: 'after', value: 4 }] })).toBe(2);
      expect(await counts({ attributes: [{ name: 'orders', op: 'before', value: '5' }] })).toBe(1);
      expect(await counts({ attributes: [{ name: 'joined', op: 'before', value: '2026-03-01' }] })).toBe(1);
      expect(await counts({ attributes: [{ name: 'joined', op: 'after', value: '2026-03-01' }] })).toBe(1);
      expect(await counts({ attributes: [{ name: 'joined', op: 'empty' }] })).toBe(2);
      expect(await counts({ attributes: [{ name: 'nobody_has_this', op: 'empty' }] })).toBe(4);
      expect(await counts({ activity: [{ kind: 'read_campaign', campaign_id: read.campaignId }] })).toBe(1);
      expect(await counts({ activity: [{ kind: 'failed_in_campaign', campaign_id: read.campaignId }] })).toBe(1);
      expect(await counts({ activity: [{ kind: 'never_messaged' }] })).toBe(2);
      expect(await counts({ activity: [{ kind: 'replied_within_days', days: 7 }] })).toBe(1);
      expect(await counts({ opt_in: true })).toBe(1);
      expect(await counts({ opt_in: false })).toBe(3);
      expect(await counts({ tags_any: ['vip'], attributes: [{ name: 'orders', op: 'after', value: 1 }], tags_none: ['pune'] })).toBe(1);
    });

    it('counts tags as they stand after each kind of change, a tag holding the separators of the stored list included', async () => {
      const { client } = await signedInClient(server);
      const counts = async (filter: TSegmentFilter) => (await countOf(client, filter)).count;
      await bulk(client, [
        { phone: '9876561001', tags: ['a|b', '50%'] },
        { phone: '9876561002', tags: ['a'] },
        { phone: '9876561003' },
      ]);
      expect(await counts({ tags_any: ['a'] })).toBe(1);
      expect(await counts({ tags_any: ['b'] })).toBe(0);
      expect(await counts({ tags_all: ['a|b', '50%'] })).toBe(1);
      expect(await counts({ tags_any: ['50'] })).toBe(0);

      // A bulk call adds to an existing contact's tags; a change of the contact replaces them.
      await bulk(client, [{ phone: '9876561002', tags: ['b'] }, { phone: '9876561003', tags: ['b'] }]);
      expect(await counts({ tags_all: ['a', 'b'] })).toBe(1);
      expect(await counts({ tags_any: ['b'] })).toBe(2);
      expect((await client.patch<TContact>('/api/contacts/9876561002', { tags: ['c'] })).status).toBe(200);
      expect(await counts({ tags_any: ['a', 'b'] })).toBe(1);
      expect(await counts({ tags_none: ['c'] })).toBe(2);
      expect((await client.patch<TContact>('/api/contacts/9876561001', { tags: [] })).status).toBe(200);
      expect(await counts({ tags_none: ['a|b', 'b', 'c'] })).toBe(1);
      expect((await client.delete('/api/contacts/9876561003')).status).toBe(204);
      expect(await counts({ tags_any: ['b'] })).toBe(0);
    });

    it('refuses a condition on an attribute that does not exist, and an unknown key', async () => {
      const { client } = await signedInClient(server);
      const unknown = await client.post('/api/segments', { name: 'X', filter: { attributes: [{ name: 'ghost', op: 'eq', value: 'x' }] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: fillMessage(c.segmentUnknownAttribute, { name: 'ghost' }) });
      expect((await client.post('/api/segments', { name: 'X', filter: { colour: 'red' } })).status).toBe(400);
    });

    it('lists, reads, changes and deletes a segment, only for its owner', async () => {
      const { client } = await signedInClient(server);
      const { client: other } = await signedInClient(server);
      const created = await client.post<TSegment>('/api/segments', { name: ' VIPs ', filter: { tags_any: ['vip'] } });
      expect(created.body).toMatchObject({ name: 'VIPs', filter: { tags_any: ['vip'] } });
      const id = created.body.id;
      expect((await client.get<{ data: TSegment[] }>('/api/segments')).body.data.map((s) => s.id)).toEqual([id]);
      expect((await other.get(`/api/segments/${id}`)).status).toBe(404);
      expect((await other.get(`/api/segments/${id}/count`)).status).toBe(404);
      const changed = await client.patch<TSegment>(`/api/segments/${id}`, { name: 'Everyone', filter: {} });
      expect(changed.body).toMatchObject({ name: 'Everyone', filter: {} });
      expect((await client.get<TSegment>(`/api/segments/${id}`)).body.name).toBe('Everyone');
      expect((await other.delete(`/api/segments/${id}`)).status).toBe(404);
      expect((await client.delete(`/api/segments/${id}`)).status).toBe(204);
      expect((await client.get(`/api/segments/${id}`)).status).toBe(404);
    });
  });

  describe('POST /api/send/batch with segment_id', () => {
    it('sends to the segment with attribute variables and fallbacks, leaves out and counts opt-outs, and records the segment', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user, 'Hi {{1}}, your {{2}} offer is ready');
      const { api } = await keyedClient(server, client);
      await bulk(client, [
        { phone: '9876570001', tags: ['diwali'], attributes: { first_name: 'Asha', plan: 'gold' } },
        { phone: '9876570002', tags: ['diwali'], attributes: { plan: 'silver' } },
        { phone: '9876570003', tags: ['diwali'], attributes: { first_name: 'Stopped' } },
        { phone: '9876570004', tags: ['other'], attributes: { first_name: 'Elsewhere' } },
      ]);
      await server.db('suppressions').insert({ userId: user.id, recipient: '919876570003', reason: 'STOP', createdAt: new Date().toISOString() });
      const segment = (await client.post<TSegment>('/api/segments', { name: 'Diwali', filter: { tags_any: ['diwali'] } })).body;
      expect((await client.get<TSegmentCount>(`/api/segments/${segment.id}/count`)).body).toEqual({ count: 2, opted_out: 1 });

      const sent = await api.post<{ data: { campaignId: number; optedOutExcluded: number } }>('/api/send/batch', {
        username: user.username,
        templatename: template.name,
        segment_id: segment.id,
        variables: { '1': 'attr:first_name', '2': 'attr:plan' },
        fallbacks: { '1': 'Customer' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.data.optedOutExcluded).toBe(1);
      const rows = (await server.db('messages').where({ campaignId: sent.body.data.campaignId }).orderBy('recipient').select('recipient', 'variables')) as { recipient: string; variables: string }[];
      expect(rows.map((row) => row.recipient)).toEqual(['919876570001', '919876570002']);
      expect(rows.map((row) => Object.values(JSON.parse(row.variables) as Record<string, string>))).toEqual([
        ['Asha', 'gold'],
        ['Customer', 'silver'],
      ]);
      const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('segment_id', 'segment_filter')) as { segmentId: number; segmentFilter: string };
      expect(campaign.segmentId).toBe(segment.id);
      expect(JSON.parse(campaign.segmentFilter)).toEqual({ tags_any: ['diwali'] });
      // The campaign keeps the filter as it was when the segment changes later.
      await client.patch(`/api/segments/${segment.id}`, { filter: { tags_any: ['other'] } });
      expect(JSON.parse(((await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('segment_filter')) as { segmentFilter: string }).segmentFilter)).toEqual({ tags_any: ['diwali'] });
    });

    it("refuses another owner's segment, and both messages and segment_id", async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const { client: other } = await signedInClient(server);
      const foreign = (await other.post<TSegment>('/api/segments', { name: 'Theirs', filter: {} })).body;
      const body = { username: user.username, templatename: template.name, segment_id: foreign.id, variables: { '1': 'there' } };
      expect((await api.post('/api/send/batch', body)).status).toBe(404);
      expect((await api.post('/api/send/batch', { ...body, messages: [{ recipient_number: '919876570001', var1: 'A' }] })).status).toBe(400);
    });
  });
});
