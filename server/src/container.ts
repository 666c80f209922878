/**
 * The one wiring file: builds every service of every domain folder with its dependencies, for
 * server.ts and the tests. Domain folders never build each other's services or import this file
 * (eslint.config.js), so the dependencies run one way: routes -> container -> domain folders.
 */
import type { Knex } from 'knex';
import { databaseVersion, type DatabaseKind } from './db/knex';
import type { AppConfig } from './config';
import type { Logger } from './logger';
import { PLATFORM_PHONE_NUMBER_ID, PLATFORM_SIMULATOR_NUMBER, ProviderPlatformMessenger, UnavailablePlatformMessenger, type PlatformMessenger } from './platformMessages/platformMessenger';
import { CloudApiProvider } from './sending/providers/cloudApi';
import { SendingEngine } from './sending/engine';
import type { CloudApiSimulator } from './simulator/cloudApiSimulator';
import { createEmbeddedSimulator } from './simulator/embedded';
import { PostgresDispatchStore } from './sending/dispatchStore/postgresStore';
import { SqliteDispatchStore } from './sending/dispatchStore/sqliteStore';
import { SendingService } from './sending/service';
import { ApiSends } from './sending/apiSends';
import { AudienceSends } from './sending/audienceSends';
import { LINGER_MS } from './sending/apiSendBatcher';
import { CampaignService } from './sending/campaigns';
import { ReportService } from './reports/service';
import { RecipientNumberIndex } from './reports/recipientNumbers';
import { TableStatistics } from './db/tableStatistics';
import type { SimulatorOutbox } from './simulator/outbox';
import { RazorpayGateway, SandboxGateway } from './payments/gateway';
import { PaymentService } from './payments/service';
import { InvoiceService } from './invoices/service';
import { ApiKeyService } from './apiKeys/service';
import { ApiRateLimiter } from './apiKeys/rateLimit';
import { AuditService } from './audit/service';
import { DeviceService } from './accounts/devices';
import { LoginService } from './accounts/login';
import { PasswordResetService } from './accounts/passwordResets';
import { SessionService } from './accounts/sessions';
import { TeamService } from './accounts/team';
import { PricingService } from './pricing/service';
import { CampaignAcceptance } from './sending/campaignAcceptance';
import { PostgresAcceptanceStore } from './sending/acceptance/postgresStore';
import { SqliteAcceptanceStore } from './sending/acceptance/sqliteStore';
import { PostgresStagedRows, SqliteStagedRows } from './sending/acceptance/stagedRows';
import { NO_DISPATCH_JOBS, PgBossDispatchJobs, pgBossSchemaFor } from './sending/dispatchJobs';
import { BusinessInfoService } from './providerAccounts/businessInfo';
import { EmbeddedSignupService } from './providerAccounts/embeddedSignup';
import { ChannelSettingsService } from './providerAccounts/channelSettings';
import { D360WebhookRegistrar } from './providerAccounts/channelWebhook';
import { ProviderCredentialStore } from './providerAccounts/credentials';
import { WebhookIngest } from './sending/webhookIngest';
import { ConversationService } from './conversations/service';
import { TemplateHolds } from './sending/templateHolds';
import { SenderHealth } from './sending/senderHealth';
import { UnknownWebhookEvents } from './webhookEvents/unknownEvents';
import { loadSecretsKey, SecretBox } from './security/secretBox';
import { SenderNumberService } from './sending/senderNumbers';
import { HeldRefunds } from './wallet/heldRefunds';
import { SpreadsheetParses } from './spreadsheets/spreadsheetParses';
import { TemplateMediaStore } from './templates/media';
import { TemplateService } from './templates/service';
import { SIMULATOR_APP_ID, TemplateAccounts, TemplateApi, type TemplateAccount } from './templates/templateApi';
import { TemplateSync } from './templates/sync';
import { DailyTemplateSync } from './templates/dailySync';
import { DailyNumberHealth, NumberHealthService } from './sending/numberHealth';
import { ReconciliationService } from './reports/reconciliation';
import { MetaSubmissions } from './templates/metaSubmission';
import { Template } from './models';
import { SIMULATOR_ACCESS_TOKEN } from './sending/providerRegistry';
import { OnboardingService } from './onboarding/service';
import { ThrottleFactory } from './throttling/throttle';
import { UserService } from './accounts/users';
import { WalletService } from './wallet/service';
import { NotificationService } from './notifications/service';
import { DailyCleanupScheduler } from './retention/scheduler';
import { CampaignProgressFeed } from './notifications/campaignProgress';
import { CampaignStallWatch } from './notifications/campaignStallWatch';
import { ScheduledCampaigns } from './sending/scheduledCampaigns';
import { RetentionService } from './retention/service';
import { retentionStoreFor } from './retention/store';
import { LOGS, NOTIFICATIONS, NUMBER_HEALTH, TEMPLATE_SYNC } from '@shared/constants';
import { presentCampaign } from './presenters/campaign';
import { SuppressionService } from './suppressions/service';
import { createIntegrations, type Integrations } from './integratorApi';
import { UploadService } from './uploads/service';
import { ContactService } from './contacts/service';
import { SegmentService } from './contacts/segments';
import { ContactActivity, recordDeliveries } from './contacts/activity';
import { ContactDirectory } from './contacts/directory';
import { POSTGRES_CONTACT_SQL, SQLITE_CONTACT_SQL } from './contacts/sqlDialect';

/** What the health check says about the database. */
export interface DatabaseInfo {
  kind: DatabaseKind;
  version(): Promise<string>;
}

export interface Services {
  database: DatabaseInfo;
  conversations: ConversationService;
  audit: AuditService;
  sessions: SessionService;
  /** Account members, roles, invitations and account switching. */
  team: TeamService;
  wallet: WalletService;
  users: UserService;
  login: LoginService;
  passwordResets: PasswordResetService;
  throttles: ThrottleFactory;
  messenger: PlatformMessenger;
  pricing: PricingService;
  payments: PaymentService;
  /** GST tax invoices and credit notes. */
  invoices: InvoiceService;
  templates: TemplateService;
  /** Where each user's templates are managed (Meta, the channel provider, the simulator). */
  templateAccounts: TemplateAccounts;
  /** The one client of the template management APIs. */
  templateApi: TemplateApi;
  /** Sync from Meta (a user's, an administrator's for a user, the daily one) and deletes at Meta. */
  templateSync: TemplateSync<TemplateAccount>;
  /** The daily sync of every business's templates, once across instances. */
  dailyTemplateSync: DailyTemplateSync;
  /** Cloud API numbers' health at Meta (quality, messaging limit, throughput, name status). */
  numberHealth: NumberHealthService;
  /** The daily read of every number's health, once across instances. */
  dailyNumberHealth: DailyNumberHealth;
  /** What we charged beside what Meta billed, per account per day. */
  reconciliation: ReconciliationService;
  /** Creates templates at Meta once the administrator approved them, and retries those that did not reach it. */
  metaSubmissions: MetaSubmissions;
  /** The dashboard's getting-started checklist, computed from the account's data. */
  onboarding: OnboardingService;
  senderNumbers: SenderNumberService;
  /** Acceptance of a send: pricing, Duplicate Blocked, the debit and the rows, in one transaction. */
  campaignAcceptance: CampaignAcceptance;
  apiKeys: ApiKeyService;
  apiRateLimit: ApiRateLimiter;
  /** A user's Meta Cloud API business info (admins write it). */
  businessInfo: BusinessInfoService;
  /** Connect WhatsApp yourself: Meta's Embedded Signup finished on the server (providerAccounts/embeddedSignup.ts). */
  embeddedSignup: EmbeddedSignupService;
  /** Sender numbers Meta refused to send for: stopped, their campaigns paused, resumed (sending/senderHealth.ts). */
  senderHealth: SenderHealth;
  /** A user's channel provider settings (admins write them). */
  channelSettings: ChannelSettingsService;
  /** Provider secrets for sends, webhook signatures and the verify handshake. */
  providerCredentials: ProviderCredentialStore;
  engine: SendingEngine;
  /** The simulator mounted at /simulator when it is on and no separate one is configured. */
  simulator: CloudApiSimulator | null;
  webhooks: WebhookIngest;
  suppressions: SuppressionService;
  /** Signed webhook changes stored without acting on them, for the admin's view. */
  unknownWebhookEvents: UnknownWebhookEvents;
  sending: SendingService;
  /** The public API's sends: single messages gathered into rounds, batches, a segment's contacts. */
  apiSends: ApiSends;
  /** The app's sends to a segment or to tagged contacts. */
  audienceSends: AudienceSends;
  /** Campaigns after acceptance: list, counts, pause/resume/cancel, resend, dashboard figures. */
  campaigns: CampaignService;
  /** Starts scheduled campaigns when they are due (once across instances). */
  scheduledCampaigns: ScheduledCampaigns;
  reports: ReportService;
  /** Refunds a customer-signed failure left for an administrator to release. */
  heldRefunds: HeldRefunds;
  /** Uploaded spreadsheets, read in memory-capped worker threads, a few at a time per user. */
  spreadsheets: SpreadsheetParses;
  // Log retention and notifications.
  notifications: NotificationService;
  /** The devices each user signed in from (a new one is told to the user). */
  devices: DeviceService;
  /** Live campaign counts for the owner's notification stream (`campaign_progress` events). */
  campaignProgress: CampaignProgressFeed;
  /** Warns the owner of a running campaign that stopped moving. */
  stallWatch: CampaignStallWatch;
  retention: RetentionService;
  dailyCleanup: DailyCleanupScheduler;
  /** Adds new messages' numbers to the reports' search index by part of a number (both databases). */
  recipientNumbers: RecipientNumberIndex;
  /** PostgreSQL with autovacuum off: the schema's tables analysed by autovacuum's rule (null on SQLite). */
  tableStatistics: TableStatistics | null;
  /** The integrator platform: idempotency keys, status reads, signed delivery webhooks. */
  integrations: Integrations;
  /** Resumable uploads: parts on disk, completion with a checksum and a parse, the expiry sweep. */
  uploads: UploadService;
  /** The owner's contact book: contacts, typed attributes, tags, opt-in (opt-out is the suppression list). */
  contacts: ContactService;
  /** Saved filters over the contact book, counted and listed. */
  segments: SegmentService;
  /** Records each campaign's recipients as contacts after acceptance (contacts/activity.ts). */
  contactActivity: ContactActivity;
  /** Attribute definitions, tags in use and a contact's messages across campaigns and replies. */
  contactDirectory: ContactDirectory;
}

/** Wires the domain services; each takes its dependencies explicitly so tests can do the same. */
export function createServices(deps: {
  config: AppConfig;
  db: Knex;
  logger: Logger;
  outbox: SimulatorOutbox;
  /** The time sessions are judged by (tests move it by hand instead of waiting out a timeout). */
  sessionClock?: () => Date;
  /** The time uploads are created and expire by (tests move it to see the expiry sweep). */
  uploadClock?: () => Date;
  /** The time the public API's sends take their Indian day from (tests move it past midnight). */
  apiClock?: () => Date;
}): Services {
  const { config, db, logger, outbox } = deps;
  // Notifications first (other services post to it), then log retention and its daily job.
  const notifications = new NotificationService({ db, log: logger.child({ service: 'notifications' }) });
  const retention = new RetentionService({ db, store: retentionStoreFor(config.database.kind), dataDir: config.dataDir, retentionDays: config.logRetentionDays, log: logger.child({ service: 'retention' }) });
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
    ...(deps.sessionClock ? { now: deps.sessionClock } : {}),
  });
  const wallet = new WalletService({ db });
  // Reset codes and team invitations travel the campaign path: a template send through the
  // provider adapter (the engine's, looked up at send time).
  const platform = config.platformCloudApi;
  const messenger: PlatformMessenger = platform
    ? new ProviderPlatformMessenger({
        provider: ((adapter) => () => adapter)(
          new CloudApiProvider({ baseUrl: config.providers.whatsappApiBase, apiVersion: config.providers.whatsappApiVersion, accessToken: platform.accessToken }),
        ),
        phoneNumberId: platform.phoneNumberId,
        brandName: config.brand.name,
        templateName: platform.otpTemplate,
        inviteTemplateName: platform.inviteTemplate,
      })
    : config.simulatorEnabled
      ? new ProviderPlatformMessenger({ provider: () => engine.providers.providerFor(PLATFORM_SIMULATOR_NUMBER), phoneNumberId: PLATFORM_PHONE_NUMBER_ID, brandName: config.brand.name })
      : new UnavailablePlatformMessenger();
  const team = new TeamService({ db, audit, messenger, brandName: config.brand.name, log: logger.child({ service: 'team' }) });
  const users = new UserService({ db, wallet, audit, sessions, team });
  const pricing = new PricingService({ db, audit, wallet });
  // The database is chosen here once: how queued messages get jobs (pg-boss on PostgreSQL, none
  // where the dispatcher polls the table) and where acceptance writes. Both are built before
  // everything that uses them, so nothing is set on anything after it is made.
  const dispatchJobs =
    config.database.kind === 'postgresql'
      ? new PgBossDispatchJobs({ db, url: config.database.url, schema: pgBossSchemaFor(config.database.schema), settings: config.sending.dispatch, log: logger.child({ service: 'sending' }) })
      : null;
  const contacts = new ContactService({ db, dialect: config.database.kind === 'postgresql' ? POSTGRES_CONTACT_SQL : SQLITE_CONTACT_SQL });
  const segments = new SegmentService({ db, contacts });
  const contactActivity = new ContactActivity({ db, log: logger.child({ service: 'contact-activity' }) });
  const contactDirectory = new ContactDirectory({ db });
  const acceptanceStore = dispatchJobs ? new PostgresAcceptanceStore({ db, wallet }) : new SqliteAcceptanceStore(db);
  const campaignAcceptance = new CampaignAcceptance({
    db,
    store: acceptanceStore,
    jobs: dispatchJobs ?? NO_DISPATCH_JOBS,
    pricing,
    wallet,
    duplicateWindowHours: config.sending.duplicateWindowHours,
    stagedMinRecipients: config.sending.stagedMinRecipients,
  });
  const secretBox = new SecretBox(loadSecretsKey(config));
  const businessInfo = new BusinessInfoService({ db, secretBox, audit });
  const channelSettings = new ChannelSettingsService({
    db,
    secretBox,
    audit,
    publicBaseUrl: config.publicBaseUrl,
    registrar: new D360WebhookRegistrar({ baseUrl: config.providers.channelApiBase }),
  });
  const providerCredentials = new ProviderCredentialStore({ db, secretBox });
  const simulator = createEmbeddedSimulator({ config, db, outbox, credentials: providerCredentials, log: logger.child({ service: 'sending' }) });
  const engine = new SendingEngine({ config, db, logger, wallet, jobs: dispatchJobs, stagedRows: dispatchJobs ? new PostgresStagedRows(db) : new SqliteStagedRows(), dispatchStore: dispatchJobs ? new PostgresDispatchStore() : new SqliteDispatchStore(), simulator, credentials: providerCredentials });
  const suppressions = new SuppressionService({ db });
  const conversations = new ConversationService({
    db,
    replies: suppressions,
    log: logger.child({ service: 'conversations' }),
    dataDir: config.dataDir,
    providers: engine.providers,
    // Integrators' events: the outbox exists once the integrations are built below.
    webhooks: { ownerEvents: (events) => integrations.webhooks.ownerEvents(events) },
    wallet,
    servicePrice: (userId) => pricing.serviceUnits(userId),
    publicBaseUrl: config.publicBaseUrl,
  });
  const webhooks = new WebhookIngest({
    db,
    accounts: providerCredentials,
    outcomes: engine.outcomes,
    statuses: engine.ingest,
    conversations,
    log: logger.child({ service: 'webhooks' }),
    simulator: config.simulatorEnabled ? { secret: config.simulator.appSecret, loopbackOnly: config.simulator.appSecretIsDefault } : null,
    platformAppSecret: config.providers.platformAppSecret,
  });
  const login = new LoginService({ users, throttles });
  const devices = new DeviceService({ db, log: logger.child({ service: 'devices' }) });
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
  const invoices = new InvoiceService({ db, gst: config.gst });
  const payments = new PaymentService({
    db,
    wallet,
    invoices,
    audit,
    log: logger.child({ service: 'payments' }),
    razorpay: razorpaySettings ? new RazorpayGateway(razorpaySettings) : null,
    sandbox: config.payments.sandbox ? new SandboxGateway() : null,
    webhookSecret: razorpaySettings?.webhookSecret,
    events: {
      credited: (userId, orderId) => void notifications.paymentCredited(userId, orderId),
      failed: (userId, failure) => void notifications.paymentFailed(userId, failure),
      refunded: (refund) => void notifications.topUpRefunded(refund),
    },
  });
  const templateAccounts = new TemplateAccounts({
    db,
    secretBox,
    providers: { ...config.providers },
    simulator: config.simulatorEnabled ? { base: () => engine.providers.simulatorBase() ?? '', accessToken: SIMULATOR_ACCESS_TOKEN } : null,
  });
  const templateApi = new TemplateApi();
  const templateMedia = new TemplateMediaStore(config.dataDir);
  const metaSubmissions = new MetaSubmissions({
    db,
    accounts: templateAccounts,
    api: templateApi,
    media: templateMedia,
    log: logger.child({ service: 'meta-submissions' }),
    settings: { retryMs: config.providers.templateSubmitRetryMs, maxRetryMs: 3_600_000, claimMs: 2 * 60_000 },
    // Approved or refused by Meta at once: told as an administrator's decision is.
    onSettled: (template) => announceTemplateOutcome(template),
  });
  const templateSync = new TemplateSync({ db, accounts: templateAccounts, api: templateApi, audit, log: logger.child({ service: 'template-sync' }) });
  const dailyTemplateSync = new DailyTemplateSync({ db, sync: templateSync, hourIst: TEMPLATE_SYNC.dailyHourIst, log: logger.child({ service: 'daily-template-sync' }) });
  const templates = new TemplateService({ db, media: templateMedia, audit, submissions: metaSubmissions, beforeDelete: (template) => templateSync.deleteAtMeta(template) });
  const onboarding = new OnboardingService({ db });
  const senderNumbers = new SenderNumberService({ db, sandboxMessagesPerSecond: config.sending.sandboxMessagesPerSecond });
  // Uploads before sending: a send may read a completed upload's rows.
  const spreadsheets = new SpreadsheetParses({
    workerMemoryMb: config.spreadsheets.workerMemoryMb,
    workerBufferMb: config.spreadsheets.workerBufferMb,
    maxRunning: config.spreadsheets.maxRunning,
    perUser: config.spreadsheets.parsesPerUser,
  });
  const uploads = new UploadService({
    db,
    dataDir: config.dataDir,
    ...config.uploads,
    spreadsheets,
    log: logger.child({ service: 'uploads' }),
    ...(deps.uploadClock ? { now: deps.uploadClock } : {}),
  });
  const numberHealth = new NumberHealthService({
    db,
    credentials: providerCredentials,
    whatsappApiBase: config.providers.whatsappApiBase,
    whatsappApiVersion: config.providers.whatsappApiVersion,
    log: logger.child({ service: 'number-health' }),
  });
  const dailyNumberHealth = new DailyNumberHealth({ db, health: numberHealth, hourIst: NUMBER_HEALTH.dailyHourIst, log: logger.child({ service: 'daily-number-health' }) });
  webhooks.onNumberHealth = async (ownerIds, event) => {
    await numberHealth.applyEvent(ownerIds, event);
  };
  const reconciliation = new ReconciliationService({ db });
  const sending = new SendingService({
    db,
    previewWarnings: (numberId, recipients) => numberHealth.previewWarnings(numberId, recipients),
    dataDir: config.dataDir,
    sandboxEnabled: config.simulatorEnabled,
    senderNumbers,
    templates,
    pricing,
    acceptance: campaignAcceptance,
    uploads,
    duplicateWindowHours: config.sending.duplicateWindowHours,
    onAccepted: () => engine.notifyAccepted(),
    contactAttributes: contactDirectory,
  });
  const audienceSends = new AudienceSends({ db, sending, templates, pricing, duplicateWindowHours: config.sending.duplicateWindowHours, segments });
  const apiSends = new ApiSends({
    db,
    sending,
    templates,
    acceptance: campaignAcceptance,
    audience: audienceSends,
    duplicateWindowHours: config.sending.duplicateWindowHours,
    lingerMs: LINGER_MS[config.database.kind],
    onAccepted: () => engine.notifyAccepted(),
    onApiSpent: (userId, walletAfter) => notifications.lowBalanceAfterSpend(userId, walletAfter),
    ...(deps.apiClock ? { apiClock: deps.apiClock } : {}),
  });
  const integrations = createIntegrations({
    db,
    throttles,
    apiRateLimitPer15Min: config.sending.apiRateLimitPer15Min,
    secretBox,
    notifications,
    log: logger,
    isProduction: config.isProduction,
  });
  // A template's review ends with Meta's answer (at once, or by its webhook): the owner is told
  // and integrators get the event, as for an administrator's rejection.
  function announceTemplateOutcome(template: Template): void {
    if (template.status !== 'APPROVED' && template.status !== 'REJECTED') return;
    void notifications.templateReviewed(template.userId, { name: template.name, status: template.status, reason: template.rejectionReason });
    void integrations.webhooks.ownerEvent(template.userId, template.status === 'APPROVED' ? 'template.approved' : 'template.rejected', {
      template_id: template.id,
      name: template.name,
      language: template.language,
      reason: template.rejectionReason,
    });
  }
  webhooks.onTemplateReviewed = (templateId) =>
    void Template.query(db)
      .findById(templateId)
      .then((template) => template && announceTemplateOutcome(template));
  // A sync that finds Meta's answer (a missed webhook) tells it the same way.
  templateSync.onTemplateReviewed = webhooks.onTemplateReviewed;
  engine.outcomes.onCampaignsSettled = (ids) => void notifications.campaignsSettled(ids);
  // Status changes and completed campaigns become webhook events in the transaction that makes
  // them (one outbox row per status and batch, one per campaign); low balance once it is told.
  // Delivered and read counts move on the contacts in the same transaction, once per transition.
  const contactCountsLog = logger.child({ service: 'contact-counts' });
  engine.outcomes.recordMessageStatuses = async (trx, changes) => {
    await integrations.webhooks.recordMessageStatuses(trx, changes);
    await recordDeliveries(trx, changes, new Date(), contactCountsLog);
  };
  engine.outcomes.recordCampaignsCompleted = (trx, ids) => integrations.webhooks.recordCampaignsCompleted(trx, ids);
  // A campaign with nothing billable is complete as it is accepted: it is announced the same way.
  campaignAcceptance.recordCampaignsCompleted = (trx, ids) => integrations.webhooks.recordCampaignsCompleted(trx, ids);
  campaignAcceptance.onCampaignsSettled = (ids) => void notifications.campaignsSettled(ids);
  campaignAcceptance.onStaged = () => engine.materialiser.notify();
  notifications.onLowBalance = (userId, balance) => void integrations.webhooks.ownerEvent(userId, 'wallet.low_balance', balance);
  const campaigns = new CampaignService({ db, engine, acceptance: campaignAcceptance, sending, pricing, sendTimeoutMs: config.sending.dispatch.sendTimeoutSeconds * 1000 });
  // Meta's moves of a template pause, resume or end the campaigns using it (templateHolds.ts).
  const templateHolds = new TemplateHolds({
    db,
    engine,
    wallet,
    priceOf: (userId, category) => pricing.effectiveFor(userId, category),
    notices: notifications,
    announce: (userId, data, eventId) => integrations.webhooks.ownerEvent(userId, 'template.status_changed', data, eventId),
    log: logger.child({ service: 'template-holds' }),
  });
  webhooks.onTemplateStatus = async (templateId, move) => {
    await templateHolds.statusApplied(templateId, move);
  };
  webhooks.onTemplateCategory = (move) => templateHolds.categoryChanged(move);
  templates.onStatusMoved = async (templateId, move) => {
    await templateHolds.statusApplied(templateId, move);
  };
  // A sync that finds a move the webhooks missed has the same effects.
  templateSync.onTemplateStatus = async (templateId, move) => {
    await templateHolds.statusApplied(templateId, move);
  };
  templateSync.onTemplateCategory = (move) => templateHolds.categoryChanged(move);
  // A running campaign whose template is already out of use (accepted as Meta's event arrived)
  // is found by the dispatcher, which sends none of it, and follows its template here.
  engine.dispatcher.onTemplateOutOfUse = (templateId) => void templateHolds.statusApplied(templateId, null);
  // Meta's answers per the error table (providers/metaErrors.ts): a template refused at send
  // follows as Meta's event would move it; a number Meta will not send for stops (senderHealth.ts).
  engine.dispatcher.onTemplateRefused = (templateId, status) => void templateHolds.refusedAtSend(templateId, status);
  const senderHealth = new SenderHealth({ db, engine, notices: notifications, log: logger.child({ service: 'sender-health' }) });
  const embeddedSignup = new EmbeddedSignupService({
    db,
    secretBox,
    audit,
    // Meta with our app when configured; else the simulator plays Meta where it runs (its address is known once the server listens).
    target: () => {
      const live = config.embeddedSignup;
      if (live) return { sandbox: false, base: config.providers.whatsappApiBase, version: config.providers.whatsappApiVersion, ...live };
      const simulatorBase = config.simulatorEnabled ? engine.providers.simulatorBase() : null;
      if (!simulatorBase) return null;
      return { sandbox: true, base: simulatorBase, version: config.providers.whatsappApiVersion, appId: SIMULATOR_APP_ID, appSecret: config.simulator.appSecret, configId: '0' };
    },
    syncTemplates: (userId) => templateSync.syncUser(userId),
    sandboxMessagesPerSecond: config.sending.sandboxMessagesPerSecond,
    log: logger.child({ service: 'embedded-signup' }),
  });
  embeddedSignup.onNumberDisconnected = (numberId) => senderHealth.pauseForDisconnected(numberId);
  engine.dispatcher.onSenderStopped = (numberId, error) => void senderHealth.stopped(numberId, error);
  businessInfo.onSaved = (userId) => senderHealth.credentialsSaved(userId).catch((error: unknown) => logger.error({ err: error, userId }, 'stopped numbers not resumed after new credentials'));
  campaigns.onResumeSender = (numberId) => senderHealth.resume(numberId);
  const scheduledCampaigns = new ScheduledCampaigns({
    db,
    acceptance: campaignAcceptance,
    outcomes: engine.outcomes,
    log: logger.child({ service: 'scheduled-campaigns' }),
    onStarted: () => engine.notifyAccepted(),
    onFailed: (campaign) => void notifications.campaignFailed(campaign.userId, { name: campaign.name, reason: campaign.reason }, `campaign:${campaign.id}:completed`),
  });
  const campaignProgress = new CampaignProgressFeed({
    // The stream carries campaigns in the shape the send dialogs read from GET /api/campaigns/{id}.
    source: {
      ownerOf: (id) => campaigns.ownerOf(id),
      followed: (userId, followMs, limit) => campaigns.followed(userId, followMs, limit),
      progress: async (id) => {
        const record = await campaigns.progress(id);
        return record ? presentCampaign(record) : null;
      },
    },
    log: logger.child({ service: 'campaign-progress' }),
    throttleMs: NOTIFICATIONS.campaignProgressThrottleMs,
    messagesPerSecond: NOTIFICATIONS.campaignProgressMessagesPerSecond,
    maxIntervalMs: NOTIFICATIONS.campaignProgressMaxIntervalMs,
    followMs: NOTIFICATIONS.campaignFollowMs,
    followLimit: NOTIFICATIONS.campaignFollowLimit,
  });
  const stallWatch = new CampaignStallWatch({
    db,
    log: logger.child({ service: 'stall-watch' }),
    stallAfterMs: config.campaignStallMinutes * 60_000,
    checkEveryMs: NOTIFICATIONS.stallCheckMs,
    onStalled: (campaign) => notifications.campaignStalled(campaign.userId, campaign),
  });
  engine.outcomes.onCampaignsProgressed = (ids) => {
    campaignProgress.signal(ids);
    stallWatch.noteProgress(ids);
  };
  const apiKeys = new ApiKeyService({ db, audit });
  const apiRateLimit = new ApiRateLimiter({ throttles, defaultPer15Min: config.sending.apiRateLimitPer15Min });
  const reports = new ReportService({ db, log: logger.child({ service: 'reports' }) });
  const recipientNumbers = new RecipientNumberIndex({ db, log: logger.child({ service: 'recipient-numbers' }) });
  const tableStatistics = config.database.kind === 'postgresql' ? new TableStatistics({ db, log: logger.child({ service: 'table-statistics' }) }) : null;
  const heldRefunds = new HeldRefunds({ db, wallet, audit });
  const database: DatabaseInfo = { kind: config.database.kind, version: () => databaseVersion(db, config.database.kind) };
  const unknownWebhookEvents = new UnknownWebhookEvents({ db });
  return { contacts, segments, contactActivity, contactDirectory, conversations, numberHealth, dailyNumberHealth, reconciliation, unknownWebhookEvents, database, templateAccounts, templateApi, metaSubmissions, templateSync, dailyTemplateSync, integrations, uploads, audit, sessions, team, wallet, users, login, passwordResets, throttles, messenger, pricing, payments, invoices, templates, onboarding, senderNumbers, campaignAcceptance, apiKeys, apiRateLimit, businessInfo, embeddedSignup, channelSettings, providerCredentials, engine, simulator, webhooks, suppressions, sending, apiSends, audienceSends, campaigns, scheduledCampaigns, reports, heldRefunds, spreadsheets, notifications, devices, campaignProgress, stallWatch, retention, dailyCleanup, recipientNumbers, tableStatistics, senderHealth };
}
