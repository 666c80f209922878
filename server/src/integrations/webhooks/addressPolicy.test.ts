import { describe, expect, it } from 'vitest';
import { addressAllowed, guardedLookup, refuseUrl } from './addressPolicy';
import { retryDelayMs } from './deliverer';
import { signatureHeader, verifySignature } from './signature';

const production = { allowLoopback: false, requireHttps: true };
const development = { allowLoopback: true, requireHttps: false };

describe('webhook address policy', () => {
  it('refuses private, loopback, link-local, metadata, CGNAT and reserved addresses in production', () => {
    for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '224.0.0.1', '::1', 'fd00:ec2::254', 'fe80::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::']) {
      expect(addressAllowed(address, production), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(addressAllowed(address, production), address).toBe(true);
  });

  it('allows loopback outside production, never private networks', () => {
    expect(addressAllowed('127.0.0.1', development)).toBe(true);
    expect(addressAllowed('::1', development)).toBe(true);
    expect(addressAllowed('10.0.0.1', development)).toBe(false);
    expect(addressAllowed('169.254.169.254', development)).toBe(false);
  });

  it('refuses http, credentials and private hosts by URL in production', async () => {
    expect(await refuseUrl('http://8.8.8.8/hook', production)).toBe('scheme');
    expect(await refuseUrl('https://user:pw@8.8.8.8/hook', production)).toBe('credentials');
    expect(await refuseUrl('https://127.0.0.1/hook', production)).toBe('address');
    expect(await refuseUrl('https://[::1]/hook', production)).toBe('address');
    expect(await refuseUrl('https://localhost/hook', production)).toBe('address');
    expect(await refuseUrl('https://8.8.8.8/hook', production)).toBeNull();
    expect(await refuseUrl('http://127.0.0.1:9/hook', development)).toBeNull();
    expect(await refuseUrl('::not-a-url', development)).toBe('invalid');
  });

  it('refuses at connection time a name that resolves to a refused address', async () => {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(production)('localhost', {}, (error) => resolve(error)));
    expect(refused?.code).toBe('EADDRNOTALLOWED');
    const allowed = await new Promise<string>((resolve, reject) => guardedLookup(development)('localhost', {}, (error, address) => (error ? reject(error) : resolve(String(address)))));
    expect(['127.0.0.1', '::1']).toContain(allowed);
  });
});

describe('webhook signatures and retries', () => {
  it('signs "<t>.<body>" so that a receiver can verify it, and refuses a changed body or an old timestamp', () => {
    const at = new Date('2026-11-24T09:30:00.000Z');
    const header = signatureHeader('whsec_test', '{"id":"evt_1"}', at);
    expect(header).toMatch(/^t=1795512600,v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_test', '{"id":"evt_1"}', header, at)).toBe(true);
    expect(verifySignature('whsec_test', '{"id":"evt_2"}', header, at)).toBe(false);
    expect(verifySignature('whsec_other', '{"id":"evt_1"}', header, at)).toBe(false);
    expect(verifySignature('whsec_test', '{"id":"evt_1"}', header, new Date(at.getTime() + 301_000))).toBe(false);
  });

  it('backs off exponentially from 30 s to 2 h with up to half of jitter', () => {
    expect(retryDelayMs(1, () => 1)).toBe(30_000);
    expect(retryDelayMs(1, () => 0)).toBe(15_000);
    expect(retryDelayMs(3, () => 1)).toBe(120_000);
    expect(retryDelayMs(20, () => 1)).toBe(7_200_000);
    expect(retryDelayMs(20, () => 0)).toBe(3_600_000);
  });
});
