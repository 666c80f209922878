/**
 * Where webhooks may be delivered (SSRF safety). In production only `https` URLs whose
 * every resolved address is public: private, loopback, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast and reserved ranges are refused, for IPv4 and
 * IPv6, and for IPv4 addresses carried inside IPv6 ones (mapped, compatible, translated, 6to4,
 * NAT64, Teredo: network/ipAddresses.ts), which are judged by the IPv4 address they carry.
 * Outside production loopback is allowed too (tests, the simulator). The check runs when an
 * endpoint is saved and again on every connection: names through undici's `connect.lookup`, so a
 * name that later resolves elsewhere (DNS rebinding) is refused, and address literals in the
 * connector itself, since Node connects to those without a lookup; redirects are not followed.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { buildConnector } from 'undici';
import { bareAddress, embeddedIPv4, isLoopbackAddress } from '../../network/ipAddresses';

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
  ['192.88.99.0', 24],
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
  // Unspecified; the IPv4 forms inside ::/96 and ::ffff:0:0/96 are judged by what they carry.
  ['::', 128],
  // NAT64 for local use: where the IPv4 address sits depends on the operator's prefix length.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  // Unique local, site-local (deprecated but still routed inside some networks), link-local, multicast.
  ['fc00::', 7],
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

function ipv4Allowed(address: string, policy: AddressPolicy): boolean {
  if (isLoopbackAddress(address)) return policy.allowLoopback;
  return !blocked.check(address, 'ipv4');
}

/** Whether a webhook may connect to `address` under `policy`. */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return ipv4Allowed(bare, policy);
  if (family !== 6) return false;
  if (isLoopbackAddress(bare)) return policy.allowLoopback;
  const embedded = embeddedIPv4(bare);
  if (embedded) return embedded.addresses.every((ipv4) => ipv4Allowed(ipv4, policy));
  return !blocked.check(bare, 'ipv6');
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
  const host = bareAddress(url.hostname);
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
        return callback(refusedAddress(refused?.address ?? hostname), []);
      }
      if (options.all) return callback(null, found);
      const first = found[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

function refusedAddress(address: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`webhook address not allowed: ${address}`), { code: 'EADDRNOTALLOWED' });
}

/**
 * undici's connector with the policy applied to every connection: a host name through
 * `guardedLookup`, and an address literal (which Node connects to without any lookup) here, so an
 * endpoint saved before a rule existed is held to it too.
 */
export function guardedConnector(policy: AddressPolicy, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(policy), timeout: timeoutMs });
  return (options, callback) => {
    const host = bareAddress(options.hostname);
    if (isIP(host) && !addressAllowed(host, policy)) {
      callback(refusedAddress(host), null);
      return;
    }
    connect(options, callback);
  };
}
