import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { z } from 'zod';
import { messages } from '@shared/messages';
import { unitsToRupees } from '@shared/money';
import { ZCreateOrderRequest, ZVerifyPaymentRequest } from '@shared/schemas/payments';
import type { TCreateOrderResponse, TPaymentsConfig, TVerifyPaymentResponse } from '@shared/types';
import type { AppConfig } from '../../config';
import { ForbiddenError } from '../../errors';
import { requireAuth } from '../../middleware/auth';
import { isLoopback } from '../../network/loopback';
import { validate } from '../../middleware/validate';
import { presentOrderTax } from '../../presenters/invoices';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const sandboxCheckoutScript = readFileSync(new URL('../../payments/sandbox-checkout.js', import.meta.url), 'utf8');

export function paymentRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>();
  const payments = services.payments;

  router.get('/api/payments/config', (ctx) => {
    const { user } = requireAuth(ctx);
    const gst = services.invoices.settings;
    const gateway = payments.activeGateway;
    const body: TPaymentsConfig = {
      success: true,
      enabled: gateway !== null,
      sandbox: gateway?.provider === 'sandbox',
      checkoutUrl: gateway?.checkoutUrl ?? null,
      gst: gst ? { mode: gst.mode, rateBasisPoints: gst.rateBasisPoints, supplierStateCode: gst.supplierStateCode, placeOfSupply: services.invoices.placeOfSupply(user) ?? gst.supplierStateCode } : null,
    };
    ctx.body = body;
  });

  router.post('/api/payments/razorpay/order', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const { amountCredits } = validate(ZCreateOrderRequest, ctx.request.body);
    const order = await payments.createOrder(user, amountCredits, actor.id);
    const body: TCreateOrderResponse = {
      success: true,
      keyId: order.gateway.keyId,
      amount: order.amountPaise,
      currency: 'INR',
      orderId: order.orderId,
      amountCredits: unitsToRupees(order.creditUnits),
      tax: order.quote.placeOfSupply ? presentOrderTax(order.quote.split, order.quote.placeOfSupply) : null,
      checkoutUrl: order.gateway.checkoutUrl,
      sandbox: order.gateway.provider === 'sandbox',
      name: config.brand.name,
      notes: { purpose: 'wallet_topup', credits: String(unitsToRupees(order.creditUnits)) },
      prefill: { name: user.name, email: user.email, contact: user.phoneNumber ?? '' },
    };
    ctx.body = body;
  });

  router.post('/api/payments/razorpay/verify', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZVerifyPaymentRequest, ctx.request.body);
    // The owner is told of the credit by the payment service, whichever path credits the order.
    const result = await payments.verify(user, input);
    const body: TVerifyPaymentResponse = {
      success: true,
      message: messages.wallet.creditsAdded,
      credited: result.credited,
      creditBalance: unitsToRupees(result.balanceUnits),
    };
    ctx.body = body;
  });

  router.post('/api/payments/razorpay/webhook', async (ctx) => {
    const raw = (ctx.request as typeof ctx.request & { rawBody?: string }).rawBody ?? '';
    const result = await payments.handleWebhook(raw, ctx.get('X-Razorpay-Signature')).catch(async (error: unknown) => {
      await services.notifications.paymentWebhookFailed(error);
      throw error;
    });
    ctx.body = { success: true, ...result };
  });

  if (payments.sandbox && !config.isProduction) {
    router.get('/sandbox/razorpay/checkout.js', (ctx) => {
      ctx.type = 'application/javascript';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = sandboxCheckoutScript;
    });

    // The order id is an unguessable secret of its owner, and paying credits the owner, so the
    // sandbox window (which cannot see a desktop bearer token) needs no session here.
    router.post('/sandbox/razorpay/pay', async (ctx) => {
      // Free credits: only this machine may use the sandbox unless it was enabled on purpose.
      if (config.loopbackOnly.sandboxCheckout && !isLoopback(ctx.ip)) throw ForbiddenError(messages.server.localOnly, 'local_only');
      const { orderId } = validate(z.object({ orderId: z.string().min(1).max(100) }), ctx.request.body);
      ctx.body = await payments.sandboxPay(orderId);
    });

    // The sandbox window's Decline button: a failed attempt, as Razorpay's payment.failed reports one.
    router.post('/sandbox/razorpay/decline', async (ctx) => {
      if (config.loopbackOnly.sandboxCheckout && !isLoopback(ctx.ip)) throw ForbiddenError(messages.server.localOnly, 'local_only');
      const { orderId } = validate(z.object({ orderId: z.string().min(1).max(100) }), ctx.request.body);
      ctx.body = await payments.sandboxDecline(orderId);
    });
  }

  return router;
}
