import { randomBytes } from 'node:crypto';

/** Random bytes taken from the system at a time: one call serves about 340 message ids. */
const POOL_BYTES = 4_096;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `bytes` random bytes as lowercase hex, cut from a pooled buffer. The simulator names every send
 * (`wamid.SIM…`); a `randomBytes` call per send took seconds of the simulator's thread over a long
 * send, on the cores the instances share.
 */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString('hex');
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
