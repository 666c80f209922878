/**
 * Log Management (spec 001 §7): the cleanup's stats and the cleanup itself, for admins only.
 * The daily job runs the same RetentionService cleanup (see retention/scheduler.ts).
 */
import Router from '@koa/router';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TLogCleanupResponse, TLogCleanupRun, TLogCleanupStatsResponse } from '@shared/schemas/logs';
import type { AppConfig } from '../../config';
import { requireAdmin } from '../../middleware/auth';
import type { CleanupRun } from '../../retention/service';
import type { Services } from '../../container';
import type { AppState } from '../../types';

function presentRun(run: CleanupRun): TLogCleanupRun {
  return {
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    totalDeleted: run.totalDeleted,
    messagesDeleted: run.messagesDeleted,
    campaignsDeleted: run.campaignsDeleted,
    error: run.error,
  };
}

export function logRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/logs' });

  router.get('/cleanup/stats', async (ctx) => {
    requireAdmin(ctx);
    const [stats, lastDailyRun] = await Promise.all([services.retention.stats(), services.retention.lastDailyRun()]);
    const body: TLogCleanupStatsResponse = { success: true, stats, retentionDays: config.logRetentionDays, lastDailyRun: lastDailyRun ? presentRun(lastDailyRun) : null };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/cleanup', async (ctx) => {
    const { user } = requireAdmin(ctx);
    const run = await services.retention.cleanup({ trigger: 'manual', adminId: user.id });
    // A manual run has no claim key, so it always runs.
    const deleted = run ?? { totalDeleted: 0, messagesDeleted: 0, campaignsDeleted: 0, statusEventsDeleted: 0, filesDeleted: 0 };
    await services.audit.record({
      actorUserId: user.id,
      action: 'logs.cleanup',
      details: { messagesDeleted: deleted.messagesDeleted, campaignsDeleted: deleted.campaignsDeleted, statusEventsDeleted: deleted.statusEventsDeleted },
      ip: ctx.ip,
    });
    const body: TLogCleanupResponse = {
      success: true,
      message:
        deleted.totalDeleted === 0
          ? messages.logs.nothingToClean
          : fillMessage(messages.logs.result, {
              total: formatIndianNumber(deleted.totalDeleted),
              messages: formatIndianNumber(deleted.messagesDeleted),
              campaigns: formatIndianNumber(deleted.campaignsDeleted),
            }),
      deleted: {
        totalDeleted: deleted.totalDeleted,
        messagesDeleted: deleted.messagesDeleted,
        campaignsDeleted: deleted.campaignsDeleted,
        statusEventsDeleted: deleted.statusEventsDeleted,
        filesDeleted: deleted.filesDeleted,
      },
    };
    ctx.body = body;
  });

  return router;
}
