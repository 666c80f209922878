/**
 * A server as a real child process (node with tsx's loader, server/src/main.ts), driven over HTTP
 * only: the crash tests kill it with SIGKILL mid-campaign and start it again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const START_DEADLINE_MS = 120_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the Node.js running the tests was started with, for the server processes it starts: the
 * Node.js 24 pass (scripts/test-node24.mjs) loads its better-sqlite3 through NODE_OPTIONS.
 */
function runtimeEnv(): Record<string, string> {
  const names = ['NODE_OPTIONS', 'SANDESH_BETTER_SQLITE3_DIR'] as const;
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}

/** The server as a child process that can be killed and started again on the same port and data. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  constructor(
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts the process and answers once GET /api/health does (milliseconds taken). */
  async start(): Promise<number> {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: ROOT, env: { ...runtimeEnv(), ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let exitCode: number | string | null = null;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        exitCode = code ?? signal;
        resolve();
      });
    });
    const keep = (chunk: Buffer) => {
      // The last few kilobytes are enough to say why a start failed.
      this.output = (this.output + chunk.toString()).slice(-8_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    for (;;) {
      if (exitCode !== null) throw new Error(`server exited (${exitCode}) while starting:\n${this.output}`);
      try {
        const response = await fetch(`${this.url}/api/health`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      // A deadline for a start that never comes: beside other suites on two cores, a restart
      // (tsx compiling the server again) took longer than 45 s.
      if (performance.now() - started > START_DEADLINE_MS) throw new Error(`server did not start in ${START_DEADLINE_MS / 1000} s:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    await this.exited;
  }

  /** A graceful stop, forced after a while: cleanup must not hang the suite. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.kill('SIGTERM');
    clearTimeout(forced);
  }

  /** Whether the process is running (started and not exited). */
  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get log(): string {
    return this.output;
  }
}

export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

