/**
 * How a file is cut into the parts of a resumable upload, for both clients: the
 * desktop's main process (desktop/src/main/uploads) and the browser (renderer platform/).
 */

/** The bytes of part `n` (from 1) of a file of `size` bytes cut in parts of `partSize`; the last part may be short. */
export function partRange(n: number, partSize: number, size: number): { start: number; end: number } {
  const start = (n - 1) * partSize;
  return { start, end: Math.min(size, start + partSize) };
}

/** The parts still to send, in order: every part from 1 to `partCount` that has not arrived. */
export function partsToSend(partCount: number, receivedParts: readonly number[]): number[] {
  const received = new Set(receivedParts);
  const missing: number[] = [];
  for (let n = 1; n <= partCount; n += 1) if (!received.has(n)) missing.push(n);
  return missing;
}

/** Bytes the server holds, given the parts that arrived. */
export function bytesReceived(receivedParts: Iterable<number>, partSize: number, size: number): number {
  let total = 0;
  for (const n of new Set(receivedParts)) {
    const { start, end } = partRange(n, partSize, size);
    total += Math.max(0, end - start);
  }
  return total;
}
