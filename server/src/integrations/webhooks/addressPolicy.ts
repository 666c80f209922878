/**
 * Where webhooks may be delivered (issue 15, SSRF safety). In production only `https` URLs whose
 * every resolved address is public: private, loopback, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast and reserved ranges are refused, for IPv4, IPv6
 * and IPv4-mapped IPv6. Outside production loopback is allowed too (tests, the simulator). The
 * check runs when an endpoint is saved and again on every connection (undici's `connect.lookup`),
 * so a name that later resolves elsewhere (DNS rebinding) is refused; redirects are not followed.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

export interface AddressPolicy {
  /** Plain http and loopback addresses are accepted (never in production). */
  allowLoopback: boolean;
  requireHttps: boolean;
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as its IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1] as string, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Whether a webhook may connect to `address` under `policy`. */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  const { address: plain, family } = unmapped(address);
  if (loopback.check(plain, family)) return policy.allowLoopback;
  return !blocked.check(plain, family);
}

export type UrlRefusal = 'invalid' | 'scheme' | 'credentials' | 'address';

/** Checks a URL's form and, by resolving its host, its addresses; answers why it is refused, or null. */
export async function refuseUrl(raw: string, policy: AddressPolicy): Promise<UrlRefusal | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !policy.requireHttps)) return 'scheme';
  if (url.username || url.password) return 'credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAll(host).catch(() => []);
  if (addresses.length === 0 || !addresses.every((address) => addressAllowed(address, policy))) return 'address';
  return null;
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, found: LookupAddress[]) => (error ? reject(error) : resolve(found.map((entry) => entry.address))));
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect that resolves as usual and refuses a host with any address the
 * policy does not allow, so the address checked is the address connected to.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, []);
      const refused = found.find((entry) => !addressAllowed(entry.address, policy));
      if (refused || found.length === 0) {
        const failure = Object.assign(new Error(`webhook address not allowed: ${refused?.address ?? hostname}`), { code: 'EADDRNOTALLOWED' });
        return callback(failure, []);
      }
      if (options.all) return callback(null, found);
      const first = found[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
