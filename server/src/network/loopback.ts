import { isLoopbackAddress } from './ipAddresses';

/**
 * True for 127.0.0.0/8, ::1 and IPv4-mapped loopback in any spelling (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`). Other IPv6 forms that carry 127.x (compatible, 6to4, NAT64) are not this
 * computer: they lead through a tunnel or a translator, so they do not count.
 */
export function isLoopback(address: string | undefined | null): boolean {
  if (!address) return false;
  return isLoopbackAddress(address);
}

/** True when HOST binds only this machine's loopback (`localhost`, 127.x, ::1). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopback(host);
}
