import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type {
  TAdminStats,
  TAdminUser,
  TAdminUserDetails,
  TBusinessInfoResponse,
  TBusinessInfoSaveResponse,
  TProviderSettingsResponse,
  TProviderSettingsSaveResponse,
} from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildUser, signedInClient, uniqueName } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

interface NumberRow {
  id: number;
  userId: number;
  provider: string;
  phoneNumberId: string;
  displayNumber: string;
  label: string;
  isActive: boolean | number;
}

describe.skipIf(postgresUnavailable)('admin provider configuration API', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Unique per test, so that the unique (provider, id) of sender numbers never collides. */
  const secrets = () => {
    const tag = uniqueName('s');
    return {
      accessToken: `EAAG-token-${tag}`,
      webhookVerifyToken: `verify-${tag}`,
      appSecret: `appsecret-${tag}`,
      apiKey: `channel-key-${tag}`,
      numberId: `1${Math.floor(Math.random() * 1e14)}`,
      channelId: `ch-${tag}`,
    };
  };

  const numbersOf = async (userId: number): Promise<NumberRow[]> =>
    (await server.db('whatsapp_numbers').where({ userId }).whereNot({ provider: 'simulator' }).orderBy('id')) as NumberRow[];

  describe('role checks', () => {
    it.each([
      ['GET', '/api/admin/users/1/business-info'],
      ['PUT', '/api/admin/users/1/business-info'],
      ['GET', '/api/admin/whatsapp/settings/1'],
      ['PUT', '/api/admin/whatsapp/settings/1'],
    ])('%s %s answers 401 to a visitor and 403 to a user', async (method, path) => {
      const body = method === 'PUT' ? { channelId: 'channel-1', businessName: 'X' } : undefined;
      const visitor = await new TestClient(server.url).request(method, path, body);
      expect(visitor.status).toBe(401);
      const { client } = await signedInClient(server);
      const user = await client.request(method, path, body);
      expect(user.status).toBe(403);
      expect(user.body).toMatchObject({ error: messages.auth.adminRequired, code: 'admin_required' });
    });

    it.each([
      ['GET', '/api/admin/users/999999/business-info'],
      ['PUT', '/api/admin/users/999999/business-info'],
      ['GET', '/api/admin/users/999999/details'],
      ['GET', '/api/admin/whatsapp/settings/999999'],
      ['PUT', '/api/admin/whatsapp/settings/999999'],
    ])('%s %s answers 404 for an unknown user', async (method, path) => {
      const response = await admin.request(method, path, method === 'PUT' ? { channelId: 'channel-1', businessName: 'X' } : undefined);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: messages.admin.userNotFound, code: 'user_not_found' });
    });

    it('answers 404 for a deleted user', async () => {
      const user = await buildUser(server);
      expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
      expect((await admin.get(`/api/admin/users/${user.id}/business-info`)).status).toBe(404);
      expect((await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: 'channel-1' })).status).toBe(404);
    });
  });

  describe('business info', () => {
    it('is null until saved, then answers without any secret', async () => {
      const user = await buildUser(server);
      const empty = await admin.get<TBusinessInfoResponse>(`/api/admin/users/${user.id}/business-info`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ success: true, businessInfo: null });

      const s = secrets();
      const saved = await admin.put<TBusinessInfoSaveResponse>(`/api/admin/users/${user.id}/business-info`, {
        businessName: 'Sharma Traders',
        whatsappNumber: '+91 98765-43210',
        whatsappNumberId: s.numberId,
        wabaId: 'waba_123',
        accessToken: s.accessToken,
        webhookUrl: 'https://hooks.example.in/whatsapp',
        webhookVerifyToken: s.webhookVerifyToken,
        appSecret: s.appSecret,
        isActive: true,
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        success: true,
        message: messages.providers.businessInfoSaved,
        businessInfo: {
          businessName: 'Sharma Traders',
          whatsappNumber: '919876543210',
          whatsappNumberId: s.numberId,
          wabaId: 'waba_123',
          webhookUrl: 'https://hooks.example.in/whatsapp',
          isActive: true,
          accessTokenSet: true,
          webhookVerifyTokenSet: true,
          appSecretSet: true,
        },
      });
      for (const body of [saved.body, (await admin.get(`/api/admin/users/${user.id}/business-info`)).body]) {
        const text = JSON.stringify(body);
        for (const secret of [s.accessToken, s.webhookVerifyToken, s.appSecret]) expect(text).not.toContain(secret);
        expect(text).not.toMatch(/Encrypted|v1:/);
      }
    });

    it('stores the secrets encrypted, and the engine can read them back', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/users/${user.id}/business-info`, {
        businessName: 'Encrypted Co',
        whatsappNumber: '919812345678',
        whatsappNumberId: s.numberId,
        accessToken: s.accessToken,
        webhookVerifyToken: s.webhookVerifyToken,
        appSecret: s.appSecret,
      });
      const row = (await server.db('business_infos').where({ userId: user.id }).first()) as Record<string, unknown>;
      const stored = JSON.stringify(row);
      for (const secret of [s.accessToken, s.webhookVerifyToken, s.appSecret]) expect(stored).not.toContain(secret);
      for (const column of ['accessTokenEncrypted', 'webhookVerifyTokenEncrypted', 'appSecretEncrypted']) {
        expect(row[column]).toMatch(/^v1:[^:]+:[^:]+:[^:]+$/);
      }

      const credentials = server.services.providerCredentials;
      const [number] = await numbersOf(user.id);
      expect(await credentials.credentialsForNumber(number!.id)).toEqual({
        kind: 'cloud_api',
        phoneNumberId: s.numberId,
        accessToken: s.accessToken,
        appSecret: s.appSecret,
      });
      expect(await credentials.webhookSignersForNumber(s.numberId)).toEqual([{ userId: user.id, secret: s.appSecret }]);
      expect(await credentials.verifyTokens()).toContain(s.webhookVerifyToken);
      expect(await server.services.businessInfo.isConfigured(user.id)).toBe(true);
    });

    it('keeps stored secrets when they are left empty or out, and changes only what is given', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Keep Co', whatsappNumberId: s.numberId, accessToken: s.accessToken, appSecret: s.appSecret });
      const again = await admin.put<TBusinessInfoSaveResponse>(`/api/admin/users/${user.id}/business-info`, {
        businessName: 'Keep Co Renamed',
        accessToken: '',
        appSecret: null,
        webhookVerifyToken: '',
      });
      expect(again.status).toBe(200);
      expect(again.body.businessInfo).toMatchObject({
        businessName: 'Keep Co Renamed',
        whatsappNumberId: s.numberId,
        accessTokenSet: true,
        appSecretSet: true,
        webhookVerifyTokenSet: false,
      });
      const [number] = await numbersOf(user.id);
      expect(await server.services.providerCredentials.credentialsForNumber(number!.id)).toMatchObject({ accessToken: s.accessToken, appSecret: s.appSecret });

      const replaced = `${s.accessToken}-new`;
      await admin.put(`/api/admin/users/${user.id}/business-info`, { accessToken: replaced });
      expect(await server.services.providerCredentials.credentialsForNumber(number!.id)).toMatchObject({ accessToken: replaced });

      const cleared = await admin.put<TBusinessInfoSaveResponse>(`/api/admin/users/${user.id}/business-info`, { wabaId: null, webhookUrl: '' });
      expect(cleared.body.businessInfo).toMatchObject({ wabaId: null, webhookUrl: null, businessName: 'Keep Co Renamed' });
    });

    it.each([
      [{ whatsappNumber: '98765abc10' }, messages.validation.whatsappNumberInvalid, 'whatsappNumber'],
      [{ whatsappNumber: '12345' }, messages.validation.whatsappNumberInvalid, 'whatsappNumber'],
      [{ webhookUrl: 'ftp://hooks.example.in' }, messages.providers.webhookUrlInvalid, 'webhookUrl'],
      [{ webhookUrl: 'hooks.example.in/whatsapp' }, messages.providers.webhookUrlInvalid, 'webhookUrl'],
      [{ businessName: 'x'.repeat(101) }, messages.providers.businessNameMax, 'businessName'],
      [{ whatsappNumberId: 'id with spaces' }, messages.providers.numberIdInvalid, 'whatsappNumberId'],
      [{ accessToken: 'token with spaces' }, messages.providers.accessTokenInvalid, 'accessToken'],
      [{ isActive: 'yes' }, messages.providers.isActiveInvalid, 'isActive'],
    ])('refuses %j with the catalogue message', async (payload, message, field) => {
      const user = await buildUser(server);
      const response = await admin.put(`/api/admin/users/${user.id}/business-info`, payload);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field });
      expect((await admin.get<TBusinessInfoResponse>(`/api/admin/users/${user.id}/business-info`)).body.businessInfo).toBeNull();
    });

    it('records who changed what in the audit log, without secrets', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Audit Co', accessToken: s.accessToken });
      await admin.put(`/api/admin/users/${user.id}/business-info`, { isActive: false });
      const rows = (await server.db('audit_log').where({ targetId: String(user.id) }).whereIn('action', ['business_info.create', 'business_info.update']).orderBy('id')) as {
        action: string;
        details: string;
      }[];
      expect(rows.map((row) => row.action)).toEqual(['business_info.create', 'business_info.update']);
      expect(JSON.parse(rows[0]!.details)).toEqual({ fields: ['businessName'], secretsReplaced: ['accessToken'] });
      expect(JSON.parse(rows[1]!.details)).toEqual({ fields: ['isActive'], secretsReplaced: [] });
      expect(rows.map((row) => row.details).join()).not.toContain(s.accessToken);
    });
  });

  describe('sender numbers follow the business info', () => {
    it('registers an active Cloud API number only with a number id and a token', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Numbers Co', whatsappNumber: '+91 98123 45678', whatsappNumberId: s.numberId });
      expect(await numbersOf(user.id)).toEqual([]);
      await admin.put(`/api/admin/users/${user.id}/business-info`, { accessToken: s.accessToken });
      const [row, ...rest] = await numbersOf(user.id);
      expect(rest).toEqual([]);
      expect(row).toMatchObject({ provider: 'cloud_api', phoneNumberId: s.numberId, displayNumber: '919812345678', label: 'Numbers Co' });
      expect(Boolean(row!.isActive)).toBe(true);
      // The sender list the sending screens use.
      expect((await server.services.senderNumbers.listForUser(user.id)).map((n) => n.phoneNumberId)).toContain(s.numberId);
    });

    it('deactivates (never deletes) a replaced number id, and every number when the business is inactive', async () => {
      const user = await buildUser(server);
      const s = secrets();
      const next = `${s.numberId}9`;
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Move Co', whatsappNumberId: s.numberId, accessToken: s.accessToken });
      await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      await admin.put(`/api/admin/users/${user.id}/business-info`, { whatsappNumberId: next });
      let rows = await numbersOf(user.id);
      expect(rows.map((row) => [row.provider, row.phoneNumberId, Boolean(row.isActive)])).toEqual([
        ['cloud_api', s.numberId, false],
        ['channel', s.channelId, true],
        ['cloud_api', next, true],
      ]);
      const oldId = rows[0]!.id;
      expect(await server.services.providerCredentials.credentialsForNumber(oldId)).toBeNull();

      await admin.put(`/api/admin/users/${user.id}/business-info`, { isActive: false });
      rows = await numbersOf(user.id);
      expect(rows.every((row) => !row.isActive)).toBe(true);
      for (const row of rows) expect(await server.services.providerCredentials.credentialsForNumber(row.id)).toBeNull();

      // Switching back re-activates the same rows rather than adding new ones.
      await admin.put(`/api/admin/users/${user.id}/business-info`, { isActive: true, whatsappNumberId: s.numberId });
      rows = await numbersOf(user.id);
      expect(rows).toHaveLength(3);
      expect(rows.filter((row) => row.isActive).map((row) => row.phoneNumberId).sort()).toEqual([s.channelId, s.numberId].sort());
      expect(rows.find((row) => row.phoneNumberId === s.numberId)?.id).toBe(oldId);
    });

    it("refuses another account's number id with 409 and changes nothing", async () => {
      const owner = await buildUser(server);
      const other = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/users/${owner.id}/business-info`, { whatsappNumberId: s.numberId, accessToken: s.accessToken });
      const response = await admin.put(`/api/admin/users/${other.id}/business-info`, { whatsappNumberId: s.numberId, accessToken: s.accessToken });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ error: messages.providers.numberIdTaken, field: 'whatsappNumberId' });
      expect(await server.services.businessInfo.isConfigured(other.id)).toBe(false);

      await admin.put(`/api/admin/whatsapp/settings/${owner.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      const channel = await admin.put(`/api/admin/whatsapp/settings/${other.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      expect(channel.status).toBe(409);
      expect(channel.body).toMatchObject({ error: messages.providers.channelIdTaken, field: 'channelId' });
    });

    it('gives simulator numbers no credentials', async () => {
      const user = await buildUser(server);
      const sandbox = await server.services.senderNumbers.ensureSandbox(user.id);
      expect(await server.services.providerCredentials.credentialsForNumber(sandbox.id)).toBeNull();
      expect(await server.services.providerCredentials.credentialsForNumber(987654321)).toBeNull();
    });
  });

  describe('user details, list and stats', () => {
    it('nests the full business info in the details, without secrets', async () => {
      const user = await buildUser(server);
      const before = await admin.get<TAdminUserDetails>(`/api/admin/users/${user.id}/details`);
      expect(before.body.user).toMatchObject({ id: user.id, isConfigured: false, businessInfo: null });

      const s = secrets();
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Details Co', whatsappNumberId: s.numberId, accessToken: s.accessToken });
      const details = await admin.get<TAdminUserDetails>(`/api/admin/users/${user.id}/details`);
      expect(details.status).toBe(200);
      expect(details.body).toMatchObject({
        success: true,
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          role: 'user',
          creditBalance: 0,
          isConfigured: true,
          businessInfo: {
            businessName: 'Details Co',
            whatsappNumberId: s.numberId,
            accessTokenSet: true,
            appSecretSet: false,
            webhookVerifyTokenSet: false,
            isActive: true,
          },
        },
      });
      expect(typeof details.body.user.businessInfo?.createdAt).toBe('string');
      expect(JSON.stringify(details.body)).not.toContain(s.accessToken);
      expect(details.body.user).not.toHaveProperty('passwordHash');
    });

    it('marks configured users in the list and counts them in the stats', async () => {
      const before = (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats;
      const configured = await buildUser(server);
      const plain = await buildUser(server);
      const deleted = await buildUser(server);
      await admin.put(`/api/admin/users/${configured.id}/business-info`, { businessName: 'Listed Co', whatsappNumber: '919800000001' });
      await admin.put(`/api/admin/users/${deleted.id}/business-info`, { businessName: 'Gone Co' });
      await admin.delete(`/api/admin/users/${deleted.id}`);

      const list = await admin.get<{ users: TAdminUser[] }>('/api/admin/users');
      const row = list.body.users.find((u) => u.id === configured.id);
      expect(row).toMatchObject({ isConfigured: true, businessInfo: { businessName: 'Listed Co', whatsappNumber: '919800000001', isActive: true } });
      expect(list.body.users.find((u) => u.id === plain.id)).toMatchObject({ isConfigured: false, businessInfo: null });

      const after = (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats;
      expect(after.configuredUsers - before.configuredUsers).toBe(1);
      expect(await server.services.businessInfo.configuredUserIds()).toContain(configured.id);
      expect(await server.services.businessInfo.configuredUserIds()).not.toContain(deleted.id);
    });
  });

  describe('provider settings', () => {
    it('answers the defaults for a user without settings', async () => {
      const user = await buildUser(server);
      const response = await admin.get<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${user.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        userId: user.id,
        businessName: messages.providers.businessNameDefault,
        whatsappNumber: messages.providers.whatsappNumberDefault,
        provider: 'channel',
        channelId: null,
        apiKeySet: false,
        webhookUrl: `${server.config.publicBaseUrl}/api/webhooks/whatsapp`,
        updatedAt: null,
      });
    });

    it('saves the channel, keeps the key write-only, and toggles apiKeySet', async () => {
      const user = await buildUser(server);
      const s = secrets();
      const first = await admin.put<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${user.id}`, { channelId: `  ${s.channelId}  ` });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ success: true, message: messages.providers.settingsSaved, channelId: s.channelId, apiKeySet: false });
      expect(await numbersOf(user.id)).toEqual([]);

      const withKey = await admin.put<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${user.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      expect(withKey.body).toMatchObject({ apiKeySet: true });
      expect(Date.parse(withKey.body.updatedAt)).not.toBeNaN();
      expect(JSON.stringify(withKey.body)).not.toContain(s.apiKey);

      const read = await admin.get<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${user.id}`);
      expect(read.body).toMatchObject({ channelId: s.channelId, apiKeySet: true, updatedAt: withKey.body.updatedAt });
      expect(JSON.stringify(read.body)).not.toContain(s.apiKey);

      const row = (await server.db('provider_settings').where({ userId: user.id }).first()) as { apiKeyEncrypted: string };
      expect(row.apiKeyEncrypted).toMatch(/^v1:/);
      expect(row.apiKeyEncrypted).not.toContain(s.apiKey);

      const [number] = await numbersOf(user.id);
      expect(number).toMatchObject({ provider: 'channel', phoneNumberId: s.channelId, displayNumber: '', label: messages.providers.channelNumberFallback });
      expect(await server.services.providerCredentials.credentialsForNumber(number!.id)).toEqual({ kind: 'channel', channelId: s.channelId, apiKey: s.apiKey });
      // 360dialog's webhooks carry a token derived from the key (checked with it), not a signature made with it.
      expect(await server.services.providerCredentials.channelWebhookKeys(s.channelId)).toEqual([{ userId: user.id, secret: s.apiKey }]);
      expect(await server.services.providerCredentials.webhookSignersForNumber(s.channelId)).toEqual([]);
      // No 360dialog in this suite (a closed port): saved, and the answer says the webhook is not registered.
      expect(withKey.body.webhook).toMatchObject({ registered: false });

      // Without a key the stored one stays.
      const keep = await admin.put<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${user.id}`, { channelId: s.channelId, apiKey: '' });
      expect(keep.body.apiKeySet).toBe(true);
      expect(await server.services.providerCredentials.credentialsForNumber(number!.id)).toMatchObject({ apiKey: s.apiKey });
    });

    it('shows the business name and number, and labels the channel number with them', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Channel Co', whatsappNumber: '919811112222' });
      const read = await admin.get<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${user.id}`);
      expect(read.body).toMatchObject({ businessName: 'Channel Co', whatsappNumber: '919811112222' });
      const [number] = await numbersOf(user.id);
      expect(number).toMatchObject({ provider: 'channel', displayNumber: '919811112222', label: 'Channel Co (channel)' });
    });

    it('replaces the channel number when the channel id changes', async () => {
      const user = await buildUser(server);
      const s = secrets();
      await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: s.channelId, apiKey: s.apiKey });
      await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: `${s.channelId}.v2` });
      const rows = await numbersOf(user.id);
      expect(rows.map((row) => [row.phoneNumberId, Boolean(row.isActive)])).toEqual([
        [s.channelId, false],
        [`${s.channelId}.v2`, true],
      ]);
      const audit = (await server.db('audit_log').where({ targetId: String(user.id), action: 'provider_settings.update' }).first()) as { details: string };
      expect(JSON.parse(audit.details)).toEqual({ channelId: `${s.channelId}.v2`, previousChannelId: s.channelId, apiKeyReplaced: false });
    });

    it.each([
      [{}, messages.providers.channelIdRequired],
      [{ channelId: '   ' }, messages.providers.channelIdRequired],
      [{ channelId: 'a' }, messages.providers.channelIdMin],
      [{ channelId: 'c'.repeat(129) }, messages.providers.channelIdMax],
      [{ channelId: 'bad channel!' }, messages.providers.channelIdChars],
    ])('refuses channel %j with the spec message', async (payload, message) => {
      const user = await buildUser(server);
      const response = await admin.put(`/api/admin/whatsapp/settings/${user.id}`, payload);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field: 'channelId' });
    });

    it.each([
      ['short', messages.providers.apiKeyLength],
      ['k'.repeat(4097), messages.providers.apiKeyLength],
      [' padded-api-key-1 ', messages.providers.apiKeySpaces],
    ])('refuses the API key %j', async (apiKey, message) => {
      const user = await buildUser(server);
      const response = await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: 'channel-ok', apiKey });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field: 'apiKey' });
      expect((await admin.get<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${user.id}`)).body.channelId).toBeNull();
    });

    it('accepts a channel id of exactly 128 characters and a key of 4096', async () => {
      const user = await buildUser(server);
      const response = await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: `${uniqueName('c')}`.padEnd(128, 'x'), apiKey: 'k'.repeat(4096) });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ apiKeySet: true });
    });
  });
});
