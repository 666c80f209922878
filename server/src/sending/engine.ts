/**
 * The sending engine's moving parts, assembled once per process: provider adapters, the
 * dispatcher and its queue (embedded on SQLite, pg-boss on PostgreSQL), status ingestion; and,
 * when container.ts built one, the in-process simulator's start and stop.
 */
import type { Knex } from 'knex';
import type { AppConfig } from '../config';
import type { Logger } from '../logger';
import type { WalletService } from '../wallet/service';
import { MessageDispatcher } from './dispatcher';
import { Materialiser } from './materialiser';
import type { StagedRowsStore } from './acceptance/stagedRows';
import { MessageOutcomes } from './messageOutcomes';
import { ProviderRegistry, type CredentialsSource } from './providerRegistry';
import { NO_DISPATCH_JOBS, type Enqueuer, type PgBossDispatchJobs } from './dispatchJobs';
import { EmbeddedDispatchQueue, PgBossDispatchQueue, type DispatchQueue } from './queues';
import { StatusIngest } from './statusIngest';
import type { DispatchStore } from './dispatchStore/store';

export const SIMULATOR_MOUNT = '/simulator';
export const WEBHOOK_PATH = '/api/webhooks/whatsapp';

/**
 * What the engine needs of the simulator mounted in this server (simulator/embedded.ts): it learns
 * where to post status webhooks once the server listens, and closes with the engine.
 */
export interface EmbeddedSimulator {
  setWebhook(webhook: { url: string; appSecret: string }): void;
  close(): Promise<void>;
}

export class SendingEngine {
  readonly outcomes: MessageOutcomes;
  readonly providers: ProviderRegistry;
  readonly dispatcher: MessageDispatcher;
  readonly queue: DispatchQueue;
  /** How queued messages get the queue's jobs (none on SQLite). */
  readonly jobs: Enqueuer;
  /** How staged rows move on this database (the materialiser's store). */
  readonly stagedRows: StagedRowsStore;
  /** How the dispatcher and the queues lock and fence rows on this database. */
  readonly dispatchStore: DispatchStore;
  readonly ingest: StatusIngest;
  /** Message rows for large campaigns' staged recipients, after their acceptance (materialiser.ts). */
  readonly materialiser: Materialiser;
  private readonly simulator: EmbeddedSimulator | null;
  private started = false;

  constructor(
    private readonly deps: {
      config: AppConfig;
      db: Knex;
      logger: Logger;
      wallet: WalletService;
      /** pg-boss's jobs on PostgreSQL (built first: acceptance makes them too); null where the dispatcher polls the table. */
      jobs: PgBossDispatchJobs | null;
      /** How the materialiser moves staged rows on this database. */
      stagedRows: StagedRowsStore;
      /** How the dispatcher and the queues lock and fence rows on this database. */
      dispatchStore: DispatchStore;
      /** Mounted at /simulator when the simulator is on and no separate one is configured. */
      simulator: EmbeddedSimulator | null;
      credentials: CredentialsSource | null;
    },
  ) {
    const { config, db, logger } = deps;
    const log = logger.child({ service: 'sending' });
    const jobs: Enqueuer = deps.jobs ?? NO_DISPATCH_JOBS;
    this.jobs = jobs;
    this.stagedRows = deps.stagedRows;
    this.dispatchStore = deps.dispatchStore;
    this.outcomes = new MessageOutcomes({ db, wallet: deps.wallet, jobs, log });
    this.providers = new ProviderRegistry({
      simulatorUrl: config.simulatorEnabled ? (config.simulator.url ?? null) : null,
      whatsappApiBase: config.providers.whatsappApiBase,
      whatsappApiVersion: config.providers.whatsappApiVersion,
      channelApiBase: config.providers.channelApiBase,
      credentials: deps.credentials,
      timeoutMs: config.sending.dispatch.sendTimeoutSeconds * 1000,
    });
    this.simulator = deps.simulator;
    this.dispatcher = new MessageDispatcher({
      db,
      store: deps.dispatchStore,
      outcomes: this.outcomes,
      jobs,
      providers: this.providers,
      log,
      settings: config.sending.dispatch,
      mediaUrl: (path) => `${config.publicBaseUrl}/${path}`,
    });
    this.queue = deps.jobs
      ? new PgBossDispatchQueue({ db, store: deps.dispatchStore, jobs: deps.jobs, dispatcher: this.dispatcher, log, work: config.sending.dispatch.enabled })
      : new EmbeddedDispatchQueue({ db, store: deps.dispatchStore, dispatcher: this.dispatcher, log });
    this.ingest = new StatusIngest({ db, outcomes: this.outcomes, log });
    this.materialiser = new Materialiser({
      db,
      store: deps.stagedRows,
      jobs,
      log,
      onMaterialised: async ({ campaignId, left }) => {
        this.queue.notify();
        // Held back while rows were staged: a campaign whose last rows were all sent already, or
        // were all Duplicate Blocked, completes now.
        if (left === 0) await this.outcomes.completeCampaigns([campaignId]);
      },
    });
  }

  /** Before the server takes requests. */
  async prepare(): Promise<void> {
    await this.queue.prepare();
  }

  /** Once the server listens: point the embedded simulator at itself and start the workers. */
  async start(localUrl: string): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { config } = this.deps;
    if (this.simulator) {
      this.providers.setSimulatorUrl(`${localUrl}${SIMULATOR_MOUNT}`);
      this.simulator.setWebhook({ url: `${localUrl}${WEBHOOK_PATH}`, appSecret: config.simulator.appSecret });
    }
    this.ingest.start();
    // Staged rows become messages whether or not this instance sends: reports and counts need them.
    this.materialiser.start();
    if (config.sending.dispatch.enabled) await this.queue.start();
  }

  notifyAccepted(): void {
    this.queue.notify();
  }

  /** A resumed campaign's queued messages are due now (SQLite: their next attempt; PostgreSQL: new jobs). */
  async requeueCampaign(campaignId: number): Promise<number> {
    this.dispatcher.forgetCampaign(campaignId);
    return this.queue.requeueCampaign(campaignId);
  }

  async stop(): Promise<void> {
    await this.materialiser.stop();
    await this.queue.stop();
    await this.simulator?.close();
    await this.ingest.stop();
    await this.providers.close();
    this.started = false;
  }
}
