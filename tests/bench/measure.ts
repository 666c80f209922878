/** Latency and throughput of an async operation run with some concurrency. */
export interface Figures {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export async function measure(count: number, concurrency: number, operation: (i: number) => Promise<void>): Promise<Figures> {
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        const t0 = performance.now();
        await operation(i);
        durations.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const at = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] ?? 0;
  return { count, seconds, perSecond: count / seconds, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export function report(label: string, f: Figures): void {
  console.log(
    `  ${label.padEnd(38)} ${String(f.count).padStart(6)} ops  ${f.perSecond.toFixed(0).padStart(6)}/s  p50 ${f.p50.toFixed(1)} ms  p95 ${f.p95.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms`,
  );
}
