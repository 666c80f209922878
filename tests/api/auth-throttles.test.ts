/**
 * Throttles that hold against parallel requests, that a
 * spoofed X-Forwarded-For cannot dodge, and that an attacker cannot turn against the owner.
 * The server trusts one proxy hop; each test speaks from its own addresses so their counters
 * stay apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '@shared/constants';
import { signWebhookBody } from '../../server/src/sending/providers/webhooks';
import { TestClient } from '../../server/test/client';
import { buildUser, signedInClient, uniqueName, uniquePhone } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

let octet = 0;
/** A fresh documentation address (TEST-NET-3) for each use. */
const freshAddress = () => {
  octet += 1;
  return `203.0.${Math.floor(octet / 250)}.${(octet % 250) + 1}`;
};

describe.skipIf(postgresUnavailable)('authentication throttles', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A client behind the load balancer: the balancer appends `address`, the client wrote `spoofed`. */
  const from = (address: string, spoofed?: string) => new TestClient(server.url).withHeaders({ 'X-Forwarded-For': spoofed ? `${spoofed}, ${address}` : address });

  async function codeSentTo(phone: string): Promise<string[]> {
    const inbox = await new TestClient(server.url).get<{ data: { text: string }[] }>(`/simulator/messages?to=${phone}`);
    return inbox.body.data.map((m) => /\b(\d{6})\b/.exec(m.text)?.[1] ?? '');
  }

  it('counts OTP attempts atomically: after eight parallel wrong codes the right one no longer works', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    expect((await from(freshAddress()).post('/api/auth/forgot-password', { username: user.username, phone })).status).toBe(200);
    const [code] = await codeSentTo(phone);
    const wrong = code === '000000' ? '000001' : '000000';
    // Fewer than the per-username check limit, so only the attempt count can stop them.
    const answers = await Promise.all(Array.from({ length: 8 }, () => from(freshAddress()).post('/api/auth/verify-otp', { username: user.username, otp: wrong })));
    expect(answers.every((a) => a.status === 400 || a.status === 429)).toBe(true);
    const row = (await server.db('password_resets').where({ userId: user.id }).orderBy('id', 'desc').first('attempts')) as { attempts: number };
    expect(row.attempts).toBe(AUTH.otpMaxAttempts);
    const right = await from(freshAddress()).post('/api/auth/verify-otp', { username: user.username, otp: code });
    // The fifth wrong code spent it: the right one is refused (too many attempts, or no code left).
    expect(right.status).not.toBe(200);
    expect(['otp_too_many_attempts', 'otp_invalid']).toContain(right.body.code);
  });

  it('throttles code checks per address', async () => {
    const address = freshAddress();
    let status = 0;
    for (let i = 0; i <= AUTH.otpVerifyPerIp && status !== 429; i += 1) {
      status = (await from(address).post('/api/auth/verify-otp', { username: uniqueName(), otp: '123456' })).status;
    }
    expect(status).toBe(429);
  });

  it('judges no more guesses than the limit in a parallel burst, even right ones', async () => {
    const user = await buildUser(server);
    const address = freshAddress();
    const guesses = [...Array.from({ length: 15 }, () => 'wrong-guess'), ...Array.from({ length: 5 }, () => user.plainPassword)];
    const answers = await Promise.all(guesses.map((password) => from(address).post('/api/auth/login', { username: user.username, password })));
    const judged = answers.filter((a) => a.status === 401 || a.status === 200).length;
    expect(judged).toBeLessThanOrEqual(AUTH.loginFailuresPerUsername);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(guesses.length - AUTH.loginFailuresPerUsername);
  });

  it('does not lock an account out for 15 minutes after 60 failures from many addresses', async () => {
    const admin = await buildUser(server, { role: 'admin' });
    for (let source = 0; source < 12; source += 1) {
      const address = freshAddress();
      for (let i = 0; i < 5; i += 1) await from(address).post('/api/auth/login', { username: admin.username, password: 'not-it' });
    }
    const owner = await from(freshAddress()).post('/api/auth/login', { username: admin.username, password: admin.plainPassword });
    if (owner.status === 429) {
      // A short, growing delay for the account, never the 15-minute block.
      expect(owner.body.code).toBe('login_slowed_down');
      expect(Number(owner.headers.get('retry-after'))).toBeLessThanOrEqual(AUTH.loginDelayMaxSeconds);
    } else {
      expect(owner.status).toBe(200);
    }
  });

  it('takes the client address from the right of X-Forwarded-For, so a spoofed leftmost entry changes nothing', async () => {
    const user = await buildUser(server);
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH.loginFailuresPerUsername + 1; i += 1) {
      statuses.push((await from(address, `10.9.8.${i + 1}`).post('/api/auth/login', { username: user.username, password: 'spoofed-guess' })).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('throttles sign-ups per address before hashing their passwords', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH.signupsPerIpPerHour; i += 1) {
      const username = uniqueName('signup');
      const res = await from(address).post('/api/auth/signup', { name: 'Sign Up', email: `${username}@example.com`, username, password: 'secret-pass-1', confirmPassword: 'secret-pass-1', phoneNumber: uniquePhone() });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, AUTH.signupsPerIpPerHour).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("lets nobody else's requests use up the owner's forgot-password allowance", async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const attacker = freshAddress();
    for (let i = 0; i < AUTH.otpRequestsPerWindow + 1; i += 1) await from(attacker).post('/api/auth/forgot-password', { username: user.username, phone: uniquePhone() });
    const owner = await from(freshAddress()).post('/api/auth/forgot-password', { username: user.username, phone });
    expect(owner.status).toBe(200);
    expect(await codeSentTo(phone)).toHaveLength(1);
  });

  it('bounds the codes one phone number gets per day, however many accounts name it', async () => {
    const phone = uniquePhone();
    const accounts = await Promise.all([0, 1, 2].map(() => buildUser(server, { phoneNumber: phone })));
    for (const account of accounts) {
      for (let i = 0; i < 2; i += 1) expect((await from(freshAddress()).post('/api/auth/forgot-password', { username: account.username, phone })).status).toBe(200);
    }
    expect(await codeSentTo(phone)).toHaveLength(AUTH.otpCodesPerPhonePerDay);
  });

  it('keeps the simulator inbox, the sandbox checkout and the default simulator secret to this machine', async () => {
    const remote = freshAddress();
    expect((await new TestClient(server.url).get('/simulator/messages')).status).toBe(200);
    const inbox = await from(remote).get('/simulator/messages');
    expect(inbox.status).toBe(403);
    expect(inbox.body.code).toBe('local_only');
    expect((await from(remote).post('/sandbox/razorpay/pay', { orderId: 'order_anything' })).status).toBe(403);

    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'x', changes: [{ field: 'messages', value: { metadata: { phone_number_id: 'sandbox-number' }, statuses: [] } }] }] });
    const { client } = await signedInClient(server);
    const numbers = await client.get<{ data: { phone_number_id: string }[] }>('/api/whatsapp/numbers');
    const signed = raw.replace('sandbox-number', numbers.body.data[0]!.phone_number_id);
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(signed, server.config.simulator.appSecret) };
    const fromRemote = await fetch(`${server.url}/api/webhooks/whatsapp`, { method: 'POST', headers: { ...headers, 'x-forwarded-for': remote }, body: signed });
    expect(fromRemote.status).toBe(401);
    const fromHere = await fetch(`${server.url}/api/webhooks/whatsapp`, { method: 'POST', headers, body: signed });
    expect(fromHere.status).toBe(200);
  });
});
