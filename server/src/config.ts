/**
 * Every environment variable the server reads, validated at boot. A bad value stops the
 * process with one line per problem. `describeConfig()` feeds the README's table.
 */
import path from 'node:path';
import { z } from 'zod';
import { BRAND_DEFAULT_NAME, LOGS, SESSION } from '@shared/constants';
import { isValidGstin, normaliseGstin } from '@shared/gstin';
import type { GstMode } from '@shared/gst';
import { isLoopbackHost } from './network/loopback';

/** Published in this repository: it proves nothing about who sent a request. */
export const DEFAULT_SIMULATOR_APP_SECRET = 'sandesh-simulator-app-secret';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be between 0 and 65535' })
  .max(65535, { error: 'must be between 0 and 65535' });

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

const byteSize = z
  .string()
  .regex(/^\d+(kb|mb)$/i, { error: 'must look like 512kb or 1mb' });

const MB = 1024 * 1024;

/** A `512kb` / `8mb` value (already checked by `byteSize`) in bytes. */
function byteCount(value: string): number {
  const match = /^(\d+)(kb|mb)$/i.exec(value);
  return match ? Number(match[1]) * (match[2]!.toLowerCase() === 'mb' ? MB : 1024) : 0;
}

const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), { error: 'must start with postgres:// or postgresql://' });

/** One entry per variable: the schema and the line the README shows for it. */
const variables = {
  NODE_ENV: {
    schema: z.enum(['development', 'test', 'production'], { error: 'must be development, test or production' }).default('development'),
    doc: 'Mode. `production` turns the simulator off for good and sets Secure cookies.',
  },
  HOST: {
    schema: z.string().min(1).optional(),
    doc: 'Address the HTTP server listens on. Unset: `127.0.0.1` (this machine only) outside production, `0.0.0.0` in production.',
  },
  ALLOW_DEV_ON_NETWORK: {
    schema: booleanString.default(false),
    doc: 'Outside production the server refuses a HOST other than loopback (its simulator inbox shows every reset code) unless this is true.',
  },
  PORT: { schema: port.default(3000), doc: 'Port the HTTP server listens on (0 picks a free port).' },
  DATA_DIR: { schema: z.string().min(1).default('./data'), doc: 'Folder for the SQLite database and uploaded files.' },
  DATABASE_URL: {
    schema: postgresUrl.optional(),
    doc: 'PostgreSQL connection URL. Unset: embedded SQLite in `DATA_DIR/sandesh.sqlite`.',
  },
  DATABASE_SCHEMA: {
    schema: z.string().regex(/^[a-z_][a-z0-9_]*$/, { error: 'must be a lowercase SQL identifier' }).optional(),
    doc: 'PostgreSQL schema to use (default `public`); the tests give each suite its own.',
  },
  DATABASE_POOL_MAX: { schema: positiveInt(200).default(10), doc: 'Most PostgreSQL connections per server instance.' },
  ADMIN_USERNAME: { schema: z.string().regex(/^[A-Za-z0-9_]{3,50}$/, { error: 'must be 3-50 letters, digits or underscores' }).optional(), doc: 'Username of the first admin, created at start if no admin exists (default `admin`).' },
  ADMIN_PASSWORD: { schema: z.string().min(6, { error: 'must be at least 6 characters' }).optional(), doc: 'Password of the first admin. Unset: one is generated and printed once.' },
  ADMIN_EMAIL: { schema: z.email({ error: 'must be an e-mail address' }).optional(), doc: 'E-mail of the first admin (default `admin@localhost`).' },
  SESSION_IDLE_TIMEOUT_SECONDS: {
    schema: positiveInt(7 * 24 * 3600).default(SESSION.idleTimeoutSeconds),
    doc: 'Inactivity after which the server ends a session (spec: 600).',
  },
  SESSION_MAX_AGE_HOURS: { schema: positiveInt(24 * 90).default(24), doc: 'Absolute lifetime of a session, however active.' },
  COOKIE_SECURE: {
    schema: z.enum(['auto', 'true', 'false'], { error: 'must be auto, true or false' }).default('auto'),
    doc: 'Secure flag on cookies. `auto`: on in production.',
  },
  TRUST_PROXY: {
    schema: booleanString.default(false),
    doc: 'Behind a load balancer: take the client address from `X-Forwarded-For`, counting `TRUST_PROXY_HOPS` proxies from the right (entries further left are written by the client and ignored).',
  },
  TRUST_PROXY_HOPS: { schema: positiveInt(10).default(1), doc: 'Proxies in front of the server that append to `X-Forwarded-For` (a load balancer alone: 1).' },
  CORS_ORIGINS: {
    schema: z.string().default(''),
    doc: 'Extra origins allowed to call the API from a browser, comma-separated, and so to make changes with the session cookie (a web app served from another host). The desktop app origin is always allowed.',
  },
  JSON_BODY_LIMIT: { schema: byteSize.default('1mb'), doc: 'Largest JSON request body.' },
  SEND_BODY_LIMIT: { schema: byteSize.default('200mb'), doc: 'Largest JSON body of the send calls (recipient lists and spreadsheet rows).' },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be a pino level' }).optional(),
    doc: 'Log level (default `info`; `silent` in tests).',
  },
  WEB_DIST_DIR: { schema: z.string().min(1).default('./dist/web'), doc: 'Folder of the built web app served at `/`.' },
  BRAND_NAME: { schema: z.string().min(1).max(60).default(BRAND_DEFAULT_NAME), doc: 'Product name shown in the apps and messages.' },
  SUPPORT_PHONE: { schema: z.string().min(1).default('+91 40 0000 0000'), doc: 'Support phone on the contact page.' },
  SUPPORT_EMAIL: { schema: z.email({ error: 'must be an e-mail address' }).default('support@sandesh.example'), doc: 'Support e-mail on the contact page.' },
  SUPPORT_ADDRESS: { schema: z.string().min(1).default('Hyderabad, Telangana, India'), doc: 'Office address on the contact page.' },
  SIMULATOR_ENABLED: {
    schema: booleanString.optional(),
    doc: 'Keep messages in the local WhatsApp simulator, readable at `/simulator/messages` (default on outside production; never in production). Unset, its inbox answers only requests from this machine; `true` opens it to the network.',
  },
  RAZORPAY_KEY_ID: { schema: z.string().regex(/^rzp_(test|live)_\w+$/, { error: 'must look like rzp_test_... or rzp_live_...' }).optional(), doc: 'Razorpay key id. With the secret set, the wallet takes real payments.' },
  RAZORPAY_KEY_SECRET: { schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(), doc: 'Razorpay key secret (signs checkout results).' },
  RAZORPAY_WEBHOOK_SECRET: { schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(), doc: 'Secret of the Razorpay webhook pointed at `/api/payments/razorpay/webhook` (events payment.captured, order.paid, payment.failed).' },
  RAZORPAY_API_BASE: { schema: z.url({ error: 'must be a URL' }).default('https://api.razorpay.com'), doc: "Razorpay's API (the tests point it at a local stand-in)." },
  RAZORPAY_CHECKOUT_URL: { schema: z.url({ error: 'must be a URL' }).default('https://checkout.razorpay.com/v1/checkout.js'), doc: 'The checkout script the wallet page loads on demand.' },
  PAYMENTS_SANDBOX: {
    schema: booleanString.optional(),
    doc: 'Offer the visibly marked sandbox checkout (no real money) when Razorpay keys are absent (default on outside production; never in production). Unset, it pays only for requests from this machine; `true` opens it to the network.',
  },
  GST_SUPPLIER_NAME: { schema: z.string().trim().min(1).max(200).optional(), doc: 'Legal name printed as the supplier on tax invoices (default: BRAND_NAME).' },
  GST_SUPPLIER_ADDRESS: { schema: z.string().trim().min(1).max(500).optional(), doc: "Supplier's registered address on tax invoices (default: SUPPORT_ADDRESS)." },
  GST_SUPPLIER_GSTIN: {
    schema: z
      .string()
      .transform(normaliseGstin)
      .refine(isValidGstin, { error: 'must be a valid GSTIN (state code and check character)' })
      .optional(),
    doc: "The supplier's GSTIN. Its state code decides intra-state (CGST + SGST) or inter-state (IGST) supplies. Set, top-ups get tax invoices.",
  },
  GST_SAC: { schema: z.string().regex(/^\d{6}$/, { error: 'must be a 6-digit SAC code' }).default('998319'), doc: 'SAC code of the service on tax invoices (default: other IT services n.e.c.; use the code your tax adviser confirms).' },
  GST_RATE_PERCENT: {
    schema: z.coerce.number({ error: 'must be a number' }).min(0, { error: 'must be between 0 and 28' }).max(28, { error: 'must be between 0 and 28' }).refine((value) => Number.isInteger(value * 100), { error: 'must have at most two decimals' }).default(18),
    doc: 'GST rate in percent.',
  },
  INVOICE_PREFIX: {
    schema: z.string().regex(/^[A-Z][A-Z0-9]{0,3}$/, { error: 'must be 1-4 capital letters or digits, starting with a letter' }).default('SND'),
    doc: 'Prefix of tax invoice numbers (SND2627/00001); credit notes add CN (SNDCN2627/00001). Numbers stay within 16 characters.',
  },
  GST_MODE: {
    schema: z.enum(['exclusive', 'inclusive', 'off'], { error: 'must be exclusive, inclusive or off' }).optional(),
    doc: '`exclusive`: GST is added to the credits bought (₹1,000 of credits costs ₹1,180); `inclusive`: the amount paid includes GST and the taxable value becomes credits; `off`: a receipt without tax. Unset: `exclusive` when GST_SUPPLIER_GSTIN is set, else `off`.',
  },
  DUPLICATE_WINDOW_HOURS: {
    schema: positiveInt(24 * 30).default(24),
    doc: 'Duplicate Blocked: the same template and variable values to the same recipient within this many hours is stored as `duplicate` and not charged.',
  },
  STAGED_ACCEPTANCE_MIN_RECIPIENTS: {
    schema: positiveInt(100_000_000).default(50_000),
    doc: 'Sends of at least this many recipients are accepted as lean rows (`campaign_recipients`) and get their message rows in chunks right after the commit; smaller sends write message rows at once.',
  },
  SANDBOX_MESSAGES_PER_SECOND: { schema: positiveInt(10_000).default(80), doc: "Messages-per-second limit of each user's sandbox number on the simulator." },
  PLATFORM_WHATSAPP_NUMBER: {
    schema: z.string().regex(/^[1-9][0-9]{7,14}$/, { error: 'must be 8-15 digits with country code, no +' }).default('15550000000'),
    doc: "The platform's own WhatsApp sender for password-reset codes.",
  },
  PLATFORM_WHATSAPP_PHONE_NUMBER_ID: { schema: z.string().regex(/^\d{5,30}$/, { error: 'must be the Cloud API phone number id (digits)' }).optional(), doc: "Cloud API phone number id of the platform's own number. With the token set, reset codes go through Meta (also in production)." },
  PLATFORM_WHATSAPP_ACCESS_TOKEN: { schema: z.string().min(20, { error: 'must be a Cloud API access token' }).optional(), doc: "Access token for the platform's own number." },
  PLATFORM_OTP_TEMPLATE: { schema: z.string().regex(/^[a-z0-9_]{1,60}$/).default('password_reset_code'), doc: "The platform's approved authentication template for reset codes." },
  PLATFORM_INVITE_TEMPLATE: { schema: z.string().regex(/^[a-z0-9_]{1,60}$/).default('team_invitation'), doc: "The platform's approved utility template for team invitations (body variables: account, role, link)." },
  PUBLIC_BASE_URL: {
    schema: z.url({ error: 'must be a URL' }).optional(),
    doc: 'Public address of this server (e.g. `https://app.example.com`): the webhook URL shown to admins and given to the simulator. Unset: `http://127.0.0.1:PORT`.',
  },
  SECRETS_KEY: {
    schema: z.string().regex(/^[A-Za-z0-9+/]{43}=$|^[0-9a-fA-F]{64}$/, { error: 'must be 32 bytes as base64 (44 characters) or hex (64 characters)' }).optional(),
    doc: 'Key that encrypts provider secrets at rest (AES-256-GCM). Required in production; elsewhere one is generated into `DATA_DIR/secrets.key`.',
  },
  WHATSAPP_API_BASE: { schema: z.url({ error: 'must be a URL' }).default('https://graph.facebook.com'), doc: "Meta's Graph API for numbers configured with Cloud API credentials." },
  WHATSAPP_API_VERSION: {
    schema: z.string().regex(/^v\d+\.\d+$/, { error: 'must look like v23.0' }).default('v23.0'),
    doc: "Graph API version used for sends and template calls: v23.0, the version of Meta's OpenAPI file the requests are checked against. A start warns when Meta retires the version within 90 days.",
  },
  CHANNEL_API_BASE: {
    schema: z.url({ error: 'must be a URL' }).default('https://waba-v2.360dialog.io'),
    doc: "Base URL of the channel provider, 360dialog's Messaging API (`POST /messages`, `/v1/configs/webhook`, `/v1/configs/templates`, with the channel's `D360-API-KEY`).",
  },
  WHATSAPP_APP_ID: {
    schema: z.string().regex(/^\d{1,30}$/, { error: 'must be the numeric id of a Meta app' }).optional(),
    doc: "Meta app id: Embedded Signup's app (with WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID) and the Resumable Upload API (a Cloud API template with an image, video or document header uploads its sample through `/{app-id}/uploads` before it is created at Meta).",
  },
  WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: {
    schema: z.string().regex(/^\d{1,30}$/, { error: 'must be the numeric id of a Facebook Login for Business configuration' }).optional(),
    doc: "Configuration id of Meta's Embedded Signup (Facebook Login for Business). With WHATSAPP_APP_ID and WHATSAPP_APP_SECRET, customers connect their own number (Connect WhatsApp). Unset: the simulator plays Meta's signup where it runs, else the card is off.",
  },
  WHATSAPP_APP_SECRET: {
    schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
    doc: "App secret of the Meta app of WHATSAPP_APP_ID: exchanges Embedded Signup's code for a business token, and is stored (sealed) as the connected business's app secret to verify the webhooks Meta signs with it.",
  },
  TEMPLATE_SUBMIT_RETRY_MS: {
    schema: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
    doc: "Pause before a template approved by the admin is offered to Meta again after a try that did not reach Meta (5xx, network, no account yet); it doubles with each try, up to an hour.",
  },
  WEBHOOK_VERIFY_TOKEN: { schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(), doc: 'Platform-wide `hub.verify_token` accepted by `GET /api/webhooks/whatsapp` (per-business tokens are accepted too).' },
  SIMULATOR_APP_SECRET: {
    schema: z.string().min(8).optional(),
    doc: "Secret the simulator signs its status webhooks with (the sandbox's stand-in for Meta's app secret). Unset: a public default that is accepted only from this machine.",
  },
  PLATFORM_WHATSAPP_APP_SECRET: {
    schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
    doc: "App secret of the platform's own Meta app. Webhooks it signs are trusted to refund failed messages at once; failures signed only with a customer's own app secret wait for an administrator.",
  },
  SIMULATOR_URL: { schema: z.url({ error: 'must be a URL' }).optional(), doc: 'Send sandbox messages to a simulator on its own port (`npm run simulator`). Unset: the one mounted at `/simulator` in this server.' },
  SIMULATOR_SENT_MS: { schema: z.coerce.number().int().min(0).max(600_000).default(50), doc: 'Simulator: delay before the `sent` status webhook.' },
  SIMULATOR_DELIVERED_MS: { schema: z.coerce.number().int().min(0).max(600_000).default(400), doc: 'Simulator: delay before the `delivered` status webhook.' },
  SIMULATOR_READ_MS: { schema: z.coerce.number().int().min(0).max(3_600_000).default(2000), doc: 'Simulator: delay before the `read` status webhook.' },
  SIMULATOR_REVIEW_MS: {
    schema: z.coerce.number().int().min(0).max(3_600_000).default(2000),
    doc: "Simulator: delay before Meta's review of a created template (approved, or rejected when its name contains `reject`) and its status webhook.",
  },
  SIMULATOR_WEBHOOK_RETRY_FIRST_MS: {
    schema: z.coerce.number().int().min(1).max(3_600_000).default(1_000),
    doc: 'Simulator: a status webhook the server did not take (no answer, or not 2xx) is posted again after this long, the pause doubling with each failure in a row, as Meta retries with decreasing frequency.',
  },
  SIMULATOR_WEBHOOK_RETRY_MAX_DELAY_MS: { schema: z.coerce.number().int().min(1).max(86_400_000).default(60_000), doc: 'Simulator: the longest pause between retries of a failed status webhook.' },
  SIMULATOR_WEBHOOK_RETRY_MAX_AGE_MS: {
    schema: z.coerce.number().int().min(0).max(30 * 86_400_000).default(7 * 86_400_000),
    doc: 'Simulator: a status not delivered by this age is dropped (Meta retries for up to 7 days, the default).',
  },
  DISPATCH_ENABLED: { schema: booleanString.default(true), doc: 'Run the dispatcher in this instance (turn off for API-only instances).' },
  DISPATCH_BATCH_SIZE: { schema: positiveInt(1000).default(50), doc: 'Messages a worker claims at once. The crash window (a send the provider took but whose answer was not yet stored) is at most one batch per worker.' },
  DISPATCH_WORKERS: { schema: positiveInt(64).default(8), doc: 'Batches in flight at once per instance (SQLite lanes, pg-boss workers): while some write their results, others send.' },
  DISPATCH_CONCURRENCY: { schema: positiveInt(256).default(32), doc: 'Sends in flight at once within one batch; an instance has up to DISPATCH_WORKERS times this many in flight.' },
  DISPATCH_MAX_ATTEMPTS: { schema: positiveInt(50).default(8), doc: 'Tries per message for retryable provider errors before it fails (and is refunded).' },
  DISPATCH_LEASE_SECONDS: { schema: positiveInt(3600).default(60), doc: 'How long a claimed batch stays reserved without renewal (a live worker renews it every third of this while the batch is in flight); an instance that died mid-batch loses its claim after this.' },
  DISPATCH_UNKNOWN_SETTLE_SECONDS: {
    schema: positiveInt(86_400).default(600),
    doc: 'A send whose outcome is unknown (a timeout or a reset after the request was written, or a worker that died mid-send) waits this long for a status webhook carrying our reference before it is sent again. Shorter: fewer stuck messages, more risk of a double send when the provider is slow to report.',
  },
  DISPATCH_SEND_TIMEOUT_SECONDS: { schema: positiveInt(300).default(15), doc: 'How long one send waits for the provider to answer; past it the outcome is unknown (see DISPATCH_UNKNOWN_SETTLE_SECONDS).' },
  LOG_RETENTION_DAYS: {
    schema: positiveInt(3650).default(LOGS.retentionDays),
    doc: 'Message and campaign logs older than this many days are deleted by the daily cleanup at 02:00 UTC (spec: 90). The wallet ledger, the audit log and per-day totals are kept.',
  },
  LOG_CLEANUP_ENABLED: {
    schema: booleanString.default(true),
    doc: 'Run the daily log cleanup at 02:00 UTC from this instance (several instances run it once between them).',
  },
  SPREADSHEET_WORKER_MEMORY_MB: {
    schema: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(64, { error: 'must be at least 64' })
      .max(16_384, { error: 'must be at most 16384' })
      .default(256),
    doc: 'Heap cap (MB) of the worker thread that reads one uploaded spreadsheet. A file that needs more (an .xlsx whose text inflates to hundreds of MB) is refused with 413 instead of growing the server.',
  },
  SPREADSHEET_WORKER_BUFFER_MB: {
    schema: positiveInt(16_384).default(128),
    doc: 'What the spreadsheet worker may hold outside its heap (MB): the .xlsx or .xls file it reads whole and the data it unpacks. A workbook file larger than this is refused with 413 before it is read; so is one whose buffers pass it while reading.',
  },
  SPREADSHEET_PARSES_MAX: {
    schema: positiveInt(100).default(2),
    doc: 'Spreadsheet parses one instance runs at once, across all users (each holds a worker of up to SPREADSHEET_WORKER_MEMORY_MB plus SPREADSHEET_WORKER_BUFFER_MB). Further parses wait in a first-in, first-out queue and report `queued` with their position (`GET /api/uploads/{id}`). About one per core.',
  },
  SPREADSHEET_PARSES_PER_USER: {
    schema: positiveInt(100).default(2),
    doc: 'Spreadsheet uploads (`parse-excel`, `import-recipients`) one user may have in flight on one instance; the next answers 429.',
  },
  UPLOAD_PART_SIZE: {
    schema: byteSize.default('8mb'),
    doc: 'Size of each part of a resumable upload (`POST /api/uploads` answers it; the last part is the remainder). A part request may carry at most this many bytes.',
  },
  UPLOAD_MAX_MB: {
    schema: positiveInt(1_048_576).default(1024),
    doc: 'Largest file one resumable upload may declare; larger ones are refused with 413.',
  },
  UPLOAD_USER_QUOTA_MB: {
    schema: positiveInt(1_048_576).default(2048),
    doc: "Bytes one user's unexpired uploads may hold on disk together; an upload that would pass it is refused with 409 until older ones expire (24 hours) or are deleted.",
  },
  CAMPAIGN_STALL_MINUTES: {
    schema: positiveInt(1440).default(15),
    doc: 'A running campaign with messages waiting that sends nothing for this many minutes is reported to its owner as stalled (once per campaign).',
  },
  API_RATE_LIMIT_PER_15_MIN: { schema: positiveInt(1_000_000).default(100), doc: 'Public send API: requests per 15 minutes per IP (spec: 100). Admins can raise a single key above it.' },
} as const;

type Variables = typeof variables;
type RawConfig = { [K in keyof Variables]: z.output<Variables[K]['schema']> };

/** How the simulator retries a status webhook its receiver refused (SIMULATOR_WEBHOOK_RETRY_*). */
export interface WebhookRetry {
  firstDelayMs: number;
  maxDelayMs: number;
  maxAgeMs: number;
}

export interface AppConfig {
  env: RawConfig['NODE_ENV'];
  isProduction: boolean;
  host: string;
  /** Outside production on a non-loopback HOST (ALLOW_DEV_ON_NETWORK). */
  allowDevOnNetwork: boolean;
  port: number;
  dataDir: string;
  /** Days message and campaign logs are kept (the daily cleanup deletes older ones). */
  logRetentionDays: number;
  logCleanupEnabled: boolean;
  /** Minutes without progress after which a running campaign's owner is warned that it stalled. */
  campaignStallMinutes: number;
  database:
    | { kind: 'sqlite'; filename: string }
    | { kind: 'postgresql'; url: string; schema: string | undefined; poolMax: number };
  admin: { username: string; password: string | undefined; email: string };
  session: { idleTimeoutSeconds: number; maxAgeHours: number; cookieSecure: boolean };
  trustProxy: boolean;
  trustProxyHops: number;
  corsOrigins: string[];
  jsonBodyLimit: string;
  sendBodyLimit: string;
  logLevel: NonNullable<RawConfig['LOG_LEVEL']>;
  webDistDir: string;
  brand: { name: string; supportPhone: string; supportEmail: string; supportAddress: string };
  simulatorEnabled: boolean;
  /**
   * Development conveniences that answer only requests from this machine unless they were
   * enabled explicitly: the simulator inbox and the sandbox checkout.
   */
  loopbackOnly: { simulatorInbox: boolean; sandboxCheckout: boolean };
  platformWhatsappNumber: string;
  sending: {
    duplicateWindowHours: number;
    /** Sends of at least this many recipients are staged (campaignAcceptance.ts, materialiser.ts). */
    stagedMinRecipients: number;
    sandboxMessagesPerSecond: number;
    dispatch: { enabled: boolean; batchSize: number; workers: number; concurrency: number; maxAttempts: number; leaseSeconds: number; unknownSettleSeconds: number; sendTimeoutSeconds: number };
    apiRateLimitPer15Min: number;
  };
  /** Uploaded spreadsheets: the parse worker's heap cap and the parses one user may run at once. */
  spreadsheets: { workerMemoryMb: number; workerBufferMb: number; maxRunning: number; parsesPerUser: number };
  /** Resumable uploads, in bytes: each part, the largest file, one user's stored total. */
  uploads: { partSizeBytes: number; maxBytes: number; userQuotaBytes: number };
  publicBaseUrl: string;
  /** The platform's own Cloud API number for reset codes; null: the simulator (or none in production). */
  platformCloudApi: { phoneNumberId: string; accessToken: string; otpTemplate: string; inviteTemplate: string } | null;
  /** Null outside production when no key is configured: the server keeps one in DATA_DIR. */
  secretsKey: string | null;
  providers: { whatsappApiBase: string; whatsappApiVersion: string; channelApiBase: string; webhookVerifyToken: string | undefined; platformAppSecret: string | null; appId: string | null; templateSubmitRetryMs: number };
  /** Meta's Embedded Signup for Cloud API (Connect WhatsApp); null when not configured (the simulator plays it where it runs). */
  embeddedSignup: { configId: string; appId: string; appSecret: string } | null;
  /** `appSecretIsDefault`: the public default secret, which vouches only for requests from this machine. */
  simulator: { appSecret: string; appSecretIsDefault: boolean; url: string | undefined; delays: { sentMs: number; deliveredMs: number; readMs: number }; reviewMs: number; webhookRetry: WebhookRetry };
  /** Tax invoices; null when GST_MODE is off (receipts without tax, as before). */
  gst: GstSettings | null;
  payments: {
    razorpay: { keyId: string; keySecret: string; webhookSecret: string | undefined; apiBase: string; checkoutUrl: string } | null;
    sandbox: boolean;
  };
}

export interface GstSettings {
  mode: Exclude<GstMode, 'off'>;
  supplierName: string;
  supplierAddress: string;
  supplierGstin: string;
  /** The supplier GSTIN's state code. */
  supplierStateCode: string;
  sac: string;
  /** 18 % is 1800. */
  rateBasisPoints: number;
  invoicePrefix: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment. Throws ConfigError listing every bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  const raw: Partial<Record<keyof Variables, unknown>> = {};
  for (const [name, { schema }] of Object.entries(variables) as [keyof Variables, Variables[keyof Variables]][]) {
    const value = env[name] === '' ? undefined : env[name];
    const parsed = (schema as z.ZodType).safeParse(value);
    if (parsed.success) raw[name] = parsed.data;
    else problems.push(`${name}: ${parsed.error.issues[0]?.message ?? 'is invalid'} (got "${value}")`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const c = raw as RawConfig;

  const isProduction = c.NODE_ENV === 'production';
  const rules: string[] = [];
  if (c.WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID && (!c.WHATSAPP_APP_ID || !c.WHATSAPP_APP_SECRET)) rules.push('WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: needs WHATSAPP_APP_ID and WHATSAPP_APP_SECRET');
  if (isProduction && c.SIMULATOR_ENABLED === true) rules.push('SIMULATOR_ENABLED: cannot be true when NODE_ENV is production');
  if (isProduction && c.PAYMENTS_SANDBOX === true) rules.push('PAYMENTS_SANDBOX: cannot be true when NODE_ENV is production');
  if (isProduction && !c.SECRETS_KEY) rules.push('SECRETS_KEY: required when NODE_ENV is production');
  if (Boolean(c.PLATFORM_WHATSAPP_PHONE_NUMBER_ID) !== Boolean(c.PLATFORM_WHATSAPP_ACCESS_TOKEN)) rules.push('PLATFORM_WHATSAPP_PHONE_NUMBER_ID and PLATFORM_WHATSAPP_ACCESS_TOKEN: set both or neither');
  const partSize = byteCount(c.UPLOAD_PART_SIZE);
  // Parts are numbered 1..10 000 (the S3 convention): a part size that small would need more.
  if (partSize < 1024 || partSize > 256 * MB) rules.push('UPLOAD_PART_SIZE: must be between 1kb and 256mb');
  else if (Math.ceil((c.UPLOAD_MAX_MB * MB) / partSize) > 10_000) rules.push('UPLOAD_PART_SIZE: too small for UPLOAD_MAX_MB (at most 10000 parts per upload)');
  const gstMode = c.GST_MODE ?? (c.GST_SUPPLIER_GSTIN ? 'exclusive' : 'off');
  if (gstMode !== 'off' && !c.GST_SUPPLIER_GSTIN) rules.push(`GST_MODE: ${gstMode} needs GST_SUPPLIER_GSTIN`);
  if (Boolean(c.RAZORPAY_KEY_ID) !== Boolean(c.RAZORPAY_KEY_SECRET)) rules.push('RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET: set both or neither');
  const host = c.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');
  if (!isProduction && !isLoopbackHost(host) && !c.ALLOW_DEV_ON_NETWORK) {
    rules.push(`HOST: ${host} is reachable from the network but NODE_ENV is ${c.NODE_ENV} (simulator inbox, sandbox payments): set NODE_ENV=production, or ALLOW_DEV_ON_NETWORK=true for a trusted network`);
  }
  if (rules.length > 0) throw new ConfigError(rules);
  const razorpay =
    c.RAZORPAY_KEY_ID && c.RAZORPAY_KEY_SECRET
      ? {
          keyId: c.RAZORPAY_KEY_ID,
          keySecret: c.RAZORPAY_KEY_SECRET,
          webhookSecret: c.RAZORPAY_WEBHOOK_SECRET,
          apiBase: c.RAZORPAY_API_BASE.replace(/\/+$/, ''),
          checkoutUrl: c.RAZORPAY_CHECKOUT_URL,
        }
      : null;
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    env: c.NODE_ENV,
    isProduction,
    host,
    allowDevOnNetwork: c.ALLOW_DEV_ON_NETWORK,
    port: c.PORT,
    dataDir,
    logRetentionDays: c.LOG_RETENTION_DAYS,
    logCleanupEnabled: c.LOG_CLEANUP_ENABLED,
    campaignStallMinutes: c.CAMPAIGN_STALL_MINUTES,
    database: c.DATABASE_URL
      ? { kind: 'postgresql', url: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, poolMax: c.DATABASE_POOL_MAX }
      : { kind: 'sqlite', filename: path.join(dataDir, 'sandesh.sqlite') },
    admin: { username: c.ADMIN_USERNAME ?? 'admin', password: c.ADMIN_PASSWORD, email: c.ADMIN_EMAIL ?? 'admin@localhost' },
    session: {
      idleTimeoutSeconds: c.SESSION_IDLE_TIMEOUT_SECONDS,
      maxAgeHours: c.SESSION_MAX_AGE_HOURS,
      cookieSecure: c.COOKIE_SECURE === 'auto' ? isProduction : c.COOKIE_SECURE === 'true',
    },
    trustProxy: c.TRUST_PROXY,
    trustProxyHops: c.TRUST_PROXY_HOPS,
    corsOrigins: c.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    jsonBodyLimit: c.JSON_BODY_LIMIT,
    sendBodyLimit: c.SEND_BODY_LIMIT,
    logLevel: c.LOG_LEVEL ?? (c.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDistDir: path.resolve(c.WEB_DIST_DIR),
    brand: {
      name: c.BRAND_NAME,
      supportPhone: c.SUPPORT_PHONE,
      supportEmail: c.SUPPORT_EMAIL,
      supportAddress: c.SUPPORT_ADDRESS,
    },
    simulatorEnabled: isProduction ? false : (c.SIMULATOR_ENABLED ?? true),
    loopbackOnly: { simulatorInbox: c.SIMULATOR_ENABLED !== true, sandboxCheckout: c.PAYMENTS_SANDBOX !== true },
    platformWhatsappNumber: c.PLATFORM_WHATSAPP_NUMBER,
    sending: {
      duplicateWindowHours: c.DUPLICATE_WINDOW_HOURS,
      stagedMinRecipients: c.STAGED_ACCEPTANCE_MIN_RECIPIENTS,
      sandboxMessagesPerSecond: c.SANDBOX_MESSAGES_PER_SECOND,
      dispatch: {
        enabled: c.DISPATCH_ENABLED,
        batchSize: c.DISPATCH_BATCH_SIZE,
        workers: c.DISPATCH_WORKERS,
        concurrency: c.DISPATCH_CONCURRENCY,
        maxAttempts: c.DISPATCH_MAX_ATTEMPTS,
        leaseSeconds: c.DISPATCH_LEASE_SECONDS,
        unknownSettleSeconds: c.DISPATCH_UNKNOWN_SETTLE_SECONDS,
        sendTimeoutSeconds: c.DISPATCH_SEND_TIMEOUT_SECONDS,
      },
      apiRateLimitPer15Min: c.API_RATE_LIMIT_PER_15_MIN,
    },
    spreadsheets: {
      workerMemoryMb: c.SPREADSHEET_WORKER_MEMORY_MB,
      workerBufferMb: c.SPREADSHEET_WORKER_BUFFER_MB,
      maxRunning: c.SPREADSHEET_PARSES_MAX,
      parsesPerUser: c.SPREADSHEET_PARSES_PER_USER,
    },
    uploads: { partSizeBytes: byteCount(c.UPLOAD_PART_SIZE), maxBytes: c.UPLOAD_MAX_MB * MB, userQuotaBytes: c.UPLOAD_USER_QUOTA_MB * MB },
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://127.0.0.1:${c.PORT}`).replace(/\/+$/, ''),
    secretsKey: c.SECRETS_KEY ?? null,
    platformCloudApi:
      c.PLATFORM_WHATSAPP_PHONE_NUMBER_ID && c.PLATFORM_WHATSAPP_ACCESS_TOKEN
        ? { phoneNumberId: c.PLATFORM_WHATSAPP_PHONE_NUMBER_ID, accessToken: c.PLATFORM_WHATSAPP_ACCESS_TOKEN, otpTemplate: c.PLATFORM_OTP_TEMPLATE, inviteTemplate: c.PLATFORM_INVITE_TEMPLATE }
        : null,
    providers: {
      whatsappApiBase: c.WHATSAPP_API_BASE.replace(/\/+$/, ''),
      whatsappApiVersion: c.WHATSAPP_API_VERSION,
      channelApiBase: c.CHANNEL_API_BASE.replace(/\/+$/, ''),
      webhookVerifyToken: c.WEBHOOK_VERIFY_TOKEN,
      platformAppSecret: c.PLATFORM_WHATSAPP_APP_SECRET ?? null,
      appId: c.WHATSAPP_APP_ID ?? null,
      templateSubmitRetryMs: c.TEMPLATE_SUBMIT_RETRY_MS,
    },
    embeddedSignup:
      c.WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID && c.WHATSAPP_APP_ID && c.WHATSAPP_APP_SECRET
        ? { configId: c.WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID, appId: c.WHATSAPP_APP_ID, appSecret: c.WHATSAPP_APP_SECRET }
        : null,
    simulator: {
      appSecret: c.SIMULATOR_APP_SECRET ?? DEFAULT_SIMULATOR_APP_SECRET,
      appSecretIsDefault: c.SIMULATOR_APP_SECRET === undefined,
      url: c.SIMULATOR_URL?.replace(/\/+$/, ''),
      delays: { sentMs: c.SIMULATOR_SENT_MS, deliveredMs: c.SIMULATOR_DELIVERED_MS, readMs: c.SIMULATOR_READ_MS },
      reviewMs: c.SIMULATOR_REVIEW_MS,
      webhookRetry: { firstDelayMs: c.SIMULATOR_WEBHOOK_RETRY_FIRST_MS, maxDelayMs: c.SIMULATOR_WEBHOOK_RETRY_MAX_DELAY_MS, maxAgeMs: c.SIMULATOR_WEBHOOK_RETRY_MAX_AGE_MS },
    },
    gst:
      gstMode !== 'off' && c.GST_SUPPLIER_GSTIN
        ? {
            mode: gstMode,
            supplierName: c.GST_SUPPLIER_NAME ?? c.BRAND_NAME,
            supplierAddress: c.GST_SUPPLIER_ADDRESS ?? c.SUPPORT_ADDRESS,
            supplierGstin: c.GST_SUPPLIER_GSTIN,
            supplierStateCode: c.GST_SUPPLIER_GSTIN.slice(0, 2),
            sac: c.GST_SAC,
            rateBasisPoints: Math.round(c.GST_RATE_PERCENT * 100),
            invoicePrefix: c.INVOICE_PREFIX,
          }
        : null,
    payments: {
      razorpay,
      sandbox: isProduction ? false : (c.PAYMENTS_SANDBOX ?? !razorpay),
    },
  };
}

/** Name, default and meaning of every variable, for documentation. */
export function describeConfig(): { name: string; defaultValue: string; doc: string }[] {
  return Object.entries(variables).map(([name, { schema, doc }]) => {
    const parsed = (schema as z.ZodType).safeParse(undefined);
    const defaultValue = parsed.success && parsed.data !== undefined ? String(parsed.data) : '';
    return { name, defaultValue, doc };
  });
}
