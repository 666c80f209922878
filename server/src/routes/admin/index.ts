import Router from '@koa/router';
import { messages } from '@shared/messages';
import { ZCreateUserRequest } from '@shared/schemas/admin';
import { ZIdParam } from '@shared/schemas/common';
import { unitsToRupees } from '@shared/money';
import type { TAdminStats } from '@shared/types';
import { requireAdmin } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentAdminUser } from '../../presenters/user';
import type { Services } from '../../services';
import type { AppState } from '../../types';

export function adminRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });

  router.get('/users', async (ctx) => {
    requireAdmin(ctx);
    const users = await services.users.list();
    ctx.body = { success: true, users: users.map(presentAdminUser) };
  });

  router.get('/stats', async (ctx) => {
    requireAdmin(ctx);
    const stats = await services.users.stats();
    const body: TAdminStats = {
      totalUsers: stats.totalUsers,
      regularUsers: stats.regularUsers,
      adminUsers: stats.adminUsers,
      configuredUsers: stats.configuredUsers,
      totalCredits: unitsToRupees(stats.totalCreditUnits),
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

  router.delete('/users/:id', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    await services.users.delete(id, { userId: admin.id, ip: ctx.ip });
    ctx.body = { success: true, message: messages.admin.userDeleted };
  });

  return router;
}
