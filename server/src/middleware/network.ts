import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (`::ffff:127.0.0.1`). */
export function isLoopback(address: string | undefined | null): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (plain === '::1') return true;
  return isIP(plain) === 4 && plain.startsWith('127.');
}

/** True when HOST binds only this machine's loopback (`localhost`, 127.x, ::1). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopback(host);
}
