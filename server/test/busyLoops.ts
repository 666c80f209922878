/**
 * Busy CPU loops beside a test: the sending guarantees must hold on a loaded machine,
 * where timers fire late and event loops stall, not only on an idle one. Each loop is a child
 * process spinning until the test stops it, and at most `maxMs` in any case, so a crashed test
 * never leaves one behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface BusyLoops {
  readonly count: number;
  stop(): Promise<void>;
}

/** How many loops the tests run by default: more than a small machine has cores. */
export const DEFAULT_BUSY_LOOPS = 3;

export function startBusyLoops(count = DEFAULT_BUSY_LOOPS, maxMs = 180_000): BusyLoops {
  const script = `const end = Date.now() + ${Math.max(1, Math.floor(maxMs))}; let x = 0; while (Date.now() < end) { x = (x + 1) % 1e9; }`;
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    // A loop that cannot start is not a reason to fail the test it stands beside.
    child.on('error', () => undefined);
    children.push(child);
  }
  let stopping: Promise<void> | null = null;
  return {
    count,
    stop: () =>
      (stopping ??= Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      ).then(() => undefined)),
  };
}
