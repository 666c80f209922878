import Router from '@koa/router';
import { ZWalletHistoryQuery } from '@shared/schemas/wallet';
import type { TWalletHistoryResponse } from '@shared/walletHistory';
import type { AppConfig } from '../../config';
import type { Services } from '../../container';
import { requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentWalletEntry } from '../../presenters/wallet';
import type { AppState } from '../../types';
import { receiptNumber, renderTopUpReceipt } from '../../wallet/receipt';

/** The Wallet page's own history and top-up receipts. */
export function walletRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/wallet' });

  router.get('/history', async (ctx) => {
    const { user } = requireAuth(ctx);
    const query = validate(ZWalletHistoryQuery, ctx.query);
    const { entries, nextCursor } = await services.wallet.historyPage(user.id, query);
    const scheduled = await services.wallet.scheduledCampaignTimes(user.id, entries);
    // A top-up with a tax invoice downloads the invoice; one without (GST off) its receipt.
    const invoiceIds = await services.invoices.byLedgerEntries(
      user.id,
      entries.filter((entry) => entry.type === 'TOPUP_ADD').map((entry) => entry.id),
    );
    const body: TWalletHistoryResponse = {
      success: true,
      entries: entries.map((entry) => presentWalletEntry(entry, scheduled.get(String(entry.referenceId)), invoiceIds.get(String(entry.id)))),
      nextCursor,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/topups/:id/receipt.pdf', async (ctx) => {
    const { user } = requireAuth(ctx);
    const source = await services.wallet.topUpReceiptSource(user.id, ctx.params.id ?? '');
    const pdf = await renderTopUpReceipt(source, { name: config.brand.name, supportEmail: config.brand.supportEmail, supportAddress: config.brand.supportAddress });
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${receiptNumber(source.entry.id)}.pdf"`);
    ctx.type = 'application/pdf';
    ctx.body = pdf;
  });

  return router;
}
