import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignList, TReportSender, TReportsPage } from '@shared/schemas/reports';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { TCreatedInvite } from '@shared/schemas/team';
import type { MemberRole } from '@shared/teamRoles';
import type { User } from '../../server/src/models';
import { SESSION_COOKIE } from '../../server/src/middleware/auth';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const OWNER_NUMBERS = ['919866610001', '919866610002'];
const MANAGER_NUMBERS = ['919866620001', '919866620002', '919866620003'];

describe.skipIf(postgresUnavailable)('reports by the member who sent', () => {
  let server: TestServer;
  let owner: { client: TestClient; user: User };
  let manager: { client: TestClient; user: User };
  let analyst: { client: TestClient; user: User };
  let templateName = '';

  async function join(role: MemberRole): Promise<{ client: TestClient; user: User }> {
    const member = await signedInClient(server);
    const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    expect((await member.client.post(`/api/team/invites/${invite.body.token}/accept`)).status).toBe(200);
    expect((await member.client.post(`/api/accounts/${owner.user.id}/switch`)).status).toBe(200);
    return member;
  }

  async function send(client: TestClient, recipients: string[], name: string): Promise<number> {
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: (numbers.body.data[0] as TSenderNumber).phone_number_id,
      template_name: templateName,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'Asha' },
      campaign_name: name,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.data.campaignId;
  }

  async function recipients(client: TestClient, query: string): Promise<string[]> {
    const res = await client.get<{ data: TReportsPage }>(`/api/whatsapp/reports${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.total).toBe(res.body.data.reports.length);
    return res.body.data.reports.map((row) => row.recipient_number).sort();
  }

  async function exported(client: TestClient, query: string): Promise<{ filename: string; recipients: string[] }> {
    const res = await fetch(`${server.url}/api/whatsapp/reports${query}`, { headers: { Cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}` } });
    expect(res.status).toBe(200);
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    const rows = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data.slice(1);
    const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? '';
    return { filename, recipients: rows.map((row) => String(row[1])).sort() };
  }

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedInClient(server, { creditRupees: 50 });
    manager = await join('manager');
    analyst = await join('analyst');
    templateName = (await buildTemplate(server, owner.user, { body: 'Hi {{1}}' })).name;
    await send(owner.client, OWNER_NUMBERS, 'From the owner');
    await send(manager.client, MANAGER_NUMBERS, 'From the manager');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('lists every message of the account without the filter', async () => {
    expect(await recipients(analyst.client, '?limit=100')).toEqual([...OWNER_NUMBERS, ...MANAGER_NUMBERS].sort());
  });

  it('filters the messages by each member who sent them', async () => {
    expect(await recipients(analyst.client, `?sentBy=${owner.user.id}`)).toEqual(OWNER_NUMBERS);
    expect(await recipients(analyst.client, `?sentBy=${manager.user.id}`)).toEqual(MANAGER_NUMBERS);
    expect(await recipients(owner.client, `?sentBy=${analyst.user.id}`)).toEqual([]);
  });

  it('combines the sender with the other filters', async () => {
    expect(await recipients(owner.client, `?sentBy=${manager.user.id}&template=${encodeURIComponent(templateName)}`)).toEqual(MANAGER_NUMBERS);
    expect(await recipients(owner.client, `?sentBy=${manager.user.id}&template=another_template`)).toEqual([]);
    expect(await recipients(owner.client, `?sentBy=${manager.user.id}&recipientNumber=620002`)).toEqual(['919866620002']);
    expect(await recipients(owner.client, `?sentBy=${owner.user.id}&recipientNumber=620002`)).toEqual([]);
  });

  it('treats "all" and an empty sender as no filter, and refuses one that is not an id', async () => {
    expect(await recipients(owner.client, '?sentBy=all')).toHaveLength(OWNER_NUMBERS.length + MANAGER_NUMBERS.length);
    expect(await recipients(owner.client, '?sentBy=')).toHaveLength(OWNER_NUMBERS.length + MANAGER_NUMBERS.length);
    expect((await owner.client.get('/api/whatsapp/reports?sentBy=someone')).status).toBe(400);
  });

  it('exports only the chosen member’s messages, named as a filtered export', async () => {
    const managers = await exported(owner.client, `?export=csv&sentBy=${manager.user.id}`);
    expect(managers.recipients).toEqual(MANAGER_NUMBERS);
    expect(managers.filename).toMatch(/^whatsapp_reports_filtered_/);
    expect((await exported(analyst.client, `?export=csv&sentBy=${owner.user.id}`)).recipients).toEqual(OWNER_NUMBERS);
    expect((await exported(owner.client, '?export=csv')).recipients).toEqual([...OWNER_NUMBERS, ...MANAGER_NUMBERS].sort());
  });

  it('never finds another account’s messages through a sender who belongs to it', async () => {
    const stranger = await signedInClient(server);
    expect(await recipients(stranger.client, `?sentBy=${manager.user.id}`)).toEqual([]);
    expect(await recipients(manager.client, `?sentBy=${stranger.user.id}`)).toEqual([]);
  });

  it('offers the account’s members as the filter’s choices, to every role that reads reports', async () => {
    for (const reader of [owner, manager, analyst]) {
      const res = await reader.client.get<{ data: TReportSender[] }>('/api/whatsapp/reports/senders');
      expect(res.status).toBe(200);
      expect(res.body.data.map((sender) => sender.userId).sort((a, b) => a - b)).toEqual([owner.user.id, manager.user.id, analyst.user.id].sort((a, b) => a - b));
      expect(res.body.data).toContainEqual({ userId: manager.user.id, name: manager.user.name });
    }
  });

  it('names the member who sent each campaign in the campaign list', async () => {
    const res = await analyst.client.get<{ data: TCampaignList }>('/api/campaigns');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.data.campaigns.map((campaign) => [campaign.name, campaign.sentBy]));
    expect(byName['From the owner']).toEqual({ userId: owner.user.id, name: owner.user.name });
    expect(byName['From the manager']).toEqual({ userId: manager.user.id, name: manager.user.name });
  });
});
