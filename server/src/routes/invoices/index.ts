import Router from '@koa/router';
import { csvLine } from '@shared/csv';
import { messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import { ZInvoiceRegisterQuery, ZInvoicesQuery, ZStatementQuery } from '@shared/schemas/wallet';
import type { TInvoiceRegisterResponse, TTaxDocumentsResponse } from '@shared/types';
import type { Services } from '../../container';
import { NotFoundError } from '../../errors';
import { GSTR1_COLUMNS, gstr1Sections } from '../../invoices/gstr1';
import { renderStatement, renderTaxDocument, statementCsvRows, taxDocumentFilename } from '../../invoices/pdf';
import type { TaxDocumentWithInvoice } from '../../invoices/service';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { validate } from '../../middleware/validate';
import { adminInvoicePdfPath, presentTaxDocument, walletInvoicePdfPath } from '../../presenters/invoices';
import type { AppState } from '../../types';
import type { User } from '../../models';
import type { ParameterizedContext } from 'koa';

type Context = ParameterizedContext<SessionOrKeyState>;

async function sendPdf(ctx: Context, document: TaxDocumentWithInvoice): Promise<void> {
  const pdf = await renderTaxDocument(document);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', `attachment; filename="${taxDocumentFilename(document)}"`);
  ctx.type = 'application/pdf';
  ctx.body = pdf;
}

function sendCsv(ctx: Context, filename: string, rows: readonly (readonly string[])[]): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = rows.map(csvLine).join('');
}

async function sendStatement(ctx: Context, services: Services, user: User, issuer: string): Promise<void> {
  const { month, format } = validate(ZStatementQuery, ctx.query);
  const [documents, entries] = await Promise.all([services.invoices.month(month, user.id), services.wallet.monthEntries(user.id, month)]);
  const source = { month, issuer, user: { name: user.name, businessName: user.businessName ?? null, gstin: user.gstin ?? null, email: user.email }, documents, entries };
  const filename = `statement-${user.id}-${month}`;
  if (format === 'csv') return sendCsv(ctx, `${filename}.csv`, statementCsvRows(source));
  const pdf = await renderStatement(source);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', `attachment; filename="${filename}.pdf"`);
  ctx.type = 'application/pdf';
  ctx.body = pdf;
}

/** Tax invoices and credit notes: the owner's list, PDFs and statements; the administrator's register. */
export function invoiceRoutes(services: Services, issuerName: string): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const invoices = services.invoices;
  // The invoice list and PDFs are also the public API's (an accounting system fetches them by key).
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });

  router.get('/api/wallet/invoices', caller, async (ctx) => {
    const user = callerOf(ctx);
    const query = validate(ZInvoicesQuery, ctx.query);
    const { documents, nextCursor } = await invoices.page(user.id, query.cursor ? Number(query.cursor) : null, query.limit);
    const body: TTaxDocumentsResponse = { success: true, invoices: documents.map((d) => presentTaxDocument(d, walletInvoicePdfPath(d.id))), nextCursor };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/api/wallet/invoices/:id/pdf', caller, async (ctx) => {
    const user = callerOf(ctx);
    await sendPdf(ctx, await invoices.find(ctx.params.id ?? '', user.id));
  });

  router.get('/api/wallet/statement', async (ctx) => {
    const { user } = requireAuth(ctx);
    await sendStatement(ctx, services, user, issuerName);
  });

  router.get('/api/admin/invoices', async (ctx) => {
    requireAdmin(ctx);
    const { month, format, section } = validate(ZInvoiceRegisterQuery, ctx.query);
    const documents = await invoices.month(month);
    const sections = gstr1Sections(documents);
    if (format === 'csv') {
      if (section === 'register') {
        const rows = [
          ['Number', 'Kind', 'Date (IST)', 'Against', 'User', 'Buyer', 'Buyer GSTIN', 'Place of supply', 'Taxable', 'CGST', 'SGST', 'IGST', 'Total'],
          ...documents.map((d) => {
            const shown = presentTaxDocument(d, '');
            return [d.number, d.series === 'invoice' ? 'Tax invoice' : 'Credit note', shown.date, d.invoiceNumber ?? '', String(d.userId), d.buyerBusinessName ?? d.buyerName, d.buyerGstin ?? '', shown.place_of_supply, shown.taxable, shown.cgst, shown.sgst, shown.igst, shown.total];
          }),
        ];
        return sendCsv(ctx, `invoice-register-${month}.csv`, rows);
      }
      return sendCsv(ctx, `gstr1-${section}-${month}.csv`, [GSTR1_COLUMNS[section], ...sections[section]]);
    }
    const body: TInvoiceRegisterResponse = {
      success: true,
      month,
      documents: documents.map((d) => ({ ...presentTaxDocument(d, adminInvoicePdfPath(d.id)), user_id: d.userId, buyer_name: d.buyerBusinessName ?? d.buyerName })),
      gstr1: sections,
      columns: GSTR1_COLUMNS,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/api/admin/invoices/:id/pdf', async (ctx) => {
    requireAdmin(ctx);
    await sendPdf(ctx, await invoices.find(ctx.params.id ?? ''));
  });

  router.get('/api/admin/users/:id/invoices', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const query = validate(ZInvoicesQuery, ctx.query);
    const { documents, nextCursor } = await invoices.page(id, query.cursor ? Number(query.cursor) : null, query.limit);
    const body: TTaxDocumentsResponse = { success: true, invoices: documents.map((d) => presentTaxDocument(d, adminInvoicePdfPath(d.id))), nextCursor };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/api/admin/users/:id/statement', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const user = await services.users.findById(id);
    if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    await sendStatement(ctx, services, user, issuerName);
  });

  return router as unknown as Router<AppState>;
}
