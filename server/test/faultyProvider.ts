/**
 * Provider stand-ins that misbehave the ways real networks do, as an HTTP proxy in
 * front of the simulator, which records every send it receives and posts its status webhooks:
 * - `timeout`: the provider takes the send, and its answer never comes (the client times out);
 * - `slow`: the provider takes the send and answers after `delayMs` (longer than the lease);
 * - `reset`: the connection is reset, every other time before the request reaches the provider
 *   (nothing was sent) and otherwise after the provider took it (the answer is lost).
 * Every `every`-th send is treated so; the others pass through untouched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export type FaultMode = 'none' | 'timeout' | 'slow' | 'reset';

export interface FaultyProvider {
  url: string;
  setMode(mode: FaultMode, options?: { every?: number; delayMs?: number }): void;
  /** Sends by what happened to them since the last setMode. */
  readonly stats: { passed: number; timedOut: number; slowed: number; resetBefore: number; resetAfter: number };
  close(): Promise<void>;
}

export async function startFaultyProvider(upstream: string): Promise<FaultyProvider> {
  let mode: FaultMode = 'none';
  let every = 3;
  let delayMs = 0;
  let seen = 0;
  const stats = { passed: 0, timedOut: 0, slowed: 0, resetBefore: 0, resetAfter: 0 };
  const held = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const faulted = mode !== 'none' && req.method === 'POST' && ++seen % every === 0;
        if (faulted && mode === 'reset' && stats.resetBefore <= stats.resetAfter) {
          stats.resetBefore += 1;
          req.socket.destroy();
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
        const answer = await request(`${upstream}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'POST', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : null });
        const text = await answer.body.text();
        const respond = () => {
          if (res.destroyed) return;
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
          res.end(text);
        };
        if (!faulted) {
          stats.passed += 1;
          return respond();
        }
        if (mode === 'timeout') {
          stats.timedOut += 1;
          // On a loaded machine the client can give up while the send is still on its way to the
          // simulator: its connection is already closed, and no 'close' would take it off the list.
          if (res.destroyed || req.socket.destroyed) return;
          held.add(res);
          res.on('close', () => held.delete(res));
          return;
        }
        if (mode === 'reset') {
          stats.resetAfter += 1;
          req.socket.destroy();
          return;
        }
        stats.slowed += 1;
        const timer = setTimeout(() => {
          timers.delete(timer);
          respond();
        }, delayMs);
        timers.add(timer);
      })().catch(() => req.socket.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    setMode(next, options = {}) {
      mode = next;
      every = options.every ?? 3;
      delayMs = options.delayMs ?? 0;
      seen = 0;
      Object.assign(stats, { passed: 0, timedOut: 0, slowed: 0, resetBefore: 0, resetAfter: 0 });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
