import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { measure, report } from './measure';

/** Ledger writes (conditional balance update + ledger row, one transaction each) and history reads. */
export const walletBench = {
  name: 'wallet ledger',
  async run(): Promise<void> {
    const server = await startTestServer();
    try {
      const users = await Promise.all(Array.from({ length: 16 }, () => buildUser(server, { creditRupees: 1_000_000 })));
      const one = users[0]!;
      const sameWallet = await measure(2_000, 16, async (i) => {
        await server.services.wallet.apply({ userId: one.id, amountUnits: i % 2 ? 5_000 : -5_000, type: 'BENCH', description: 'bench', idempotencyKey: `bench:same:${i}` });
      });
      report('apply: one wallet (concurrency 16)', sameWallet);
      const manyWallets = await measure(2_000, 16, async (i) => {
        const user = users[i % users.length]!;
        await server.services.wallet.apply({ userId: user.id, amountUnits: -1_000, type: 'BENCH', description: 'bench', idempotencyKey: `bench:many:${i}` });
      });
      report('apply: 16 wallets (concurrency 16)', manyWallets);
      const history = await measure(1_000, 8, async () => {
        await server.services.wallet.history(one.id, 1, 50);
      });
      report('history page of 50 (2,001 rows)', history);
    } finally {
      await server.close();
    }
  },
};
