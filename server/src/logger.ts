import pino, { type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from './config';

export type { Logger };

/** The service every line carries; child loggers name their own (`retention`, ...). */
const SERVICE = 'sandesh';

/**
 * JSON lines in production, for a log collector. Elsewhere one readable line per event
 * (`12:00:01 INFO: Database migrated: ...`, a child logger's service in front of its message),
 * written synchronously on the main thread: pino's transports run in a worker thread, whose
 * lines could arrive after what the process prints itself at start-up.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'env'>): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    base: { service: SERVICE },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', 'newPassword', 'otp', 'token'],
      censor: '[redacted]',
    },
  };
  if (config.env === 'production' || config.logLevel === 'silent') return pino(options);
  return pino(
    options,
    pretty({
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,service',
      messageFormat: (log, messageKey) => {
        const message = String(log[messageKey] ?? '');
        return typeof log.service === 'string' && log.service !== SERVICE ? `${log.service}: ${message}` : message;
      },
    }),
  );
}
