import { describe, expect, it } from 'vitest';
import { desktopAuthHeaders } from './auth';

describe('desktopAuthHeaders', () => {
  const deviceId = '2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22';
  const settings = (serverUrl: string) => ({ getServerUrl: async () => serverUrl, getDeviceId: async () => deviceId });

  it("sends the configured server's keychain token as a bearer token, as the desktop client, with the device id", async () => {
    const tokens = new Map([['https://a.example', 'token-of-a-0123456789abcdef']]);
    const headers = desktopAuthHeaders({ keychain: { getToken: async (origin) => tokens.get(origin) ?? null }, settings: settings('https://a.example') });
    expect(await headers()).toEqual({ 'X-Client': 'desktop', 'X-Sandesh-Device': deviceId, Authorization: 'Bearer token-of-a-0123456789abcdef' });
  });

  it('leaves Authorization out when nothing is saved for the server', async () => {
    const headers = desktopAuthHeaders({ keychain: { getToken: async () => null }, settings: settings('https://b.example') });
    expect(await headers()).toEqual({ 'X-Client': 'desktop', 'X-Sandesh-Device': deviceId });
  });
});
