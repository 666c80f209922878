import { createHash } from 'node:crypto';
import Koa from 'koa';
import type Router from '@koa/router';
import cors from '@koa/cors';
import helmet from 'koa-helmet';
import { CONVERSATIONS, DESKTOP_CLIENT_HEADER, DEVICE_ID_HEADER, SENDING } from '@shared/constants';
import { HEADER_MEDIA_MAX_BYTES } from '@shared/templates';
import { DESKTOP_APP_ORIGIN } from '@shared/desktop';
import { LANDING_BOOT_SCRIPT } from '@shared/landingBoot';
import { messages } from '@shared/messages';
import type { AppConfig } from './config';
import type { Logger } from './logger';
import { requireRole, sessionAuth } from './middleware/auth';
import { bodyGate, byteSize, jsonBody } from './middleware/body';
import { crossSiteGuard } from './middleware/crossSite';
import { errorHandler } from './middleware/errors';
import { requestContext } from './middleware/requestId';
import { webApp } from './middleware/webApp';
import { NotFoundError } from './errors';
import { adminRoutes } from './routes/admin';
import { adminProviderRoutes } from './routes/admin/providers';
import { adminWebhookEventRoutes } from './routes/admin/webhookEvents';
import { apiKeyRoutes } from './routes/apiKeys';
import { authRoutes } from './routes/auth';
import { creditRoutes } from './routes/credits';
import { walletRoutes } from './routes/wallet';
import { invoiceRoutes } from './routes/invoices';
import { paymentRoutes } from './routes/payments';
import { pricingRoutes } from './routes/pricing';
import { templateRoutes } from './routes/templates';
import { onboardingRoutes } from './routes/onboarding';
import { uploadRoutes } from './routes/uploads';
import { conversationRoutes, REPLY_MEDIA_UPLOAD_PATH, REPLY_PATH } from './routes/conversations';
import { simulatorInboxRoutes } from './routes/simulatorInbox';
import { whatsappConnectionRoutes } from './routes/whatsappConnections';
import { systemRoutes } from './routes/system';
import { mediaRoutes } from './routes/media';
import { sendingRoutes } from './routes/sending';
import { campaignRoutes } from './routes/campaigns';
import { reportRoutes } from './routes/reports';
import { numberHealthRoutes } from './routes/numberHealth';
import { webhookRoutes } from './routes/webhooks';
import { logRoutes } from './routes/logs';
import { notificationRoutes } from './routes/notifications';
import { messageRoutes } from './routes/messages';
import { webhookEndpointRoutes } from './routes/webhookEndpoints';
import { suppressionRoutes } from './routes/suppressions';
import { openApiRoutes } from './routes/openapi';
import { contactRoutes } from './routes/contacts';
import { teamRoutes } from './routes/team';
import { SIMULATOR_MOUNT, WEBHOOK_PATH } from './sending/engine';
import type { Services } from './container';
import type { SimulatorOutbox } from './simulator/outbox';
import type { AppState } from './types';

export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  services: Services;
  outbox: SimulatorOutbox;
  version: string;
}

/** `PUT /api/uploads/{id}/parts/{n}`: a raw body, read by its route. */
const UPLOAD_PART_PATH = /^\/api\/uploads\/[^/]+\/parts\/[^/]+$/;

/** The public send API and provider webhooks never carry a session: its lookup is skipped there. */
export const SESSIONLESS_PATHS: ReadonlySet<string> = new Set(['/api/send', '/api/send/batch', WEBHOOK_PATH]);

/**
 * Paths that read or set the session's cookies without a session, held to the cross-site rules
 * (middleware/crossSite.ts) even for a visitor: a forged sign-in would put the victim in the
 * attacker's account.
 */
export const SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/signup',
  '/api/auth/forgot-password',
  '/api/auth/verify-otp',
  '/api/auth/reset-password',
]);

/**
 * Every router of the app, in the order they are tried. Each router matches every request against
 * each of its routes in turn: the sending routes come first, as the public send API is what
 * integrators call by the thousand (every router tried before it costs POST /api/send time on
 * its thread). No two routers share a path. The tests enumerate the routes from here.
 */
export function apiRouters(deps: AppDeps): Router<AppState>[] {
  const { config, services } = deps;
  const jsonLimit = byteSize(config.jsonBodyLimit);
  const sendLimit = byteSize(config.sendBodyLimit);
  const routers: Router<AppState>[] = [
    sendingRoutes(services, { apiSend: jsonBody(jsonLimit), apiSendBatch: jsonBody(sendLimit) }),
    systemRoutes({ config, database: services.database, outbox: deps.outbox, version: deps.version }),
    authRoutes(services, { secure: config.session.cookieSecure, maxAgeHours: config.session.maxAgeHours }),
    adminRoutes(services, config),
    adminProviderRoutes(services),
    adminWebhookEventRoutes(services),
    pricingRoutes(services),
    paymentRoutes(services, config),
    templateRoutes(services),
    onboardingRoutes(services),
    creditRoutes(services),
    walletRoutes(services, config),
    invoiceRoutes(services, config.brand.name),
    apiKeyRoutes(services),
    campaignRoutes(services),
    reportRoutes(services),
    numberHealthRoutes(services),
    whatsappConnectionRoutes(services, config),
    webhookRoutes(services, config),
    mediaRoutes(config.dataDir),
    logRoutes(services, config),
    notificationRoutes(services),
    messageRoutes(services),
    webhookEndpointRoutes(services, jsonBody(jsonLimit)),
    suppressionRoutes(services, jsonBody(jsonLimit)),
    contactRoutes(services, { json: jsonBody(jsonLimit), bulk: jsonBody(sendLimit) }),
    teamRoutes(services),
    openApiRoutes(deps.version),
    uploadRoutes(services),
    conversationRoutes(services, jsonBody(jsonLimit)),
    simulatorInboxRoutes(services, config),
  ];
  const simulator = services.simulator;
  if (simulator) routers.push(simulator.router<AppState>(SIMULATOR_MOUNT));
  return routers;
}

/** Builds the Koa application (used by main.ts and by the tests). */
export function createApp(deps: AppDeps): Koa<AppState> {
  const { config, services } = deps;
  const app = new Koa<AppState>();
  app.proxy = config.trustProxy;
  // The client address is the entry the nearest trusted proxy appended: counted from the right,
  // since anything further left is whatever the client wrote (Koa takes ips.slice(-count)[0]).
  app.maxIpsCount = config.trustProxyHops;
  app.silent = true;

  const allowedOrigins = new Set([DESKTOP_APP_ORIGIN, ...config.corsOrigins]);

  // Razorpay's checkout script opens its own frames and calls its API from the page.
  const razorpay = config.payments.razorpay;
  const razorpayOrigins = razorpay ? [new URL(razorpay.checkoutUrl).origin, 'https://*.razorpay.com'] : [];
  // Meta's JavaScript SDK for Embedded Signup, loaded on demand (its popup is a window, not a frame, but the SDK frames facebook.com).
  const metaOrigins = config.embeddedSignup ? ['https://connect.facebook.net', 'https://www.facebook.com', 'https://*.facebook.com'] : [];
  const loadedOrigins = [...razorpayOrigins, ...metaOrigins];

  app.use(requestContext(deps.logger));
  app.use(errorHandler());
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'default-src': ["'self'"],
          // The prerendered landing page's one inline script, allowed by its hash and nothing else.
          'script-src': ["'self'", `'sha256-${createHash('sha256').update(LANDING_BOOT_SCRIPT).digest('base64')}'`, ...loadedOrigins],
          'frame-src': ["'self'", ...loadedOrigins],
          // React renders style attributes; the prerendered landing page inlines its stylesheet.
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', ...loadedOrigins],
          'connect-src': ["'self'", ...loadedOrigins],
          'frame-ancestors': ["'none'"],
          'upgrade-insecure-requests': config.isProduction ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Meta's signup popup posts its result to window.opener, which a same-origin policy would cut off.
      crossOriginOpenerPolicy: { policy: config.embeddedSignup ? 'same-origin-allow-popups' : 'same-origin' },
      hsts: config.isProduction,
    }),
  );
  app.use(
    cors({
      origin: (ctx) => {
        const origin = ctx.get('Origin');
        return allowedOrigins.has(origin) ? origin : '';
      },
      allowHeaders: ['Content-Type', 'Authorization', DESKTOP_CLIENT_HEADER, DEVICE_ID_HEADER, 'X-Request-Id', 'Idempotency-Key', 'X-API-Key'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      maxAge: 600,
    }),
  );
  // The caller is known before any body is read (middleware/body.ts): sessions first.
  const sessions = sessionAuth(services.sessions, services.team);
  app.use((ctx, next) => {
    if (!SESSIONLESS_PATHS.has(ctx.path)) return sessions(ctx, next);
    ctx.state.auth = null;
    return next();
  });
  // A member's role in the account is checked for every user-area route, also before any body.
  app.use(requireRole());
  const jsonLimit = byteSize(config.jsonBodyLimit);
  const sendLimit = byteSize(config.sendBodyLimit);
  const publicBodyPaths = new Set([
    ...SIGN_IN_PATHS,
    '/api/payments/razorpay/webhook',
    '/sandbox/razorpay/pay',
    '/sandbox/razorpay/decline',
    WEBHOOK_PATH,
  ]);
  // Form fields ride along with the file: a little room beyond the file's own limit.
  const FORM_FIELDS_BYTES = 1024 * 1024;
  const recipientFileBytes = SENDING.recipientFileMaxMb * 1024 * 1024 + FORM_FIELDS_BYTES;
  const templateMediaBytes = Math.max(...Object.values(HEADER_MEDIA_MAX_BYTES)) + FORM_FIELDS_BYTES;
  const quickSendPaths = new Set(['/api/whatsapp/quick-send', '/api/whatsapp/bulk-quick-send']);
  const uploadLimit = (path: string): number | null => {
    if (path === '/api/whatsapp/import-recipients' || path === '/api/whatsapp/parse-excel') return recipientFileBytes;
    if (quickSendPaths.has(path)) return sendLimit;
    // An audience send with a header image: the image and the form fields, as Quick Send.
    if (path === '/api/whatsapp/audience-send') return sendLimit;
    if (path === '/api/templates' || /^\/api\/templates\/\d+$/.test(path)) return templateMediaBytes;
    return null;
  };
  // One part of a resumable upload, streamed to disk by its route.
  const rawLimit = (path: string): number | null => (UPLOAD_PART_PATH.test(path) ? config.uploads.partSizeBytes : path === REPLY_MEDIA_UPLOAD_PATH ? CONVERSATIONS.mediaMaxBytes : null);

  // Before any body is read: a refused request's body is never parsed.
  app.use(
    crossSiteGuard({
      trustedOrigins: new Set([...allowedOrigins, new URL(config.publicBaseUrl).origin]),
      signInPaths: SIGN_IN_PATHS,
      otherBodyTypes: (path) => [
        ...(uploadLimit(path) !== null ? ['multipart/form-data'] : []),
        ...(rawLimit(path) !== null ? ['application/octet-stream'] : []),
      ],
    }),
  );
  app.use(
    bodyGate({
      jsonLimit,
      sendLimit,
      publicPaths: (path) => publicBodyPaths.has(path) || path === SIMULATOR_MOUNT || path.startsWith(`${SIMULATOR_MOUNT}/`),
      sendPaths: new Set([...quickSendPaths, '/api/whatsapp/send-custom-messages', '/api/whatsapp/bulk-customize-send']),
      apiKeyPaths: new Map([
        ['/api/send', jsonLimit],
        ['/api/send/batch', sendLimit],
        // Read by its route after the session or key is known.
        ['/api/webhook-endpoints', jsonLimit],
        ['/api/suppressions', jsonLimit],
        ['/api/suppressions/import', jsonLimit],
        // Ten thousand contacts at once: the send batch's limit.
        ['/api/contacts/bulk', sendLimit],
      ]),
      apiKeyPatterns: [[REPLY_PATH, jsonLimit]],
      uploadLimit,
      rawLimit,
    }),
  );

  const routers = apiRouters(deps);
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw NotFoundError(messages.server.routeNotFound, 'route_not_found');
    await next();
  });
  app.use(webApp(config.webDistDir));
  return app;
}
