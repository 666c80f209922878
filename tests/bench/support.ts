import type { Template, User } from '../../server/src/models';
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

export async function approvedBenchTemplate(server: TestServer, user: User, name: string, bodyText = 'Hi {{1}}, code {{2}}'): Promise<Template> {
  const [admin] = (await server.db('users').where({ role: 'admin' }).limit(1)) as { id: number }[];
  const adminUser = await server.services.users.findById(admin!.id);
  const draft = await server.services.templates.create(
    user,
    { name, category: 'MARKETING', language: 'en_US', headerType: 'none', headerText: '', bodyText, footerText: '', buttons: [], variableExamples: {}, submit_to_whatsapp: true },
    undefined,
  );
  return server.services.templates.review(adminUser!, draft.id, { status: 'APPROVED' }, null);
}

export async function adminUser(server: TestServer): Promise<User> {
  const [admin] = (await server.db('users').where({ role: 'admin' }).limit(1)) as { id: number }[];
  return (await server.services.users.findById(admin!.id)) as User;
}
