import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_LIMITS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import { sweepOrphanCampaignMedia } from '../../server/src/sending/campaignMedia';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { form, pngFile } from '../../server/test/media';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

/** Quick-send uploads, template files and drafts cannot grow a user's disk use without bound. */
describe.skipIf(postgresUnavailable)('media and draft storage bounds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const campaignMediaDir = () => path.join(server.config.dataDir, 'media', 'campaigns');
  const campaignMediaFiles = () => (existsSync(campaignMediaDir()) ? readdirSync(campaignMediaDir()) : []);

  const approvedImageTemplate = (user: User) => buildTemplate(server, user, { headerType: 'image', body: 'Offer for {{1}}' });

  it('keeps no header image when a quick send is refused for its balance', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1 });
    const template = await approvedImageTemplate(user);
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const number = numbers.body.data[0] as TSenderNumber;
    const before = campaignMediaFiles();
    const fields = { phone_number_id: number.phone_number_id, template_name: template.name, language: 'en_US', recipients_text: '919844440001\n919844440002', variables: JSON.stringify({ '1': 'Meena' }) };
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    data.append('headerImage', new Blob([new Uint8Array(pngFile(200_000))], { type: 'image/png' }), 'banner.png');

    const refused = await client.post('/api/whatsapp/quick-send', data);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('insufficient_balance');
    expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(0);
    expect(campaignMediaFiles()).toEqual(before);
  });

  it('sweeps campaign images no campaign references once they are an hour old, and only those', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await approvedImageTemplate(user);
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const data = new FormData();
    const fields = { phone_number_id: (numbers.body.data[0] as TSenderNumber).phone_number_id, template_name: template.name, language: 'en_US', recipients_text: '919844440009', variables: JSON.stringify({ '1': 'Meena' }) };
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    data.append('headerImage', new Blob([new Uint8Array(pngFile())], { type: 'image/png' }), 'banner.png');
    const sent = await client.post<{ data: { campaignId: number } }>('/api/whatsapp/quick-send', data);
    expect(sent.status).toBe(200);
    const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first()) as { headerMediaPath: string };
    const referenced = path.basename(campaign.headerMediaPath);

    const old = new Date(Date.now() - (STORAGE_LIMITS.orphanCampaignMediaMinutes + 5) * 60_000);
    const orphan = 'orphan-test.png';
    const young = 'young-test.png';
    writeFileSync(path.join(campaignMediaDir(), orphan), pngFile());
    utimesSync(path.join(campaignMediaDir(), orphan), old, old);
    writeFileSync(path.join(campaignMediaDir(), young), pngFile());
    // A referenced image stays however old: its campaign still sends it.
    utimesSync(path.join(campaignMediaDir(), referenced), old, old);

    expect(await sweepOrphanCampaignMedia(server.db, server.config.dataDir)).toBe(1);
    const left = campaignMediaFiles();
    expect(left).not.toContain(orphan);
    expect(left).toContain(young);
    expect(left).toContain(referenced);
  });

  it('refuses a template file once the user\'s template files reach the storage limit', async () => {
    const { client, user } = await signedInClient(server);
    const fields = (name: string) => ({ name, category: 'UTILITY', language: 'en_US', headerType: 'image', bodyText: 'Your invoice is attached', submit_to_whatsapp: 'false' });
    const first = await client.post('/api/templates', form(fields('bound_first'), { name: 'a.png', content: pngFile(), type: 'image/png' }));
    expect(first.status).toBe(201);
    // Stand in for many earlier uploads: the stored size is what the bound counts.
    const nearlyFull = STORAGE_LIMITS.templateMediaPerUserMb * 1024 * 1024 - 100;
    await server.db('templates').where({ userId: user.id, name: 'bound_first' }).update({ headerMediaSize: nearlyFull });
    const filesBefore = readdirSync(path.join(server.config.dataDir, 'media', 'templates', String(user.id)));

    const refused = await client.post('/api/templates', form(fields('bound_second'), { name: 'b.png', content: pngFile(1000), type: 'image/png' }));
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('media_storage_full');
    expect(refused.body.error).toBe(fillMessage(messages.templates.mediaStorageFull, { used: (nearlyFull / 1024 / 1024).toLocaleString('en-IN', { maximumFractionDigits: 1 }), limit: STORAGE_LIMITS.templateMediaPerUserMb.toLocaleString('en-IN') }));
    expect(readdirSync(path.join(server.config.dataDir, 'media', 'templates', String(user.id)))).toEqual(filesBefore);

    // Replacing the one file does not count the file it replaces.
    const id = ((await server.db('templates').where({ userId: user.id, name: 'bound_first' }).first('id')) as { id: number }).id;
    const replaced = await client.put(`/api/templates/${id}`, form(fields('bound_first'), { name: 'c.png', content: pngFile(), type: 'image/png' }));
    expect(replaced.status).toBe(200);
  });

  it('refuses a new draft once the user keeps the most drafts allowed', async () => {
    const { client, user } = await signedInClient(server);
    const body = (name: string) => ({ name, category: 'UTILITY', language: 'en_US', headerType: 'none', bodyText: 'Your order ships today', submit_to_whatsapp: false });
    const first = await client.post('/api/templates', body('draft_0'));
    expect(first.status).toBe(201);
    const row = (await server.db('templates').where({ userId: user.id, name: 'draft_0' }).first()) as Record<string, unknown>;
    const { id: _id, ...copy } = row;
    const rows = Array.from({ length: STORAGE_LIMITS.draftTemplatesPerUser - 1 }, (_, i) => ({ ...copy, name: `draft_${i + 1}` }));
    await server.db.batchInsert('templates', rows, 50);

    const refused = await client.post('/api/templates', body('draft_over'));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('draft_limit_reached');
    expect(refused.body.error).toBe(fillMessage(messages.templates.draftLimitReached, { max: STORAGE_LIMITS.draftTemplatesPerUser.toLocaleString('en-IN') }));
    // Submitting straight to review is still possible: it is the drafts that are capped.
    const submitted = await client.post('/api/templates', { ...body('submitted_one'), submit_to_whatsapp: true });
    expect(submitted.status).toBe(201);
  });
});
