import Router from '@koa/router';
import { ZReportsQuery } from '@shared/schemas/reports';
import { requireAuth } from '../../middleware/auth';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { validate } from '../../middleware/validate';
import { presentReportSenders, presentReportsPage, presentReportsSummary } from '../../presenters/reports';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** Reports of the signed-in user (spec 002 §7): the list and its exports, the summary, the templates used. */
export function reportRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const reports = services.reports;

  // The docs name this call for integrators: an API key is accepted as well as a session.
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });
  router.get<SessionOrKeyState>('/api/whatsapp/reports', caller, async (ctx) => {
    const user = callerOf(ctx);
    const query = validate(ZReportsQuery, ctx.query);
    if (query.export) {
      const file = await reports.export(user.id, { ...query, export: query.export });
      ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = file.contentType;
      ctx.body = file.stream;
      return;
    }
    ctx.body = { success: true, data: presentReportsPage(await reports.list(user.id, query)) };
  });

  router.get('/api/whatsapp/reports/summary', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: presentReportsSummary(await reports.summary(user.id)) };
  });

  router.get('/api/whatsapp/reports/templates', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: await reports.templates(user.id) };
  });

  // The account's members for the sender filter: GET /api/team/members is the owner's alone, and
  // everyone who reads reports needs the choices.
  router.get('/api/whatsapp/reports/senders', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: presentReportSenders(await reports.senders(user.id)) };
  });

  return router;
}
