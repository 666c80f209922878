import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TOnboardingResponse, TOnboardingStepKey } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('GET /api/onboarding', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const doneSteps = async (client: TestClient): Promise<TOnboardingStepKey[]> => {
    const response = await client.get<TOnboardingResponse>('/api/onboarding');
    expect(response.status).toBe(200);
    return response.body.onboarding.steps.filter((step) => step.done).map((step) => step.key);
  };

  it('shows a new account with ₹0 every step open', async () => {
    const { client } = await signedInClient(server, { creditRupees: 0 });
    const response = await client.get<TOnboardingResponse>('/api/onboarding');
    expect(response.body.onboarding).toEqual({
      steps: [
        { key: 'topUp', done: false },
        { key: 'createTemplate', done: false },
        { key: 'templateApproved', done: false },
        { key: 'firstSend', done: false },
        { key: 'createApiKey', done: false },
      ],
      completed: 0,
      total: 5,
      dismissed: false,
      visible: true,
    });
  });

  it('ticks each step off from the account data, and hides itself once all are done', async () => {
    const { client, user } = await signedInClient(server);
    expect((await admin.post(`/api/admin/users/${user.id}/credits`, { mode: 'add', amount: 500, reason: 'Bank transfer' })).status).toBe(200);
    expect(await doneSteps(client)).toEqual(['topUp']);
    await buildTemplate(server, user, { status: 'PENDING' });
    expect(await doneSteps(client)).toEqual(['topUp', 'createTemplate']);
    const approved = await buildTemplate(server, user, { status: 'APPROVED' });
    expect(await doneSteps(client)).toEqual(['topUp', 'createTemplate', 'templateApproved']);
    await buildCampaign(server, user, { template: approved, messages: [{ status: 'delivered' }] });
    expect(await doneSteps(client)).toEqual(['topUp', 'createTemplate', 'templateApproved', 'firstSend']);
    expect((await client.post('/api/keys', { name: 'Shop' })).status).toBe(201);
    const done = await client.get<TOnboardingResponse>('/api/onboarding');
    expect(done.body.onboarding).toMatchObject({ completed: 5, total: 5, dismissed: false, visible: false });
  });

  it('keeps a dismissal per user', async () => {
    const { client } = await signedInClient(server);
    const { client: other } = await signedInClient(server);
    const dismissed = await client.post<TOnboardingResponse>('/api/onboarding/dismiss');
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.onboarding).toMatchObject({ dismissed: true, visible: false });
    expect((await client.get<TOnboardingResponse>('/api/onboarding')).body.onboarding.visible).toBe(false);
    expect((await other.get<TOnboardingResponse>('/api/onboarding')).body.onboarding.visible).toBe(true);
  });

  it('answers 401 to a visitor', async () => {
    expect((await new TestClient(server.url).get('/api/onboarding')).status).toBe(401);
    expect((await new TestClient(server.url).post('/api/onboarding/dismiss')).status).toBe(401);
  });
});
