import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';

/** Accepting one large campaign: pricing, duplicate lookups, one debit and batched message rows. */
export const acceptanceBench = {
  name: 'campaign acceptance',
  async run(): Promise<void> {
    const server = await startTestServer();
    try {
      const user = await buildUser(server, { creditRupees: 10_000_000 });
      const [admin] = (await server.db('users').where({ role: 'admin' }).limit(1)) as { id: number }[];
      const adminUser = await server.services.users.findById(admin!.id);
      const draft = await server.services.templates.create(
        user,
        { name: 'bench_promo', category: 'MARKETING', language: 'en_US', headerType: 'none', headerText: '', bodyText: 'Hi {{1}}, code {{2}}', footerText: '', buttons: [], variableExamples: {}, submit_to_whatsapp: true },
        undefined,
      );
      const template = await server.services.templates.review(adminUser!, draft.id, { status: 'APPROVED' }, null);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      for (const size of [10_000, 100_000]) {
        const recipients = Array.from({ length: size }, (_, i) => ({ to: `91${6_000_000_000 + size + i}`, variables: { '1': 'Asha', '2': String(i) } }));
        const rssBefore = process.memoryUsage().rss;
        const started = performance.now();
        const accepted = await server.services.campaigns.accept({ user, template, senderNumberId: sender.id, name: `bench ${size}`, source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `  accept ${String(size).padStart(7)} recipients: ${seconds.toFixed(2)} s (${Math.round(accepted.accepted / seconds)}/s), RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB (was ${(rssBefore / 1024 / 1024).toFixed(0)} MB)`,
        );
      }
    } finally {
      await server.close();
    }
  },
};
