/** Process entry: validate configuration, start the server, stop cleanly on SIGINT/SIGTERM. */
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { retirementWarning } from './sending/graphApiVersions';
import { startServer } from './server';
import { startupSummary } from './startupSummary';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  // A version Meta retires soon fails every send after that day: said at every start, in every mode.
  const versionWarning = retirementWarning(config.providers.whatsappApiVersion, new Date());
  if (versionWarning) logger.warn({ whatsappApiVersion: config.providers.whatsappApiVersion }, versionWarning);
  const running = await startServer(config, { logger });

  const { admin } = running;
  // Say loudly which mode runs: development conveniences must never be a surprise on a server.
  // Production keeps JSON lines for a log collector; elsewhere the log ends with a short block.
  if (config.isProduction) {
    if (admin.generatedPassword) {
      // Printed once, to the terminal only: it is not stored anywhere in clear.
      console.log(
        `\n  First admin account created.\n    username: ${admin.username}\n    password: ${admin.generatedPassword}\n  Keep it now: it will not be shown again. Set ADMIN_USERNAME/ADMIN_PASSWORD to choose your own.\n`,
      );
    } else if (admin.created) logger.info({ username: admin.username }, 'first admin account created from ADMIN_USERNAME/ADMIN_PASSWORD');
    logger.info({ mode: 'production' }, 'PRODUCTION MODE: simulator and sandbox checkout are off');
    logger.info({ url: running.url, database: config.database.kind, env: config.env }, `${config.brand.name} is running at ${running.url}`);
  } else {
    if (admin.created) logger.info(`First admin account created: ${admin.username}`);
    logger.warn(
      `${config.env.toUpperCase()} MODE: simulator inbox (shows reset codes) and sandbox checkout (free credits) are on${config.allowDevOnNetwork ? ' and HOST is open to the network (ALLOW_DEV_ON_NETWORK)' : '; set NODE_ENV=production for real use'}`,
    );
    // The closing block, after every start-up line. A generated password shows even when
    // LOG_LEVEL hides the rest: it is not stored anywhere in clear.
    if (logger.isLevelEnabled('info') || admin.generatedPassword) {
      process.stdout.write(startupSummary({ url: running.url, admin, config }));
    }
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
