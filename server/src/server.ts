import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { AppConfig } from './config';
import { createDatabase, type Knex } from './db/knex';
import { migrateToLatest } from './db/migrations';
import { WalCheckpointer } from './db/walCheckpointer';
import { sweepOrphanCampaignMedia } from './sending/campaignMedia';
import { createLogger, type Logger } from './logger';
import { createServices, type Services } from './container';
import { SimulatorOutbox } from './simulator/outbox';
import { APP_VERSION } from './version';

export interface RunningServer {
  url: string;
  port: number;
  config: AppConfig;
  db: Knex;
  services: Services;
  outbox: SimulatorOutbox;
  logger: Logger;
  /** The administrator: `created` at this start (with the password generated for it, if any) or before. */
  admin: { username: string; created: boolean; generatedPassword: string | null };
  close(): Promise<void>;
}

/**
 * Starts everything a server instance runs: database migrations, the first admin, the HTTP
 * server and periodic maintenance. Used by main.ts and by the API and end-to-end tests.
 */
export async function startServer(config: AppConfig, options: { logger?: Logger; sessionClock?: () => Date; uploadClock?: () => Date; apiClock?: () => Date } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const db = createDatabase(config.database);
  if (config.database.kind === 'postgresql' && config.database.schema) {
    await db.raw('create schema if not exists ??', [config.database.schema]);
  }
  const applied = await migrateToLatest(db);
  if (applied.length) {
    logger.info(`Database migrated: ${applied.length} migration${applied.length === 1 ? '' : 's'} applied`);
    logger.debug({ applied }, 'migrations applied');
  } else logger.info('Database is up to date');
  const checkpointer = config.database.kind === 'sqlite' ? await WalCheckpointer.start(db, config.database.filename, logger) : null;

  const outbox = new SimulatorOutbox();
  const services = createServices({
    config,
    db,
    logger,
    outbox,
    ...(options.sessionClock ? { sessionClock: options.sessionClock } : {}),
    ...(options.uploadClock ? { uploadClock: options.uploadClock } : {}),
    ...(options.apiClock ? { apiClock: options.apiClock } : {}),
  });
  const bootstrap = await services.users.ensureInitialAdmin(config.admin);
  const admin = bootstrap.created
    ? { username: bootstrap.username, created: true, generatedPassword: bootstrap.generatedPassword }
    : { username: bootstrap.username, created: false, generatedPassword: null };

  await services.engine.prepare();
  const app = createApp({ config, logger, services, outbox, version: APP_VERSION });
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  // Keep-alive sockets must outlive a load balancer's idle timeout (commonly 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  const sweepMedia = () =>
    sweepOrphanCampaignMedia(db, config.dataDir).catch((error: unknown) => logger.warn({ err: error }, 'orphan campaign media sweep failed'));
  void sweepMedia();
  const maintenance = setInterval(() => {
    void sweepMedia();
    Promise.all([services.sessions.purgeExpired(), services.passwordResets.purgeOld(), services.throttles.purgeExpired()]).catch(
      (error: unknown) => logger.warn({ err: error }, 'maintenance failed'),
    );
  }, 10 * 60_000);
  maintenance.unref();

  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  await services.engine.start(`http://${host}:${port}`);
  if (config.logCleanupEnabled) services.dailyCleanup.start();
  services.stallWatch.start();
  services.scheduledCampaigns.start();
  services.dailyTemplateSync.start();
  services.dailyNumberHealth.start();
  services.metaSubmissions.start();
  services.integrations.webhookDeliverer.start();
  services.uploads.start();
  services.recipientNumbers.start();
  services.contactActivity.start();
  services.tableStatistics?.start();
  services.conversations.start();
  return {
    url: `http://${host}:${port}`,
    port,
    config,
    db,
    services,
    outbox,
    logger,
    admin,
    async close() {
      clearInterval(maintenance);
      await services.dailyCleanup.stop();
      await services.stallWatch.stop();
      await services.scheduledCampaigns.stop();
      await services.dailyTemplateSync.stop();
      await services.dailyNumberHealth.stop();
      await services.metaSubmissions.stop();
      await services.integrations.webhookDeliverer.stop();
      await services.uploads.stop();
      await services.recipientNumbers.stop();
      await services.contactActivity.stop();
      await services.tableStatistics?.stop();
      await services.conversations.stop();
      await services.engine.stop();
      await services.templateApi.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.spreadsheets.close();
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
