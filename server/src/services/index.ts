import type { Knex } from 'knex';
import type { AppConfig } from '../config';
import type { Logger } from '../logger';
import { PLATFORM_PHONE_NUMBER_ID, PLATFORM_SIMULATOR_NUMBER, ProviderPlatformMessenger, UnavailablePlatformMessenger, type PlatformMessenger } from '../messaging/platformMessenger';
import { CloudApiProvider } from '../sending/providers/cloudApi';
import { SendingEngine } from '../sending/engine';
import { SendingService } from '../sending/service';
import { CampaignService } from '../sending/campaigns';
import { ReportService } from '../reports/service';
import type { SimulatorOutbox } from '../simulator/outbox';
import { RazorpayGateway, SandboxGateway } from '../payments/gateway';
import { PaymentService } from '../payments/service';
import { ApiKeyService } from './apiKeys';
import { ApiRateLimiter } from './apiRateLimit';
import { AuditService } from './audit';
import { LoginService } from './auth/login';
import { PasswordResetService } from './auth/passwordResets';
import { SessionService } from './auth/sessions';
import { PricingService } from './pricing';
import { CampaignAcceptance } from '../sending/campaignAcceptance';
import { ProviderAccountService } from '../sending/providerAccounts';
import { WebhookIngest } from '../sending/webhookIngest';
import { loadSecretsKey, SecretBox } from '../security/secretBox';
import { SenderNumberService } from '../sending/senderNumbers';
import { HeldRefunds } from '../sending/heldRefunds';
import { TemplateMediaStore } from '../templates/media';
import { TemplateService } from '../templates/service';
import { ThrottleFactory } from './throttle';
import { UserService } from './users';
import { WalletService } from './wallet';
import { NotificationService } from '../notifications/service';
import { DailyCleanupScheduler } from '../retention/scheduler';
import { RetentionService } from '../retention/service';
import { LOGS } from '@shared/constants';
import { createIntegrations, type Integrations } from '../integrations';

export interface Services {
  audit: AuditService;
  sessions: SessionService;
  wallet: WalletService;
  users: UserService;
  login: LoginService;
  passwordResets: PasswordResetService;
  throttles: ThrottleFactory;
  messenger: PlatformMessenger;
  pricing: PricingService;
  payments: PaymentService;
  templates: TemplateService;
  senderNumbers: SenderNumberService;
  campaigns: CampaignAcceptance;
  apiKeys: ApiKeyService;
  apiRateLimit: ApiRateLimiter;
  providerAccounts: ProviderAccountService;
  engine: SendingEngine;
  webhooks: WebhookIngest;
  sending: SendingService;
  /** Campaigns after acceptance: list, counts, pause/resume/cancel, resend, dashboard figures. */
  campaignService: CampaignService;
  reports: ReportService;
  /** Refunds a customer-signed failure left for an administrator to release. */
  heldRefunds: HeldRefunds;
  // Issue 14: log retention and notifications.
  notifications: NotificationService;
  retention: RetentionService;
  dailyCleanup: DailyCleanupScheduler;
  // Issue 15: the integrator platform.
  integrations: Integrations;
}

/** Wires the domain services; each takes its dependencies explicitly so tests can do the same. */
export function createServices(deps: { config: AppConfig; db: Knex; logger: Logger; outbox: SimulatorOutbox }): Services {
  const { config, db, logger, outbox } = deps;
  // Issue 14: notifications first (other services post to it), then log retention and its daily job.
  const notifications = new NotificationService({ db, log: logger.child({ service: 'notifications' }) });
  const retention = new RetentionService({ db, dataDir: config.dataDir, retentionDays: config.logRetentionDays, log: logger.child({ service: 'retention' }) });
  const dailyCleanup = new DailyCleanupScheduler({
    retention,
    hourUtc: LOGS.cleanupHourUtc,
    log: logger.child({ service: 'daily-cleanup' }),
    onRun: (run) => notifications.cleanupFinished(run),
    onFailure: (error) => notifications.cleanupFinished({ error: error instanceof Error ? error.message : String(error) }),
  });
  const throttles = new ThrottleFactory({ db, kind: config.database.kind });
  const audit = new AuditService({ db });
  const sessions = new SessionService({
    db,
    settings: { idleTimeoutSeconds: config.session.idleTimeoutSeconds, maxAgeHours: config.session.maxAgeHours },
  });
  const wallet = new WalletService({ db });
  const users = new UserService({ db, wallet, audit, sessions });
  const pricing = new PricingService({ db, audit });
  const campaigns = new CampaignAcceptance({ db, pricing, wallet, duplicateWindowHours: config.sending.duplicateWindowHours });
  const providerAccounts = new ProviderAccountService({ db, secretBox: new SecretBox(loadSecretsKey(config)), audit, publicBaseUrl: config.publicBaseUrl });
  const engine = new SendingEngine({ config, db, logger, wallet, acceptance: campaigns, outbox, credentials: providerAccounts });
  const webhooks = new WebhookIngest({
    db,
    accounts: providerAccounts,
    outcomes: engine.outcomes,
    statuses: engine.ingest,
    log: logger.child({ service: 'webhooks' }),
    simulator: config.simulatorEnabled ? { secret: config.simulator.appSecret, loopbackOnly: config.simulator.appSecretIsDefault } : null,
    platformAppSecret: config.providers.platformAppSecret,
  });
  // Reset codes travel the campaign path: a template send through the provider adapter.
  const platform = config.platformCloudApi;
  const messenger: PlatformMessenger = platform
    ? new ProviderPlatformMessenger({
        provider: ((adapter) => () => adapter)(
          new CloudApiProvider({ baseUrl: config.providers.whatsappApiBase, apiVersion: config.providers.whatsappApiVersion, accessToken: platform.accessToken }),
        ),
        phoneNumberId: platform.phoneNumberId,
        brandName: config.brand.name,
        templateName: platform.otpTemplate,
      })
    : config.simulatorEnabled
      ? new ProviderPlatformMessenger({ provider: () => engine.providers.providerFor(PLATFORM_SIMULATOR_NUMBER), phoneNumberId: PLATFORM_PHONE_NUMBER_ID, brandName: config.brand.name })
      : new UnavailablePlatformMessenger();
  const login = new LoginService({ users, throttles });
  const passwordResets = new PasswordResetService({
    db,
    users,
    sessions,
    messenger,
    audit,
    throttles,
    log: logger.child({ service: 'password-resets' }),
  });
  const razorpaySettings = config.payments.razorpay;
  const payments = new PaymentService({
    db,
    wallet,
    log: logger.child({ service: 'payments' }),
    razorpay: razorpaySettings ? new RazorpayGateway(razorpaySettings) : null,
    sandbox: config.payments.sandbox ? new SandboxGateway() : null,
    webhookSecret: razorpaySettings?.webhookSecret,
  });
  const templates = new TemplateService({ db, media: new TemplateMediaStore(config.dataDir), audit });
  const senderNumbers = new SenderNumberService({ db, sandboxMessagesPerSecond: config.sending.sandboxMessagesPerSecond });
  const sending = new SendingService({
    db,
    dataDir: config.dataDir,
    sandboxEnabled: config.simulatorEnabled,
    senderNumbers,
    templates,
    pricing,
    wallet,
    acceptance: campaigns,
    duplicateWindowHours: config.sending.duplicateWindowHours,
    onAccepted: () => engine.notifyAccepted(),
  });
  const integrations = createIntegrations({
    db,
    throttles,
    apiRateLimitPer15Min: config.sending.apiRateLimitPer15Min,
    secretBox: new SecretBox(loadSecretsKey(config)),
    notifications,
    log: logger,
    isProduction: config.isProduction,
  });
  engine.outcomes.onCampaignsSettled = (ids) => {
    void notifications.campaignsSettled(ids);
    void integrations.webhooks.campaignsSettled(ids);
  };
  // Issue 15: status changes and low balance become webhook events (one enqueue per batch).
  engine.outcomes.onMessageStatuses = (changes) => void integrations.webhooks.messageStatusesChanged(changes);
  notifications.onLowBalance = (userId, balance) => void integrations.webhooks.ownerEvent(userId, 'wallet.low_balance', balance);
  const campaignService = new CampaignService({ db, engine, acceptance: campaigns, sending, pricing, wallet });
  const apiKeys = new ApiKeyService({ db, audit });
  const apiRateLimit = new ApiRateLimiter({ throttles, defaultPer15Min: config.sending.apiRateLimitPer15Min });
  const reports = new ReportService({ db, log: logger.child({ service: 'reports' }) });
  const heldRefunds = new HeldRefunds({ db, outcomes: engine.outcomes, wallet, audit });
  return { integrations, audit, sessions, wallet, users, login, passwordResets, throttles, messenger, pricing, payments, templates, senderNumbers, campaigns, apiKeys, apiRateLimit, providerAccounts, engine, webhooks, sending, campaignService, reports, heldRefunds, notifications, retention, dailyCleanup };
}
