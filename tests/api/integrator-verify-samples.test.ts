import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_VERIFY_SAMPLES } from '@shared/webhookSamples';
import { signatureHeader } from '../../server/src/integratorApi/webhooks/signature';

const sample = (label: string) => WEBHOOK_VERIFY_SAMPLES.find((s) => s.label === label)?.code ?? '';
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe('the documented webhook verification samples', () => {
  const secret = 'whsec_sample_secret';
  const body = '{"id":"evt_1","type":"message.delivered","created_at":"2026-11-24T09:30:03.000Z","data":{}}';
  const header = signatureHeader(secret, body, new Date());

  it('Node.js accepts our signature and refuses a changed body', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-sample-'));
    const file = path.join(dir, 'verify.mjs');
    fs.writeFileSync(file, sample('Node.js'));
    try {
      const { verifySandesh } = (await import(pathToFileURL(file).href)) as { verifySandesh: (b: string, h: string, s: string) => boolean };
      expect(verifySandesh(body, header, secret)).toBe(true);
      expect(verifySandesh(`${body} `, header, secret)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPython)('Python accepts our signature and refuses another secret', () => {
    const run = (useSecret: string) =>
      execFileSync('python3', ['-c', `${sample('Python')}\nimport sys\nprint(verify_sandesh(sys.argv[1].encode(), sys.argv[2], sys.argv[3]))`, body, header, useSecret]).toString().trim();
    expect(run(secret)).toBe('True');
    expect(run('whsec_other')).toBe('False');
  });
});
