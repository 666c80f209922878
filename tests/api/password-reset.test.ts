import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { TestClient } from '../../server/test/client';
import { buildUser, uniqueName, uniquePhone } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

interface SimulatedMessage {
  to: string;
  text: string;
}

describe.skipIf(postgresUnavailable)('forgot password by WhatsApp code', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const anonymous = () => new TestClient(server.url);

  async function codeSentTo(phone: string): Promise<string> {
    const inbox = await anonymous().get<{ data: SimulatedMessage[] }>(`/simulator/messages?to=${phone}`);
    const latest = inbox.body.data[0];
    if (!latest) throw new Error(`no message to ${phone}`);
    const code = /\b(\d{6})\b/.exec(latest.text)?.[1];
    if (!code) throw new Error(`no code in "${latest.text}"`);
    return code;
  }

  it('goes from request to code to new password, and the old sessions end', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const signedIn = anonymous();
    await signedIn.post('/api/auth/login', { username: user.username, password: user.plainPassword });

    const client = anonymous();
    const requested = await client.post('/api/auth/forgot-password', { username: user.username, phone });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({ success: true, otpSent: true, message: messages.auth.otpSent, phoneLast4: phone.slice(-4) });

    const inbox = await anonymous().get<{ data: (SimulatedMessage & { from: string })[] }>(`/simulator/messages?to=${phone}`);
    expect(inbox.body.data[0]?.from).toBe(server.config.platformWhatsappNumber);
    expect(inbox.body.data[0]?.text).toContain(server.config.brand.name);

    const code = await codeSentTo(phone);
    const verified = await client.post('/api/auth/verify-otp', { username: user.username, otp: code });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true, resetAllowed: true, message: messages.auth.otpVerified });
    expect(client.cookie('sandesh_reset')).toBeTruthy();

    const reset = await client.post('/api/auth/reset-password', { username: user.username, newPassword: 'brand-new-pass' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, message: messages.auth.resetSuccess });

    expect((await signedIn.get('/api/auth/me')).status).toBe(401);
    expect((await anonymous().post('/api/auth/login', { username: user.username, password: user.plainPassword })).status).toBe(401);
    expect((await anonymous().post('/api/auth/login', { username: user.username, password: 'brand-new-pass' })).status).toBe(200);

    // Single use: the same code and the same reset proof do nothing more.
    expect((await client.post('/api/auth/verify-otp', { username: user.username, otp: code })).status).toBe(400);
    expect((await client.post('/api/auth/reset-password', { username: user.username, newPassword: 'third-pass-1' })).status).toBe(400);
  });

  it('answers an unknown username or a wrong phone exactly like a match, and sends nothing', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const wrongPhone = uniquePhone();
    for (const payload of [
      { username: uniqueName('ghost'), phone },
      { username: user.username, phone: wrongPhone },
    ]) {
      const response = await anonymous().post('/api/auth/forgot-password', payload);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, otpSent: true, message: messages.auth.otpSent, phoneLast4: payload.phone.slice(-4) });
    }
    expect((await anonymous().get<{ data: unknown[] }>(`/simulator/messages?to=${phone}`)).body.data).toHaveLength(0);
    expect((await anonymous().get<{ data: unknown[] }>(`/simulator/messages?to=${wrongPhone}`)).body.data).toHaveLength(0);
  });

  it('requires username and phone with the spec message, and keeps only the digits of the phone', async () => {
    for (const payload of [{}, { username: 'someone' }, { phone: '919876543210' }, { username: 'someone', phone: '+-- ' }]) {
      const response = await anonymous().post('/api/auth/forgot-password', payload);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: messages.validation.usernameAndPhoneRequired });
    }
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const formatted = `+${phone.slice(0, 2)} ${phone.slice(2, 7)}-${phone.slice(7)}`;
    expect((await anonymous().post('/api/auth/forgot-password', { username: user.username, phone: formatted })).status).toBe(200);
    expect(await codeSentTo(phone)).toMatch(/^\d{6}$/);
  });

  it('validates the code: required, then six digits', async () => {
    const required = await anonymous().post('/api/auth/verify-otp', { username: 'someone', otp: '' });
    expect(required.body).toMatchObject({ error: messages.validation.otpRequired, field: 'otp' });
    const malformed = await anonymous().post('/api/auth/verify-otp', { username: 'someone', otp: '12ab' });
    expect(malformed.body).toMatchObject({ error: messages.auth.otpInvalid, field: 'otp' });
  });

  it('allows five attempts, then the code is dead even when right', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    await anonymous().post('/api/auth/forgot-password', { username: user.username, phone });
    const code = await codeSentTo(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: wrong });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: messages.auth.otpInvalid });
    }
    const fifth = await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: wrong });
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ error: messages.auth.otpTooManyAttempts });
    expect((await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: code })).status).toBe(400);
  });

  it('expires a code after ten minutes', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    await anonymous().post('/api/auth/forgot-password', { username: user.username, phone });
    const code = await codeSentTo(phone);
    await server.db('password_resets').where({ userId: user.id }).update({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const response = await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: code });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: messages.auth.otpExpired });
  });

  it('stores the code hashed', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    await anonymous().post('/api/auth/forgot-password', { username: user.username, phone });
    const code = await codeSentTo(phone);
    const row = (await server.db('password_resets').where({ userId: user.id }).first()) as { codeHash: string };
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toMatch(/^\$argon2id\$/);
  });

  it('replaces an earlier code with a new one', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    await anonymous().post('/api/auth/forgot-password', { username: user.username, phone });
    const first = await codeSentTo(phone);
    await anonymous().post('/api/auth/forgot-password', { username: user.username, phone });
    const second = await codeSentTo(phone);
    if (first !== second) {
      expect((await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: first })).status).toBe(400);
    }
    expect((await anonymous().post('/api/auth/verify-otp', { username: user.username, otp: second })).status).toBe(200);
  });

  it('refuses a reset without a verified code', async () => {
    const user = await buildUser(server, { phoneNumber: uniquePhone() });
    const response = await anonymous().post('/api/auth/reset-password', { username: user.username, newPassword: 'sneaky-pass' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: messages.auth.resetNotAllowed });
  });

  it("will not let one person's verified code reset another account", async () => {
    const phone = uniquePhone();
    const victim = await buildUser(server, { phoneNumber: uniquePhone() });
    const attacker = await buildUser(server, { phoneNumber: phone });
    const client = anonymous();
    await client.post('/api/auth/forgot-password', { username: attacker.username, phone });
    await client.post('/api/auth/verify-otp', { username: attacker.username, otp: await codeSentTo(phone) });
    const response = await client.post('/api/auth/reset-password', { username: victim.username, newPassword: 'hijacked-1' });
    expect(response.status).toBe(400);
  });

  it('validates the new password', async () => {
    const missing = await anonymous().post('/api/auth/reset-password', { username: 'someone', newPassword: '' });
    expect(missing.body).toMatchObject({ error: messages.validation.bothPasswordsRequired });
    const short = await anonymous().post('/api/auth/reset-password', { username: 'someone', newPassword: '12345' });
    expect(short.body).toMatchObject({ error: messages.validation.passwordMin });
  });

  it('gives a desktop client the reset proof in the body instead of a cookie', async () => {
    const phone = uniquePhone();
    const user = await buildUser(server, { phoneNumber: phone });
    const desktop = anonymous().withHeaders({ 'X-Client': 'desktop' });
    await desktop.post('/api/auth/forgot-password', { username: user.username, phone });
    const verified = await desktop.post('/api/auth/verify-otp', { username: user.username, otp: await codeSentTo(phone) });
    expect(typeof verified.body.resetToken).toBe('string');
    expect(desktop.cookie('sandesh_reset')).toBeUndefined();
    const reset = await desktop.post('/api/auth/reset-password', { username: user.username, newPassword: 'desktop-pass-1', resetToken: verified.body.resetToken });
    expect(reset.status).toBe(200);
  });

  it('throttles repeated code requests for one username', async () => {
    const user = await buildUser(server, { phoneNumber: uniquePhone() });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await anonymous().post('/api/auth/forgot-password', { username: user.username, phone: '911234567890' })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});
