import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecretsKey, parseSecretsKey, SecretBox, SecretBoxError } from './secretBox';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with a fresh IV each time', () => {
    const first = box.seal('EAAG-access-token', 'business_infos.access_token:1');
    const second = box.seal('EAAG-access-token', 'business_infos.access_token:1');
    expect(first).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('EAAG');
    expect(box.open(first, 'business_infos.access_token:1')).toBe('EAAG-access-token');
    expect(box.open(second, 'business_infos.access_token:1')).toBe('EAAG-access-token');
  });

  it('keeps non-ASCII and long values intact', () => {
    const value = `कुंजी-${'x'.repeat(4096)}`;
    expect(box.open(box.seal(value))).toBe(value);
  });

  it('detects a changed ciphertext, tag or IV', () => {
    const sealed = box.seal('app-secret-value');
    const [version, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      return bytes.toString('base64');
    };
    expect(() => box.open([version, iv, tag, flip(data)].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([version, iv, flip(tag), data].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([version, flip(iv), tag, data].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open(`v2:${iv}:${tag}:${data}`)).toThrow(SecretBoxError);
    expect(() => box.open('plain text')).toThrow(SecretBoxError);
  });

  it('refuses another key and another context', () => {
    const sealed = box.seal('channel-api-key', 'provider_settings.api_key:7');
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'provider_settings.api_key:7')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'provider_settings.api_key:8')).toThrow(SecretBoxError);
  });

  it('takes only 32-byte keys', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(SecretBoxError);
  });
});

describe('parseSecretsKey', () => {
  it('reads base64 and hex', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('hex')).equals(key)).toBe(true);
    expect(() => parseSecretsKey('c2hvcnQ=')).toThrow(SecretBoxError);
  });
});

describe('loadSecretsKey', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses the configured key and writes no file', () => {
    const dataDir = tempDir();
    const key = randomBytes(32);
    expect(loadSecretsKey({ secretsKey: key.toString('base64'), dataDir }).equals(key)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
  });

  it('creates DATA_DIR/secrets.key once (owner-only) and reuses it', () => {
    const dataDir = path.join(tempDir(), 'nested');
    const first = loadSecretsKey({ secretsKey: null, dataDir });
    const file = path.join(dataDir, 'secrets.key');
    expect(first).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    const second = loadSecretsKey({ secretsKey: null, dataDir });
    expect(second.equals(first)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual(['secrets.key']);
  });

  it('opens values sealed before a restart', () => {
    const dataDir = tempDir();
    const sealed = new SecretBox(loadSecretsKey({ secretsKey: null, dataDir })).seal('verify-token');
    expect(new SecretBox(loadSecretsKey({ secretsKey: null, dataDir })).open(sealed)).toBe('verify-token');
  });

  it('refuses a damaged key file rather than replacing it', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'secrets.key'), 'not a key\n');
    expect(() => loadSecretsKey({ secretsKey: null, dataDir })).toThrow(SecretBoxError);
  });
});
