import type { Template, User } from '../../server/src/models';
import { adminOf, buildTemplate } from '../../server/test/factories';
import type { TestServer } from '../../server/test/server';

/** Samples the process's resident memory while something runs; answers the peak in MB. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** An approved `Hi {{1}}, code {{2}}` template of `user` named `name` (server/test/factories.ts). */
export function approvedBenchTemplate(server: TestServer, user: User, name: string, body = 'Hi {{1}}, code {{2}}'): Promise<Template> {
  return buildTemplate(server, user, { name, body });
}

export const adminUser = adminOf;
