import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSettingsStore,
  DEFAULT_SERVER_URL,
  type PendingUpload,
  resolveDefaultServerUrl,
  SETTINGS_FILE,
  ZServerUrl,
} from './settings';

describe('ZServerUrl', () => {
  it('normalises to the origin', () => {
    expect(ZServerUrl.parse('https://Sandesh.Example.com/')).toBe('https://sandesh.example.com');
    expect(ZServerUrl.parse('  http://127.0.0.1:3000  ')).toBe('http://127.0.0.1:3000');
    expect(ZServerUrl.parse('https://sandesh.example.com:443')).toBe('https://sandesh.example.com');
    expect(ZServerUrl.parse('http://[::1]:8080')).toBe('http://[::1]:8080');
  });

  it('refuses schemes other than http and https', () => {
    for (const value of ['ftp://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'app://sandesh', 'ws://example.com']) {
      expect(ZServerUrl.safeParse(value).success, value).toBe(false);
    }
  });

  it('accepts plain http only for this computer', () => {
    for (const value of ['http://localhost:3000', 'http://127.0.0.1', 'http://127.1.2.3:8080', 'http://[::1]:3000', 'http://app.localhost']) {
      expect(ZServerUrl.safeParse(value).success, value).toBe(true);
    }
    for (const value of ['http://10.0.0.5:3000', 'http://sandesh.example.com', 'http://192.168.1.20', 'http://localhost.evil.com', 'http://127.0.0.1.evil.com']) {
      const result = ZServerUrl.safeParse(value);
      expect(result.success, value).toBe(false);
      expect(result.error?.issues[0]?.message, value).toMatch(/^Use https:\/\//);
    }
  });

  it('refuses credentials, paths, queries and fragments', () => {
    for (const value of [
      'https://user:pw@example.com',
      'https://user@example.com',
      'https://example.com/api',
      'https://example.com/?x=1',
      'https://example.com/#top',
    ]) {
      expect(ZServerUrl.safeParse(value).success, value).toBe(false);
    }
  });

  it('refuses non-strings, blanks, junk and over-long input', () => {
    for (const value of [undefined, null, 42, {}, '', '   ', 'example.com', 'http://', `https://${'a'.repeat(2050)}.com`]) {
      expect(ZServerUrl.safeParse(value).success, String(value)).toBe(false);
    }
  });

  it('explains what is wrong', () => {
    const result = ZServerUrl.safeParse('https://example.com/api');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('The server URL must not contain a path, query or fragment');
  });
});

describe('resolveDefaultServerUrl', () => {
  it('uses 127.0.0.1:3000 when nothing is set', () => {
    expect(resolveDefaultServerUrl({})).toEqual({ url: DEFAULT_SERVER_URL });
    expect(resolveDefaultServerUrl({ SANDESH_SERVER_URL: '  ' })).toEqual({ url: DEFAULT_SERVER_URL });
  });

  it('takes SANDESH_SERVER_URL, normalised', () => {
    expect(resolveDefaultServerUrl({ SANDESH_SERVER_URL: 'https://Api.Example.in/' })).toEqual({
      url: 'https://api.example.in',
    });
  });

  it('ignores an invalid SANDESH_SERVER_URL with a warning', () => {
    const result = resolveDefaultServerUrl({ SANDESH_SERVER_URL: 'ftp://example.com' });
    expect(result.url).toBe(DEFAULT_SERVER_URL);
    expect(result.warning).toContain('SANDESH_SERVER_URL ignored');
  });
});

describe('createSettingsStore', () => {
  let dir: string;
  let warnings: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sandesh-settings-'));
    warnings = [];
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const store = (env: Record<string, string> = {}, directory = dir) =>
    createSettingsStore({ dir: directory, env, onWarning: (message) => warnings.push(message) });

  it('answers the default before anything is saved', async () => {
    expect(await store().getServerUrl()).toBe(DEFAULT_SERVER_URL);
  });

  it('answers the environment override before anything is saved', async () => {
    expect(await store({ SANDESH_SERVER_URL: 'https://sandesh.example.com' }).getServerUrl()).toBe(
      'https://sandesh.example.com',
    );
  });

  it('saves the normalised URL as JSON and reads it back in a new store', async () => {
    expect(await store().setServerUrl('HTTPS://Sandesh.Example.com/')).toBe('https://sandesh.example.com');
    const saved = JSON.parse(await readFile(path.join(dir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(saved).toEqual({ serverUrl: 'https://sandesh.example.com' });
    expect(await store().getServerUrl()).toBe('https://sandesh.example.com');
  });

  it('lets a saved choice win over the environment', async () => {
    await store().setServerUrl('https://mine.example.com');
    expect(await store({ SANDESH_SERVER_URL: 'https://env.example.com' }).getServerUrl()).toBe(
      'https://mine.example.com',
    );
  });

  it('creates the directory on first save', async () => {
    const nested = path.join(dir, 'a', 'b');
    await store({}, nested).setServerUrl('https://10.0.0.5:3000');
    expect(await store({}, nested).getServerUrl()).toBe('https://10.0.0.5:3000');
  });

  it('rejects an invalid URL and keeps the saved one', async () => {
    const settings = store();
    await settings.setServerUrl('https://good.example.com');
    await expect(settings.setServerUrl('file:///etc/passwd')).rejects.toThrow(/http:\/\/ or https:\/\//);
    expect(await settings.getServerUrl()).toBe('https://good.example.com');
  });

  it('keeps unknown keys of the file when saving', async () => {
    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ future: { a: 1 }, serverUrl: 'http://x.test' }));
    await store().setServerUrl('https://y.example.com');
    const saved = JSON.parse(await readFile(path.join(dir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(saved).toEqual({ future: { a: 1 }, serverUrl: 'https://y.example.com' });
  });

  it('falls back when the file is corrupt or holds an invalid URL', async () => {
    await writeFile(path.join(dir, SETTINGS_FILE), '{ not json');
    expect(await store().getServerUrl()).toBe(DEFAULT_SERVER_URL);
    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ serverUrl: 'javascript:alert(1)' }));
    expect(await store().getServerUrl()).toBe(DEFAULT_SERVER_URL);
    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify(['an', 'array']));
    expect(await store().getServerUrl()).toBe(DEFAULT_SERVER_URL);
    expect(warnings.length).toBe(3);
  });

  it('keeps the last of several quick saves', async () => {
    const settings = store();
    await Promise.all([
      settings.setServerUrl('https://one.example.com'),
      settings.setServerUrl('https://two.example.com'),
      settings.setServerUrl('https://three.example.com'),
    ]);
    expect(await store().getServerUrl()).toBe('https://three.example.com');
  });

  it('makes a device id once, keeps it beside the server URL, and replaces one that is not an id', async () => {
    const settings = store();
    const [first, again] = await Promise.all([settings.getDeviceId(), settings.getDeviceId()]);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).toBe(first);
    await settings.setServerUrl('https://sandesh.example.com');
    expect(await store().getDeviceId()).toBe(first);
    const saved = JSON.parse(await readFile(path.join(dir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(saved).toEqual({ deviceId: first, serverUrl: 'https://sandesh.example.com' });

    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ deviceId: 'short' }));
    const replaced = await store().getDeviceId();
    expect(replaced).not.toBe('short');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps pending uploads beside the other settings, checked, and drops entries that are not uploads', async () => {
    const upload: PendingUpload = {
      preparedId: 'prepared-1',
      uploadId: '0b8f3d6e-1a22-4c1e-9a55-2f1c9e0a7d4b',
      serverUrl: 'http://127.0.0.1:3000',
      path: '/tmp/prepared-1.csv.gz',
      filename: 'recipients.csv.gz',
      size: 52_428_800,
      mtimeMs: 1_764_000_000_000.5,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      partSize: 8_388_608,
      partCount: 7,
      expiresAt: '2026-11-25T10:00:00.000Z',
      state: 'paused',
      sentBytes: 16_777_216,
    };
    const settings = store();
    expect(await settings.getPendingUploads()).toEqual([]);
    await settings.setServerUrl('https://sandesh.example.com');
    await settings.setPendingUploads([upload]);
    expect(await store().getPendingUploads()).toEqual([upload]);
    expect(await store().getServerUrl()).toBe('https://sandesh.example.com');
    await expect(settings.setPendingUploads([{ ...upload, sha256: 'abc' }])).rejects.toThrow();

    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ pendingUploads: [upload, { preparedId: 'x' }] }));
    expect(await store().getPendingUploads()).toEqual([upload]);
    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ pendingUploads: 'nonsense' }));
    expect(await store().getPendingUploads()).toEqual([]);
    expect(warnings.length).toBe(2);
  });
});
