/**
 * Where a measured load's CPU went on this machine: the server's process, PostgreSQL's processes
 * (where PostgreSQL runs here) and the cores left idle. The public API bench prints it beside its
 * ratio, because on a 2-core machine the database shares the cores the server and the load
 * generator need: the ratio is read against what each of them cost.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface CpuSnapshot {
  atNs: bigint;
  server: NodeJS.CpuUsage;
  /** CPU milliseconds of every process named `postgres` so far; null where /proc has none. */
  postgresMs: number | null;
  /** Idle milliseconds summed over the machine's cores. */
  idleMs: number;
}

export interface CpuShares {
  seconds: number;
  /** Shares of one core (100 = one core busy throughout). */
  serverPercent: number;
  postgresPercent: number | null;
  idlePercent: number;
  cores: number;
}

let clockTicksPerSecond: number | undefined;

function ticksPerSecond(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

/** utime + stime of each process named `postgres` (fields 14 and 15 of /proc/<pid>/stat), in ms. */
function postgresCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  let found = false;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      // Fields after the command start at field 3 (state); utime and stime are fields 14 and 15.
      ticks += Number(fields[11]) + Number(fields[12]);
      found = true;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found ? (ticks * 1000) / ticksPerSecond() : null;
}

function idleMs(): number {
  return cpus().reduce((sum, core) => sum + core.times.idle, 0);
}

export function cpuSnapshot(): CpuSnapshot {
  return { atNs: process.hrtime.bigint(), server: process.cpuUsage(), postgresMs: postgresCpuMs(), idleMs: idleMs() };
}

export function cpuSharesSince(start: CpuSnapshot, end: CpuSnapshot = cpuSnapshot()): CpuShares {
  const seconds = Number(end.atNs - start.atNs) / 1e9;
  const serverMicros = end.server.user - start.server.user + (end.server.system - start.server.system);
  const percentOf = (ms: number) => (ms / 1000 / seconds) * 100;
  return {
    seconds,
    serverPercent: percentOf(serverMicros / 1000),
    postgresPercent: start.postgresMs === null || end.postgresMs === null ? null : percentOf(end.postgresMs - start.postgresMs),
    idlePercent: percentOf(end.idleMs - start.idleMs),
    cores: cpus().length,
  };
}
