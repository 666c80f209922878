/**
 * Provider secrets at rest (access tokens, app secrets, verify tokens, channel API keys):
 * AES-256-GCM with a random 96-bit IV per value, stored as
 *   v1:<iv base64>:<auth tag base64>:<ciphertext base64>
 * The version prefix leaves room for a later key rotation or cipher change without guessing
 * what an old value is. An optional context string is bound as additional authenticated data,
 * so a value copied into another row or column no longer opens.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_FILE = 'secrets.key';

/** A stored value that does not open: tampered with, from another key, or not ours at all. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new SecretBoxError(`The secrets key must be ${KEY_BYTES} bytes, got ${key.length}`);
    // A private copy: the caller's buffer may be reused or zeroed.
    this.key = Buffer.from(key);
  }

  /** Encrypts a secret; `context` (e.g. `business_infos.access_token:42`) must be given again to open it. */
  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** Decrypts a value from `seal`. Throws SecretBoxError when it was altered or sealed with another key or context. */
  open(sealed: string, context = ''): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('Unknown secret format');
    const [, ivText, tagText, dataText] = parts as [string, string, string, string];
    const iv = Buffer.from(ivText, 'base64');
    const tag = Buffer.from(tagText, 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('Unknown secret format');
    const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('A stored secret could not be decrypted: it was altered, or SECRETS_KEY is not the key it was written with');
    }
  }
}

/** SECRETS_KEY as config.ts accepts it: 32 bytes as base64 (44 characters) or hex (64). */
export function parseSecretsKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`The secrets key must be ${KEY_BYTES} bytes as base64 or hex`);
  return key;
}

/**
 * The key that encrypts provider secrets. Production must configure SECRETS_KEY (config.ts
 * refuses to start without it). Elsewhere, so that `npm start` works out of the box, a key is
 * generated once into `DATA_DIR/secrets.key` (mode 0600) and reused; losing that file makes the
 * stored secrets unreadable, and several instances need the same SECRETS_KEY.
 */
export function loadSecretsKey(config: Pick<AppConfig, 'secretsKey' | 'dataDir'>): Buffer {
  if (config.secretsKey) return parseSecretsKey(config.secretsKey);
  const file = path.join(config.dataDir, KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written aside and linked into place: link fails when the file exists, so two processes
    // starting together keep one key, and nobody ever reads a half-written file.
    const pending = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(pending, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(pending, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(pending, { force: true });
    }
  }
  return parseSecretsKey(fs.readFileSync(file, 'utf8'));
}
