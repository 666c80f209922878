import { describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { addressAllowed, guardedConnector, guardedLookup, refuseUrl } from './addressPolicy';
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

  it('refuses the reported IPv6 URLs that carry loopback: compatible, 6to4 and translated', async () => {
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[2002:7f00:1::]/hook', 'https://[::ffff:0:7f00:1]/hook']) {
      expect(await refuseUrl(url, production), url).toBe('address');
    }
  });

  it('judges an IPv4 address carried inside IPv6 by the IPv4 policy, in every form', () => {
    const carrying = (ipv4: string): string[] => {
      const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
      const high = ((a << 8) | b).toString(16);
      const low = ((c << 8) | d).toString(16);
      const flipped = `${(((a << 8) | b) ^ 0xffff).toString(16)}:${(((c << 8) | d) ^ 0xffff).toString(16)}`;
      return [
        `::ffff:${ipv4}`,
        `::ffff:${high}:${low}`,
        `::${ipv4}`,
        `::${high}:${low}`,
        `::ffff:0:${ipv4}`,
        `::ffff:0:${high}:${low}`,
        `64:ff9b::${ipv4}`,
        `2002:${high}:${low}::1`,
        // Teredo: a public server, the client's address with every bit flipped.
        `2001:0:808:808:8000:ffff:${flipped}`,
      ];
    };
    for (const ipv4 of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '169.254.169.254', '172.16.0.1', '100.64.0.1', '0.0.0.0']) {
      for (const address of carrying(ipv4)) expect(addressAllowed(address, production), address).toBe(false);
    }
    for (const address of carrying('8.8.8.8')) expect(addressAllowed(address, production), address).toBe(true);
    // A Teredo server address that is private refuses the address too.
    expect(addressAllowed('2001:0:a00:1:8000:ffff:f7f7:f7f7', production)).toBe(false);
  });

  it('refuses unique-local, link-local, site-local, multicast, unspecified, loopback and local-use NAT64 IPv6', () => {
    for (const address of ['fd12:3456::1', 'fc00::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', 'ff05::2', '::', '::1', '0:0:0:0:0:0:0:1', '64:ff9b:1::808:808', '2001:db8::1', '3fff::1']) {
      expect(addressAllowed(address, production), address).toBe(false);
    }
    expect(addressAllowed('2a00:1450:4009:81d::200e', production)).toBe(true);
  });

  it('refuses at connection time an address literal, which Node connects to without a lookup', async () => {
    const connect = guardedConnector(production, 1_000);
    for (const hostname of ['[::7f00:1]', '[2002:7f00:1::]', '127.0.0.1']) {
      const refused = await new Promise<Error | null>((resolve) => connect({ hostname, protocol: 'https:', port: '443' }, (error: Error | null, socket: Socket | null) => {
        socket?.destroy();
        resolve(error);
      }));
      expect((refused as NodeJS.ErrnoException | null)?.code, hostname).toBe('EADDRNOTALLOWED');
    }
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
