/**
 * A sign-in from a new device: each browser is known by its `sandesh_device` cookie and
 * the desktop app by the id it sends in `X-Sandesh-Device`. The first sign-in of an account tells
 * nobody anything; a later one from a device not seen before is told to the user, naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, DEVICE_ID_HEADER, DESKTOP_CLIENT_HEADER, DESKTOP_CLIENT_VALUE } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TNotification, TNotificationList } from '@shared/schemas/notifications';
import { TestClient } from '../../server/test/client';
import { buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const ELECTRON_ON_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Sandesh/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36';
const DESKTOP_ID = '2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22';

describe.skipIf(postgresUnavailable)('sign-in from a new device', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signIn(client: TestClient, user: { username: string; plainPassword: string }): Promise<void> {
    const response = await client.post('/api/auth/login', { username: user.username, password: user.plainPassword });
    expect(response.status).toBe(200);
  }

  const browser = (userAgent: string) => new TestClient(server.url).withHeaders({ 'User-Agent': userAgent });
  const desktop = (deviceId?: string) =>
    new TestClient(server.url).withHeaders({ 'User-Agent': ELECTRON_ON_MAC, [DESKTOP_CLIENT_HEADER]: DESKTOP_CLIENT_VALUE, ...(deviceId ? { [DEVICE_ID_HEADER]: deviceId } : {}) });

  async function newDeviceNotices(client: TestClient): Promise<TNotification[]> {
    return (await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === 'new_device');
  }

  it('gives a browser a long-lived httpOnly device cookie for sign-in only, and says nothing of the first device', async () => {
    const user = await buildUser(server);
    const first = browser(CHROME_ON_WINDOWS);
    const response = await first.post('/api/auth/login', { username: user.username, password: user.plainPassword });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${DEVICE_COOKIE}=`));
    expect(cookie).toMatch(/; path=\/api\/auth/i);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    // Long-lived: it outlasts any session (browsers cap a cookie at 400 days).
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie ?? '')?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(399 * 86_400_000);
    expect(first.cookie(DEVICE_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Signing out and in again on the same browser: the same device, nothing to tell.
    const deviceId = first.cookie(DEVICE_COOKIE);
    await first.post('/api/auth/logout');
    expect(first.cookie(DEVICE_COOKIE)).toBe(deviceId);
    await signIn(first, user);
    expect(first.cookie(DEVICE_COOKIE)).toBe(deviceId);
    expect(await newDeviceNotices(first)).toEqual([]);
    const stored = (await server.db('user_devices').where({ userId: user.id }).select('deviceHash', 'label')) as { deviceHash: string; label: string }[];
    // Only a hash of the id is kept.
    expect(stored).toEqual([{ deviceHash: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown, label: 'Chrome on Windows' }]);
    expect(stored[0]!.deviceHash).not.toContain(deviceId);
  });

  it('tells the user of a second browser and of the desktop app, naming each, once per device', async () => {
    const user = await buildUser(server);
    const home = browser(CHROME_ON_WINDOWS);
    await signIn(home, user);
    expect(await newDeviceNotices(home)).toEqual([]);

    const laptop = browser(FIREFOX_ON_LINUX);
    await signIn(laptop, user);
    await expect.poll(async () => (await newDeviceNotices(home)).map((n) => n.message)).toEqual([fillMessage(messages.notifications.newDevice, { device: 'Firefox on Linux' })]);
    const notice = (await newDeviceNotices(home))[0]!;
    expect(notice).toMatchObject({ type: 'warning', title: messages.notifications.newDeviceTitle, read: false });

    // The desktop app: its own id makes it one device however often it signs in.
    const app = desktop(DESKTOP_ID);
    const login = await app.post<{ token: string }>('/api/auth/login', { username: user.username, password: user.plainPassword });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie().some((line) => line.startsWith(`${DEVICE_COOKIE}=`))).toBe(false);
    await expect.poll(async () => (await newDeviceNotices(home)).length).toBe(2);
    expect((await newDeviceNotices(home))[0]!.message).toBe(fillMessage(messages.notifications.newDevice, { device: 'Sandesh desktop on macOS' }));
    await signIn(desktop(DESKTOP_ID), user);
    await signIn(laptop, user);
    await signIn(home, user);
    expect(await newDeviceNotices(home)).toHaveLength(2);
  });

  it('treats a missing or malformed device id as a new device (a copied session cookie alone is no device)', async () => {
    const user = await buildUser(server);
    const home = browser(CHROME_ON_WINDOWS);
    await signIn(home, user);

    const tampered = browser(CHROME_ON_WINDOWS).withHeaders({ Cookie: `${DEVICE_COOKIE}=short` });
    const response = await tampered.post('/api/auth/login', { username: user.username, password: user.plainPassword });
    expect(response.status).toBe(200);
    // A fresh id replaces the malformed one.
    expect(response.headers.getSetCookie().find((line) => line.startsWith(`${DEVICE_COOKIE}=`))).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{43};`));
    await expect.poll(async () => (await newDeviceNotices(home)).length).toBe(1);

    // A desktop app too old to send its id counts as new each time: it errs on telling.
    await signIn(desktop(), user);
    await signIn(desktop('not an id!'), user);
    await expect.poll(async () => (await newDeviceNotices(home)).length).toBe(3);
  });

  it('keeps an unknown browser and other users apart: devices are per account', async () => {
    const alice = await buildUser(server);
    const bob = await buildUser(server);
    const shared = browser(FIREFOX_ON_LINUX);
    await signIn(shared, alice);
    await shared.post('/api/auth/logout');
    // Bob's first sign-in, on the browser Alice used: his first device, nothing to tell.
    await signIn(shared, bob);
    expect(await newDeviceNotices(shared)).toEqual([]);
    const unknownAgent = new TestClient(server.url).withHeaders({ 'User-Agent': 'curl/8.5.0' });
    await signIn(unknownAgent, bob);
    await expect.poll(async () => (await newDeviceNotices(unknownAgent)).map((n) => n.message)).toEqual([fillMessage(messages.notifications.newDevice, { device: 'A web browser' })]);
  });
});
