import Router from '@koa/router';
import { messages } from '@shared/messages';
import { unitsToPrice, priceToUnits, PRICE_CATEGORIES, type PriceCategory } from '@shared/pricing';
import { ZIdParam } from '@shared/schemas/common';
import { ZPriceDefaultsRequest, ZUserPricingRequest } from '@shared/schemas/pricing';
import type { TMyPricingResponse, TPriceDefaultsResponse, TPricingStats } from '@shared/types';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import type { CustomUnitPrices } from '../../pricing/service';
import { presentPrices, presentUserPricing } from '../../presenters/pricing';
import type { Services } from '../../container';
import type { AppState } from '../../types';

export function pricingRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const pricing = services.pricing;

  async function defaultsBody(message?: string): Promise<TPriceDefaultsResponse> {
    const defaults = await pricing.defaults();
    const prices = presentPrices(defaults);
    return { success: true, defaults: prices, ...prices, currency: 'INR', updatedAt: defaults.updatedAt?.toISOString() ?? null, ...(message ? { message } : {}) };
  }

  // Readable by every signed-in user: the spec's sending screens fall back to these prices.
  router.get('/api/admin/pricing/defaults', async (ctx) => {
    requireAuth(ctx);
    ctx.body = await defaultsBody();
  });

  router.put('/api/admin/pricing/defaults', async (ctx) => {
    const { user } = requireAdmin(ctx);
    const input = validate(ZPriceDefaultsRequest, ctx.request.body);
    const current = await pricing.defaults();
    await pricing.setDefaults(
      { marketing: priceToUnits(input.marketing), utility: priceToUnits(input.utility), authentication: priceToUnits(input.authentication), service: input.service === undefined ? current.service : priceToUnits(input.service) },
      { userId: user.id, ip: ctx.ip },
    );
    ctx.body = await defaultsBody(messages.pricing.defaultsUpdated);
  });

  router.get('/api/admin/pricing/stats', async (ctx) => {
    requireAdmin(ctx);
    const stats = await pricing.stats();
    const body: TPricingStats = {
      totalUsers: stats.totalUsers,
      customPricingUsers: stats.customPricingUsers,
      defaultPricingUsers: stats.totalUsers - stats.customPricingUsers,
      averageMarketing: unitsToPrice(stats.averages.marketing),
      averageUtility: unitsToPrice(stats.averages.utility),
      averageAuthentication: unitsToPrice(stats.averages.authentication),
      averageService: unitsToPrice(stats.averages.service),
    };
    ctx.body = { success: true, stats: body };
  });

  router.get('/api/admin/pricing/users/:userId/pricing', async (ctx) => {
    requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.userId);
    ctx.body = presentUserPricing(await pricing.forUser(userId));
  });

  router.put('/api/admin/pricing/users/:userId/pricing', async (ctx) => {
    const { user } = requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.userId);
    const input = validate(ZUserPricingRequest, ctx.request.body);
    const custom =
      input.mode === 'custom'
        ? (Object.fromEntries(
            PRICE_CATEGORIES.map((category: PriceCategory) => {
              const value = input.pricing?.[category];
              return [category, value == null ? null : priceToUnits(value)];
            }),
          ) as CustomUnitPrices)
        : undefined;
    const updated = await pricing.setForUser(userId, input.mode, custom, { userId: user.id, ip: ctx.ip });
    ctx.body = presentUserPricing(updated, input.mode === 'custom' ? messages.pricing.userPricingUpdated : messages.pricing.userPricingReverted);
  });

  router.get('/api/send/my-pricing', async (ctx) => {
    const { user } = requireAuth(ctx);
    const mine = await pricing.forUser(user.id);
    const body: TMyPricingResponse = { success: true, mode: mine.mode, effective: { ...presentPrices(mine.effective), currency: 'INR' } };
    ctx.body = body;
  });

  return router;
}
