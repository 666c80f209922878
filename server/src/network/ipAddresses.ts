/**
 * Reading IP addresses the way the network does, for the checks that decide where the server may
 * connect and who counts as this computer. An IPv6 address can carry an IPv4 address inside it
 * (mapped, compatible, translated, 6to4, NAT64, Teredo): a check that looks only at the IPv6 text
 * would let `[::127.0.0.1]` or `[2002:7f00:1::]` through to a loopback or private host.
 */
import { isIP } from 'node:net';

/** The address without an IPv6 zone (`fe80::1%eth0`) or URL brackets. */
export function bareAddress(address: string): string {
  return address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

/** The eight 16-bit groups of an IPv6 address, or null when the text is not one. */
export function ipv6Groups(address: string): number[] | null {
  let text = bareAddress(address);
  if (isIP(text) !== 6) return null;
  // A dotted IPv4 tail (`::ffff:10.0.0.1`) is the last two groups written in decimal.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head = '', tail] = text.split('::');
  const groups = tail === undefined ? parse(head) : [...parse(head), ...new Array<number>(8 - parse(head).length - parse(tail).length).fill(0), ...parse(tail)];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

const zero = (groups: number[], from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);

/** How an IPv6 address carries an IPv4 one. */
export type EmbeddingKind = 'mapped' | 'translated' | 'compatible' | 'nat64' | '6to4' | 'teredo';

/**
 * The IPv4 addresses an IPv6 address carries and the form that carries them, or null for an
 * address that carries none. Where a packet to it ends up depends on those addresses: a mapped
 * address is the IPv4 host itself on a dual-stack socket, a compatible or translated one is
 * tunnelled or translated to it, a 6to4 address is reached through the relay of the IPv4 host it
 * names, a NAT64 address (64:ff9b::/96) is translated to the IPv4 host, and a Teredo address names
 * its server and, with every bit flipped, its client. `::` and `::1` are not embeddings.
 */
export function embeddedIPv4(address: string): { kind: EmbeddingKind; addresses: string[] } | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const last = ipv4Of(g[6] as number, g[7] as number);
  if (zero(g, 0, 5) && g[5] === 0xffff) return { kind: 'mapped', addresses: [last] };
  if (zero(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return { kind: 'translated', addresses: [last] };
  if (zero(g, 0, 6) && !(g[6] === 0 && (g[7] === 0 || g[7] === 1))) return { kind: 'compatible', addresses: [last] };
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g, 2, 6)) return { kind: 'nat64', addresses: [last] };
  if (g[0] === 0x2002) return { kind: '6to4', addresses: [ipv4Of(g[1] as number, g[2] as number)] };
  if (g[0] === 0x2001 && g[1] === 0) {
    return { kind: 'teredo', addresses: [ipv4Of(g[2] as number, g[3] as number), ipv4Of((g[6] as number) ^ 0xffff, (g[7] as number) ^ 0xffff)] };
  }
  return null;
}

/** True for 127.0.0.0/8 and ::1, and for 127.0.0.0/8 written as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string): boolean {
  const bare = bareAddress(address);
  if (isIP(bare) === 4) return bare.split('.')[0] === '127';
  const groups = ipv6Groups(bare);
  if (!groups) return false;
  if (zero(groups, 0, 7) && groups[7] === 1) return true;
  // Only the mapped form is this computer: the other embeddings travel through a tunnel or a
  // translator to wherever the IPv4 address leads from there.
  const embedded = embeddedIPv4(bare);
  return embedded?.kind === 'mapped' && (embedded.addresses[0] ?? '').startsWith('127.');
}
