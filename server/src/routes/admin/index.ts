import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { LOGS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { ZAdminChangePasswordRequest, ZCreateUserRequest, ZDeleteUserQuery, ZCreditAdjustmentRequest, ZReleaseHeldRefundsRequest, ZUpdateUserRequest, ZSimulatorFaultRequest, type THeldRefundsResponse, type TReleaseHeldRefundsResponse } from '@shared/schemas/admin';
import { ZIdParam } from '@shared/schemas/common';
import { formatRupees, rupeesToUnits, unitsToRupees, formatIndianNumber } from '@shared/money';
import type { TAdminStats, TAdminUserDetails, TCreditAdjustmentResponse } from '@shared/types';
import type { AppConfig } from '../../config';
import { AppError, NotFoundError } from '../../errors';
import { presentCreditHistoryEntry } from '../../presenters/credits';
import { requireAdmin } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentBusinessInfo, presentBusinessInfoSummary } from '../../presenters/providers';
import { presentAdminUser } from '../../presenters/user';
import type { Services } from '../../container';
import type { AppState } from '../../types';

export function adminRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });

  router.get('/users', async (ctx) => {
    requireAdmin(ctx);
    const [users, summaries] = await Promise.all([services.users.list(), services.businessInfo.summaries()]);
    ctx.body = {
      success: true,
      users: users.map((user) => {
        const summary = summaries.get(user.id);
        return presentAdminUser(user, summary ? presentBusinessInfoSummary(summary) : null);
      }),
    };
  });

  router.get('/stats', async (ctx) => {
    requireAdmin(ctx);
    const [stats, configured, usage] = await Promise.all([services.users.stats(), services.businessInfo.configuredUserIds(), services.campaigns.platformUsage()]);
    const body: TAdminStats = {
      totalUsers: stats.totalUsers,
      regularUsers: stats.regularUsers,
      adminUsers: stats.adminUsers,
      configuredUsers: configured.size,
      totalCredits: unitsToRupees(stats.totalCreditUnits),
      messagesToday: usage.messagesToday,
      messagesThisMonth: usage.messagesThisMonth,
      spendThisMonth: unitsToRupees(usage.spendThisMonthUnits, 4),
    };
    ctx.body = { success: true, stats: body };
  });

  router.post('/users', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const input = validate(ZCreateUserRequest, ctx.request.body);
    const user = await services.users.create(
      {
        name: input.name,
        email: input.email,
        username: input.username,
        password: input.password,
        phoneNumber: input.phoneNumber,
        role: input.role,
        creditRupees: Math.round(input.creditBalance * 100) / 100,
      },
      { userId: admin.id, ip: ctx.ip },
      'admin',
    );
    ctx.status = 201;
    ctx.body = { success: true, message: messages.admin.userCreated, user: presentAdminUser(user) };
  });

  router.get('/users/:id/details', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const user = await services.users.findById(id);
    if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    const info = await services.businessInfo.get(id);
    const body: TAdminUserDetails = {
      success: true,
      user: {
        ...presentAdminUser(user, info ? presentBusinessInfoSummary(info) : null),
        businessInfo: info ? presentBusinessInfo(info) : null,
      },
    };
    ctx.body = body;
  });

  router.put('/users/:id', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZUpdateUserRequest, ctx.request.body);
    const updated = await services.users.updateByAdmin(id, input, { userId: admin.id, ip: ctx.ip });
    const summary = await services.businessInfo.summaryFor(id);
    const user = presentAdminUser(updated, summary ? presentBusinessInfoSummary(summary) : null);
    ctx.body = { success: true, message: messages.adminUser.updated, user };
  });

  router.post('/users/:id/change-password', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const { newPassword } = validate(ZAdminChangePasswordRequest, ctx.request.body);
    const target = await services.users.changePasswordByAdmin(id, newPassword, { userId: admin.id, ip: ctx.ip });
    ctx.body = { success: true, message: messages.adminUser.passwordChanged, user: { id: target.id, name: target.name } };
  });

  router.post('/users/:id/credits', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZCreditAdjustmentRequest, ctx.request.body);
    // A retried request with the same Idempotency-Key moves the money once.
    const requestKey = /^[A-Za-z0-9_-]{8,80}$/.test(ctx.get('Idempotency-Key')) ? ctx.get('Idempotency-Key') : randomUUID();
    const result = await services.wallet.adjustByAdmin({
      userId: id,
      mode: input.mode,
      units: rupeesToUnits(input.amount),
      reason: input.reason,
      actorUserId: admin.id,
      idempotencyKey: `admin:adjust:${admin.id}:${requestKey}`,
      audit: (trx, details) =>
        services.audit.record({ actorUserId: admin.id, action: 'wallet.adjust', targetType: 'user', targetId: id, details, ip: ctx.ip }, trx),
      onApplied: async (trx, entry) => {
        await services.invoices.creditNotesForDeduction(trx, entry, input.reason);
      },
    });
    if (!result.entry) {
      throw new AppError(422, 'nothing_to_deduct', messages.adminWallet.nothingToDeduct);
    }
    const body: TCreditAdjustmentResponse = {
      success: true,
      message: input.mode === 'add' ? messages.adminWallet.credited : messages.adminWallet.debited,
      amount: unitsToRupees(result.movedUnits),
      creditBalance: unitsToRupees(result.balanceUnits),
      transaction: presentCreditHistoryEntry(result.entry),
    };
    ctx.body = body;
  });

  router.get('/users/:id/held-refunds', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    if (!(await services.users.findById(id))) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    const held = await services.heldRefunds.list(id);
    const body: THeldRefundsResponse = {
      success: true,
      count: held.count,
      amount: unitsToRupees(held.units, 4),
      messages: held.messages.map((m) => ({
        id: m.id,
        campaignId: m.campaignId,
        campaignName: m.campaignName,
        recipient: m.recipient,
        amount: unitsToRupees(m.priceUnits, 4),
        failedAt: m.failedAt,
        errorCode: m.errorCode,
        errorMessage: m.errorMessage,
      })),
    };
    ctx.body = body;
  });

  router.post('/users/:id/held-refunds/release', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZReleaseHeldRefundsRequest, ctx.request.body ?? {});
    if (!(await services.users.findById(id))) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    const result = await services.heldRefunds.release(id, input.messageIds, { userId: admin.id, ip: ctx.ip });
    if (result.released === 0) throw new AppError(422, 'no_held_refunds', messages.adminWallet.noHeldRefunds);
    const amount = unitsToRupees(result.units, 4);
    const body: TReleaseHeldRefundsResponse = {
      success: true,
      message: fillMessage(messages.adminWallet.heldRefundsReleased, { count: formatIndianNumber(result.released), amount: formatRupees(amount, 2) }),
      released: result.released,
      amount,
      creditBalance: unitsToRupees(result.balanceUnits),
    };
    ctx.body = body;
  });

  router.get('/settings', (ctx) => {
    requireAdmin(ctx);
    const gateway = services.payments.activeGateway;
    ctx.body = {
      success: true,
      settings: {
        platformWhatsappNumber: config.platformWhatsappNumber,
        logRetentionDays: LOGS.retentionDays,
        cleanupSchedule: `Daily at ${String(LOGS.cleanupHourUtc).padStart(2, '0')}:00 UTC`,
        payments: { enabled: gateway !== null, sandbox: gateway?.provider === 'sandbox' },
      },
    };
  });

  router.delete('/users/:id', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const query = validate(ZDeleteUserQuery, ctx.query);
    await services.users.delete(id, { userId: admin.id, ip: ctx.ip }, query.confirm_balance);
    ctx.body = { success: true, message: messages.admin.userDeleted };
  });

  // The simulator's fault control (tests, demos): a number's sends answered with a Meta error.
  router.put('/simulator/numbers/:phoneNumberId/fault', async (ctx) => {
    requireAdmin(ctx);
    const simulator = services.simulator;
    if (!simulator) throw NotFoundError();
    const body = validate(ZSimulatorFaultRequest, ctx.request.body);
    const phoneNumberId = ctx.params.phoneNumberId ?? '';
    if ('expire_token' in body) simulator.expireToken(phoneNumberId, body.expire_token);
    else {
      simulator.setFault(phoneNumberId, {
        code: body.code,
        ...(body.http_status !== undefined ? { httpStatus: body.http_status } : {}),
        ...(body.subcode !== undefined ? { subcode: body.subcode } : {}),
        ...(body.is_transient !== undefined ? { isTransient: body.is_transient } : {}),
        ...(body.details !== undefined ? { details: body.details } : {}),
        ...(body.times !== undefined ? { times: body.times } : {}),
      });
    }
    ctx.body = { success: true };
  });

  router.delete('/simulator/numbers/:phoneNumberId/fault', async (ctx) => {
    requireAdmin(ctx);
    const simulator = services.simulator;
    if (!simulator) throw NotFoundError();
    const phoneNumberId = ctx.params.phoneNumberId ?? '';
    simulator.setFault(phoneNumberId, null);
    simulator.expireToken(phoneNumberId, false);
    ctx.body = { success: true };
  });

  return router;
}
