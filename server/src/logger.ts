import pino, { type Logger } from 'pino';
import type { AppConfig } from './config';

export type { Logger };

export function createLogger(config: Pick<AppConfig, 'logLevel' | 'env'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'sandesh' },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', 'newPassword', 'otp', 'token'],
      censor: '[redacted]',
    },
  });
}
