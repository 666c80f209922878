import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TPricingStats, TUserPricingResponse } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildUser, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const p = messages.pricing;

describe.skipIf(postgresUnavailable)('pricing', () => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const signedIn = await signedInClient(server, { role: 'admin' });
    admin = signedIn.client;
    adminId = signedIn.user.id;
  });

  const DEFAULTS = { marketing: '0.80', utility: '0.15', authentication: '0.15', service: '0.00' };
  /** Puts the global defaults back, so that later tests start from the spec's prices. */
  async function restoreDefaults(): Promise<void> {
    expect((await admin.put('/api/admin/pricing/defaults', DEFAULTS)).status).toBe(200);
  }
  afterAll(async () => {
    await server?.close();
  });

  describe('global defaults', () => {
    it('starts at marketing 0.80, utility 0.15, authentication 0.15, readable by users too', async () => {
      const { client } = await signedInClient(server);
      const response = await client.get('/api/admin/pricing/defaults');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        defaults: { marketing: '0.80', utility: '0.15', authentication: '0.15' },
        marketing: '0.80',
        utility: '0.15',
        authentication: '0.15',
        currency: 'INR',
      });
      expect((await new TestClient(server.url).get('/api/admin/pricing/defaults')).status).toBe(401);
    });

    it('has a service price of 0 that the admin sets like the others, kept when a form leaves it out', async () => {
      const admin = (await signedInClient(server, { role: 'admin' })).client;
      const before = await admin.get<{ defaults: Record<string, string> }>('/api/admin/pricing/defaults');
      const set = await admin.put('/api/admin/pricing/defaults', { ...before.body.defaults, service: '0.05' });
      expect(set.body).toMatchObject({ defaults: { service: '0.05' } });
      const { service: _service, ...threeCategories } = before.body.defaults;
      const kept = await admin.put('/api/admin/pricing/defaults', threeCategories);
      expect(kept.body).toMatchObject({ defaults: { service: '0.05' } });
      await admin.put('/api/admin/pricing/defaults', before.body.defaults);
    });

    it('lets only admins change them, audited', async () => {
      const { client } = await signedInClient(server);
      expect((await client.put('/api/admin/pricing/defaults', { marketing: '0', utility: '0', authentication: '0' })).status).toBe(403);
      const lastAudit = (await server.db('audit_log').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
      try {
        const response = await admin.put('/api/admin/pricing/defaults', { marketing: '0.9', utility: 0.2, authentication: '0.1234' });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ message: p.defaultsUpdated, defaults: { marketing: '0.90', utility: '0.20', authentication: '0.1234' } });
        // The one audit row this request wrote: who changed what from what.
        const written = (await server.db('audit_log').where('id', '>', Number(lastAudit?.id ?? 0)).select('actorUserId', 'action', 'targetType', 'targetId', 'details')) as {
          actorUserId: number;
          action: string;
          targetType: string;
          targetId: string;
          details: string;
        }[];
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({ actorUserId: adminId, action: 'pricing.defaults.update', targetType: 'pricing', targetId: 'defaults' });
        expect(JSON.parse(written[0]!.details)).toEqual({ before: DEFAULTS, after: { marketing: '0.90', utility: '0.20', authentication: '0.1234', service: '0.00' } });
      } finally {
        await restoreDefaults();
      }
    });

    it.each([
      [{ marketing: '', utility: '0.1', authentication: '0.1' }, 'marketing', p.priceRequired],
      [{ utility: '0.1', authentication: '0.1' }, 'marketing', p.priceRequired],
      [{ marketing: '-1', utility: '0.1', authentication: '0.1' }, 'marketing', p.priceNegative],
      [{ marketing: '0.12345', utility: '0.1', authentication: '0.1' }, 'marketing', p.priceFormat],
      [{ marketing: 'abc', utility: '0.1', authentication: '0.1' }, 'marketing', p.priceFormat],
      [{ marketing: '0.1', utility: '1e3', authentication: '0.1' }, 'utility', p.priceFormat],
    ])('refuses %j with details per field', async (payload, field, message) => {
      const response = await admin.put('/api/admin/pricing/defaults', payload);
      expect(response.status).toBe(400);
      expect(response.body.details).toContainEqual({ field, message });
    });
  });

  describe('per-user pricing', () => {
    it('defaults to the global prices', async () => {
      const user = await buildUser(server);
      const response = await admin.get<TUserPricingResponse>(`/api/admin/pricing/users/${user.id}/pricing`);
      expect(response.body).toEqual({
        success: true,
        mode: 'default',
        custom: { marketing: null, utility: null, authentication: null, service: null },
        effective: { marketing: '0.80', utility: '0.15', authentication: '0.15', service: '0.00' },
        defaults: { marketing: '0.80', utility: '0.15', authentication: '0.15', service: '0.00' },
      });
    });

    it('takes custom prices where given; an empty field means the default', async () => {
      const { client, user } = await signedInClient(server);
      const response = await admin.put<TUserPricingResponse>(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'custom', pricing: { marketing: '0.5', utility: '', authentication: null } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        message: p.userPricingUpdated,
        mode: 'custom',
        custom: { marketing: '0.50', utility: null, authentication: null, service: null },
        effective: { marketing: '0.50', utility: '0.15', authentication: '0.15', service: '0.00' },
      });
      const mine = await client.get('/api/send/my-pricing');
      expect(mine.body).toEqual({ success: true, mode: 'custom', effective: { marketing: '0.50', utility: '0.15', authentication: '0.15', service: '0.00', currency: 'INR' } });
      expect(await server.services.pricing.effectiveFor(user.id, 'marketing')).toBe(5000);
      // The one-read price a send is charged agrees with the full pricing for every category.
      const full = await server.services.pricing.forUser(user.id);
      for (const category of ['marketing', 'utility', 'authentication'] as const) {
        expect(await server.services.pricing.effectiveFor(user.id, category)).toBe(full.effective[category]);
      }
      await admin.put(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'default' });
      expect(await server.services.pricing.effectiveFor(user.id, 'marketing')).toBe(8000);
    });

    it('prices no send for a user that does not exist', async () => {
      await expect(server.services.pricing.effectiveFor(999_999_999, 'utility')).rejects.toMatchObject({ code: 'user_not_found' });
    });

    it('follows a change of the defaults for categories without a custom price', async () => {
      const user = await buildUser(server);
      await admin.put(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'custom', pricing: { marketing: '0.70' } });
      try {
        expect((await admin.put('/api/admin/pricing/defaults', { ...DEFAULTS, utility: '0.25' })).status).toBe(200);
        const response = await admin.get<TUserPricingResponse>(`/api/admin/pricing/users/${user.id}/pricing`);
        expect(response.body.effective).toEqual({ marketing: '0.70', utility: '0.25', authentication: '0.15', service: '0.00' });
      } finally {
        await restoreDefaults();
      }
    });

    it('reverts to defaults and clears the custom prices', async () => {
      const user = await buildUser(server);
      await admin.put(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'custom', pricing: { utility: '0.01' } });
      const response = await admin.put<TUserPricingResponse>(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'default' });
      expect(response.body).toMatchObject({ message: p.userPricingReverted, mode: 'default', custom: { marketing: null, utility: null, authentication: null }, effective: { utility: '0.15' } });
    });

    it.each([
      [{ mode: 'custom', pricing: { marketing: '', utility: '', authentication: '' } }, 'pricing', p.customPriceRequired],
      [{ mode: 'custom' }, 'pricing', p.customPriceRequired],
      [{ mode: 'custom', pricing: { marketing: '-0.1' } }, 'pricing.marketing', p.priceNegative],
      [{ mode: 'custom', pricing: { utility: '0.00001' } }, 'pricing.utility', p.priceFormat],
      [{ mode: 'cheap' }, 'mode', p.modeInvalid],
    ])('refuses %j', async (payload, field, message) => {
      const user = await buildUser(server);
      const response = await admin.put(`/api/admin/pricing/users/${user.id}/pricing`, payload);
      expect(response.status).toBe(400);
      expect(response.body.details).toContainEqual({ field, message });
    });

    it('answers 404 for an unknown user and 403 to users', async () => {
      expect((await admin.get('/api/admin/pricing/users/987654/pricing')).status).toBe(404);
      const { client, user } = await signedInClient(server);
      expect((await client.get(`/api/admin/pricing/users/${user.id}/pricing`)).status).toBe(403);
      expect((await client.put(`/api/admin/pricing/users/${user.id}/pricing`, { mode: 'custom', pricing: { marketing: '0' } })).status).toBe(403);
    });
  });

  it('counts users on custom and default pricing, with the real average marketing price', async () => {
    const isolated = await startTestServer();
    try {
      const { client: root } = await signedInClient(isolated, { role: 'admin' });
      const users = await Promise.all([1, 2, 3, 4].map(() => buildUser(isolated)));
      await root.put(`/api/admin/pricing/users/${users[0]!.id}/pricing`, { mode: 'custom', pricing: { marketing: '0.40' } });
      await root.put(`/api/admin/pricing/users/${users[1]!.id}/pricing`, { mode: 'custom', pricing: { utility: '0.10' } });
      const response = await root.get<{ stats: TPricingStats }>('/api/admin/pricing/stats');
      expect(response.body.stats).toEqual({
        totalUsers: 4,
        customPricingUsers: 2,
        defaultPricingUsers: 2,
        averageMarketing: '0.70',
        averageUtility: '0.1375',
        averageAuthentication: '0.15',
        averageService: '0.00',
      });
    } finally {
      await isolated.close();
    }
  });
});
