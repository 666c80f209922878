import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TCreateOrderResponse } from '@shared/types';
import type { TAccountSummary, TCreatedInvite, TTeamInvite } from '@shared/schemas/team';
import type { MemberRole } from '@shared/teamRoles';
import { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient, uniquePhone } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const t = messages.team;

describe.skipIf(postgresUnavailable)('teams API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An owner, and a second person who joined the owner's account with `role`. */
  async function teamWith(role: MemberRole) {
    const owner = await signedInClient(server, { creditRupees: 50 });
    const member = await signedInClient(server);
    const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const accepted = await member.client.post(`/api/team/invites/${invite.body.token}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const switched = await member.client.post(`/api/accounts/${owner.user.id}/switch`);
    expect(switched.status).toBe(200);
    return { owner, member, invite: invite.body };
  }

  describe('POST /api/team/invites', () => {
    it('answers 201 with a one-time token, a link and an expiry seven days ahead', async () => {
      const owner = await signedInClient(server);
      const before = Date.now();
      const response = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: 'someone@example.in', role: 'analyst' });
      expect(response.status).toBe(201);
      expect(response.body.link).toMatch(new RegExp(`/invite/${response.body.token}$`));
      const expires = new Date(response.body.expires_at).getTime();
      expect(expires - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 60_000);
      expect(expires - before).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
      const listed = await owner.client.get<{ data: { id: number; email: string }[] }>('/api/team/invites');
      expect(listed.body.data.map((invite) => invite.id)).toContain(response.body.id);
    });

    it('refuses an invite with neither e-mail nor phone', async () => {
      const owner = await signedInClient(server);
      const response = await owner.client.post('/api/team/invites', { role: 'agent' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: t.inviteNeedsContact });
    });

    it('refuses to invite an owner: ownership moves only by transfer', async () => {
      const owner = await signedInClient(server);
      const response = await owner.client.post('/api/team/invites', { email: 'x@example.in', role: 'owner' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: t.roleInvalid });
    });
  });

  describe('POST /api/team/invites/{token}/accept', () => {
    it('joins the account, lists it under GET /api/accounts, and acts in it after a switch', async () => {
      const { owner, member } = await teamWith('analyst');
      const accounts = await member.client.get<TAccountSummary[]>('/api/accounts');
      expect(accounts.body).toEqual(
        expect.arrayContaining([
          { id: owner.user.id, name: owner.user.name, role: 'analyst', ownerUserId: owner.user.id, current: true },
          { id: member.user.id, name: member.user.name, role: 'owner', ownerUserId: member.user.id, current: false },
        ]),
      );
      const me = await member.client.get<{ user: { id: number; creditBalance: number; account: { id: number; role: string } } }>('/api/auth/me');
      expect(me.body.user).toMatchObject({ id: member.user.id, creditBalance: 50, account: { id: owner.user.id, role: 'analyst' } });
      const members = await owner.client.get<{ data: { userId: number; role: string }[] }>('/api/team/members');
      expect(members.body.data).toEqual([
        expect.objectContaining({ userId: owner.user.id, role: 'owner' }),
        expect.objectContaining({ userId: member.user.id, role: 'analyst' }),
      ]);
    });

    it('refuses a reused invitation with 409', async () => {
      const { owner, invite } = await teamWith('agent');
      const third = await signedInClient(server, { email: `x${Date.now()}@example.in` });
      void owner;
      const again = await third.client.post(`/api/team/invites/${invite.token}/accept`);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: t.inviteUsed, code: 'invite_used' });
    });

    it('refuses an expired invitation with 410', async () => {
      const owner = await signedInClient(server);
      const member = await signedInClient(server);
      const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role: 'agent' });
      await server.db('team_invites').where({ id: invite.body.id }).update({ expiresAt: new Date(Date.now() - 1000).toISOString() });
      const response = await member.client.post(`/api/team/invites/${invite.body.token}/accept`);
      expect(response.status).toBe(410);
      expect(response.body).toMatchObject({ error: t.inviteExpired, code: 'invite_expired' });
    });

    it('refuses the wrong person with 403, and the invitation stays usable by the right one', async () => {
      const owner = await signedInClient(server);
      const invited = await signedInClient(server, { phoneNumber: '919812345678' });
      const stranger = await signedInClient(server);
      const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { phone: '+91 98123 45678', role: 'manager' });
      const wrong = await stranger.client.post(`/api/team/invites/${invite.body.token}/accept`);
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ error: t.inviteWrongPerson });
      expect((await invited.client.post(`/api/team/invites/${invite.body.token}/accept`)).status).toBe(200);
    });

    it('refuses a withdrawn invitation', async () => {
      const owner = await signedInClient(server);
      const member = await signedInClient(server);
      const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role: 'agent' });
      expect((await owner.client.delete(`/api/team/invites/${invite.body.id}`)).status).toBe(200);
      const response = await member.client.post(`/api/team/invites/${invite.body.token}/accept`);
      expect(response.status).toBe(410);
      expect(response.body).toMatchObject({ error: t.inviteRevoked });
    });
  });

  describe('roles', () => {
    it('lets an analyst read reports and wallet history but not send, naming the role needed', async () => {
      const { member } = await teamWith('analyst');
      expect((await member.client.get('/api/whatsapp/reports/summary')).status).toBe(200);
      expect((await member.client.get('/api/wallet/history')).status).toBe(200);
      const send = await member.client.post('/api/whatsapp/quick-send', {});
      expect(send.status).toBe(403);
      expect(send.body).toMatchObject({ code: 'role_required', error: fillMessage(t.roleRequired, { role: 'analyst', roles: 'owner or manager' }) });
    });

    it('sees the account’s data, not the member’s own', async () => {
      const { owner, member } = await teamWith('manager');
      const key = await owner.client.post<{ data: { id: number } }>('/api/keys', { name: 'shop' });
      const keys = await member.client.get<{ data: { id: number }[] }>('/api/keys');
      expect(keys.body.data.map((row) => row.id)).toContain(key.body.data.id);
    });

    it('lets the owner change a role, which applies to the next request', async () => {
      const { owner, member } = await teamWith('agent');
      expect((await member.client.get('/api/whatsapp/reports/summary')).status).toBe(403);
      expect((await owner.client.patch(`/api/team/members/${member.user.id}`, { role: 'analyst' })).status).toBe(200);
      expect((await member.client.get('/api/whatsapp/reports/summary')).status).toBe(200);
    });

    it('keeps the team area to the owner', async () => {
      const { member } = await teamWith('manager');
      const response = await member.client.get('/api/team/members');
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: fillMessage(t.roleRequired, { role: 'manager', roles: 'owner' }) });
    });
  });

  describe('GET /api/team/activity', () => {
    it('records the member who made a key beside the account, and shows them in the activity log', async () => {
      const { owner, member } = await teamWith('manager');
      const key = await member.client.post<{ data: { id: number } }>('/api/keys', { name: 'by the manager' });
      expect(key.status).toBe(201);
      const row = (await server.db('api_keys').where({ id: key.body.data.id }).first('userId', 'actorUserId')) as { userId: number; actorUserId: number };
      expect(row).toEqual({ userId: owner.user.id, actorUserId: member.user.id });
      const activity = await owner.client.get<{ data: { action: string; actorUserId: number; actorName: string }[] }>('/api/team/activity');
      expect(activity.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'api_key.create', actorUserId: member.user.id, actorName: member.user.name }),
          expect.objectContaining({ action: 'team.join', actorUserId: member.user.id }),
        ]),
      );
    });
  });

  describe('DELETE /api/team/members/{userId}', () => {
    it('ends the member’s sessions in the account at once', async () => {
      const { owner, member } = await teamWith('manager');
      expect((await member.client.get('/api/keys')).status).toBe(200);
      const removed = await owner.client.delete(`/api/team/members/${member.user.id}`);
      expect(removed.status).toBe(200);
      expect((await member.client.get('/api/keys')).status).toBe(401);
      const fresh = new TestClient(server.url);
      await fresh.post('/api/auth/login', { username: member.user.username, password: member.user.plainPassword });
      const accounts = await fresh.get<TAccountSummary[]>('/api/accounts');
      expect(accounts.body.map((account) => account.id)).toEqual([member.user.id]);
      expect((await fresh.post(`/api/accounts/${owner.user.id}/switch`)).status).toBe(403);
    });

    it('refuses to remove the owner', async () => {
      const owner = await signedInClient(server);
      const response = await owner.client.delete(`/api/team/members/${owner.user.id}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: t.ownerCannotLeave });
    });
  });

  describe('invitation delivery', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    const invitesOf = async (client: TestClient) => (await client.get<{ data: TTeamInvite[] }>('/api/team/invites')).body.data;

    it('sends a phone invitation from the platform’s WhatsApp number, with the link, and lists it as sent', async () => {
      const owner = await signedInClient(server);
      const phone = uniquePhone();
      const response = await owner.client.post<TCreatedInvite>('/api/team/invites', { phone: `+${phone}`, role: 'agent' });
      expect(response.status).toBe(201);
      expect(response.body.delivery).toBe('whatsapp_sent');
      const inbox = await new TestClient(server.url).get<{ data: { to: string; text: string }[] }>(`/simulator/messages?to=${phone}`);
      expect(inbox.body.data[0]?.text).toContain(response.body.link);
      expect(inbox.body.data[0]?.text).toContain('as agent');
      expect((await invitesOf(owner.client)).find((invite) => invite.id === response.body.id)).toMatchObject({ phone, delivery: 'whatsapp_sent' });
    });

    it('keeps the invitation when WhatsApp fails, marked for the owner to share the link', async () => {
      const owner = await signedInClient(server);
      vi.spyOn(server.services.messenger, 'sendTeamInvite').mockRejectedValueOnce(new Error('provider down'));
      const response = await owner.client.post<TCreatedInvite>('/api/team/invites', { phone: `+${uniquePhone()}`, role: 'analyst' });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ delivery: 'whatsapp_failed', link: expect.stringContaining(response.body.token) });
      expect((await invitesOf(owner.client)).find((invite) => invite.id === response.body.id)?.delivery).toBe('whatsapp_failed');
    });

    it('makes an e-mail invitation a link to share: the product sends no e-mail', async () => {
      const owner = await signedInClient(server);
      const send = vi.spyOn(server.services.messenger, 'sendTeamInvite');
      const response = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: `share${Date.now()}@example.in`, role: 'manager' });
      expect(response.status).toBe(201);
      expect(response.body.delivery).toBe('link_only');
      expect(send).not.toHaveBeenCalled();
      expect((await invitesOf(owner.client)).find((invite) => invite.id === response.body.id)?.delivery).toBe('link_only');
    });
  });

  describe('who did it', () => {
    const activityOf = async (client: TestClient) =>
      (await client.get<{ data: { action: string; actorUserId: number | null; details: Record<string, unknown> }[] }>('/api/team/activity')).body.data;

    it('stamps a manager’s send again with the manager, not the owner', async () => {
      const { owner, member } = await teamWith('manager');
      const template = await buildTemplate(server, owner.user, { status: 'APPROVED' });
      const { campaignId } = await buildCampaign(server, owner.user, { template, status: 'completed', messages: [{ status: 'failed' }, { status: 'delivered' }] });
      const again = await member.client.post<{ data: { campaignId: number } }>(`/api/campaigns/${campaignId}/send-again`, { audience: 'failed', confirm: true });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const row = (await server.db('campaigns').where({ id: again.body.data.campaignId }).first('userId', 'actorUserId')) as { userId: number; actorUserId: number };
      expect(row).toEqual({ userId: owner.user.id, actorUserId: member.user.id });
      expect(await activityOf(owner.client)).toEqual(
        expect.arrayContaining([expect.objectContaining({ action: 'campaign.create', actorUserId: member.user.id, details: { id: again.body.data.campaignId } })]),
      );
    });

    it('stamps a manager’s upload with the manager', async () => {
      const { owner, member } = await teamWith('manager');
      const content = Buffer.from('phone\n919876500001\n');
      const created = await member.client.post<{ id: string }>('/api/uploads', { filename: 'list.csv', size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const row = (await server.db('uploads').where({ id: created.body.id }).first('userId', 'actorUserId')) as { userId: number; actorUserId: number };
      expect(row).toEqual({ userId: owner.user.id, actorUserId: member.user.id });
      expect(await activityOf(owner.client)).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'upload.create', actorUserId: member.user.id })]));
    });

    it('stamps a top-up’s ledger row with the owner who paid, not the account’s founder', async () => {
      const { owner, member } = await teamWith('manager');
      expect((await owner.client.post('/api/team/transfer-ownership', { userId: member.user.id })).status).toBe(200);
      const order = await member.client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits: 100 });
      expect(order.status, JSON.stringify(order.body)).toBe(200);
      const signed = (await new TestClient(server.url).post<Record<string, string>>('/sandbox/razorpay/pay', { orderId: order.body.orderId })).body;
      const verified = await member.client.post('/api/payments/razorpay/verify', { orderId: signed.razorpay_order_id, paymentId: signed.razorpay_payment_id, signature: signed.razorpay_signature });
      expect(verified.body).toMatchObject({ credited: true });
      const ledger = (await server.db('credit_transactions').where({ userId: owner.user.id, type: 'TOPUP_ADD' }).select('actorUserId')) as { actorUserId: number }[];
      expect(ledger).toEqual([{ actorUserId: member.user.id }]);
      expect(await activityOf(member.client)).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'wallet.topup', actorUserId: member.user.id })]));
    });

    it('stamps a campaign made with an API key with the member who made the key', async () => {
      const { owner, member } = await teamWith('manager');
      const template = await approvedTemplate(server, owner.user, 'Hi {{1}}, your order ships today');
      const { api } = await keyedClient(server, member.client);
      const batch = await api.post<{ data: { campaignId: number } }>('/api/send/batch', {
        username: owner.user.username,
        templatename: template.name,
        messages: [{ recipient_number: '919876511001', var1: 'Asha' }],
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      const single = await api.post<{ campaign_id: number }>('/api/send', { username: owner.user.username, templatename: template.name, recipient_number: '919876511002', var1: 'Ravi' });
      expect(single.status, JSON.stringify(single.body)).toBe(200);
      const rows = (await server.db('campaigns').whereIn('id', [batch.body.data.campaignId, single.body.campaign_id]).select('actorUserId')) as { actorUserId: number }[];
      expect(rows).toEqual([{ actorUserId: member.user.id }, { actorUserId: member.user.id }]);
      expect(await activityOf(owner.client)).toEqual(
        expect.arrayContaining([expect.objectContaining({ action: 'campaign.create', actorUserId: member.user.id, details: expect.objectContaining({ id: batch.body.data.campaignId }) })]),
      );
    });
  });

  describe('DELETE /api/account', () => {
    it('deactivates the account, ends every member’s sessions there and dissolves the team', async () => {
      const { owner, member } = await teamWith('manager');
      await server.db('users').where({ id: owner.user.id }).update({ creditBalance: 0 });
      const deleted = await owner.client.request('DELETE', '/api/account', { currentPassword: owner.user.plainPassword });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(deleted.body).toEqual({ success: true, message: t.accountDeleted });
      expect((await owner.client.get('/api/auth/me')).status).toBe(401);
      expect((await member.client.get('/api/keys')).status).toBe(401);
      expect((await new TestClient(server.url).post('/api/auth/login', { username: owner.user.username, password: owner.user.plainPassword })).status).toBe(401);
      expect(await server.db('account_members').where({ accountId: owner.user.id })).toEqual([]);
      // The member keeps their own login and account.
      const fresh = new TestClient(server.url);
      expect((await fresh.post('/api/auth/login', { username: member.user.username, password: member.user.plainPassword })).status).toBe(200);
      expect((await fresh.get<TAccountSummary[]>('/api/accounts')).body.map((account) => account.id)).toEqual([member.user.id]);
      // Its records stay, as financial records.
      expect(await server.db('users').where({ id: owner.user.id }).first('id')).toBeTruthy();
    });

    it('refuses while the wallet holds money, so paid credits are never lost unseen', async () => {
      const owner = await signedInClient(server, { creditRupees: 25 });
      const response = await owner.client.request('DELETE', '/api/account', { currentPassword: owner.user.plainPassword });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'account_has_balance', error: fillMessage(t.deleteAccountHasBalance, { amount: '₹25.00' }) });
      expect((await owner.client.get('/api/auth/me')).status).toBe(200);
    });

    it('refuses while campaigns are in flight', async () => {
      const owner = await signedInClient(server);
      await buildCampaign(server, owner.user, { status: 'paused' });
      const response = await owner.client.request('DELETE', '/api/account', { currentPassword: owner.user.plainPassword });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'account_has_campaigns', error: fillMessage(t.deleteAccountHasCampaigns, { count: 1 }) });
    });

    it('refuses a wrong password on the field, and keeps the account to its owner', async () => {
      const { owner, member } = await teamWith('manager');
      const wrong = await owner.client.request('DELETE', '/api/account', { currentPassword: 'not-the-password' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: messages.auth.currentPasswordIncorrect, field: 'currentPassword' });
      const byManager = await member.client.request('DELETE', '/api/account', { currentPassword: member.user.plainPassword });
      expect(byManager.status).toBe(403);
      expect(byManager.body).toMatchObject({ error: fillMessage(t.roleRequired, { role: 'manager', roles: 'owner' }) });
      expect((await owner.client.get('/api/auth/me')).status).toBe(200);
    });
  });

  describe('POST /api/team/transfer-ownership', () => {
    it('makes the member the one owner and the old owner a manager; the account keeps its id', async () => {
      const { owner, member } = await teamWith('manager');
      const response = await owner.client.post('/api/team/transfer-ownership', { userId: member.user.id });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const members = await member.client.get<{ data: { userId: number; role: string }[] }>('/api/team/members');
      expect(members.status).toBe(200);
      expect(members.body.data.filter((row) => row.role === 'owner').map((row) => row.userId)).toEqual([member.user.id]);
      expect(members.body.data.find((row) => row.userId === owner.user.id)?.role).toBe('manager');
      expect((await owner.client.get('/api/team/members')).status).toBe(403);
      const accounts = await member.client.get<TAccountSummary[]>('/api/accounts');
      expect(accounts.body.find((account) => account.id === owner.user.id)).toMatchObject({ role: 'owner', ownerUserId: member.user.id });
    });
  });
});
