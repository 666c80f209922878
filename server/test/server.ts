/**
 * Starts a real server for a test file: SQLite in a temporary folder, or PostgreSQL (when the
 * suite runs as api-postgres and TEST_DATABASE_URL is set) in a schema of its own, so test files
 * run in parallel without seeing each other's data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { startServer, type RunningServer } from '../src/server';
import { dropTestSchemas } from './deployment';

export type TestDatabaseKind = 'sqlite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/** The PostgreSQL suite runs only where a database is given; it says so when it skips. */
export const postgresUnavailable = testDatabaseKind() === 'postgres' && !process.env.TEST_DATABASE_URL;
if (postgresUnavailable) {
  console.warn('api-postgres: TEST_DATABASE_URL is not set, PostgreSQL API tests are skipped');
}

export const TEST_ADMIN = { username: 'root_admin', password: 'admin-password-1' } as const;

export interface TestServer extends RunningServer {
  dataDir: string;
}

export interface TestServerOptions {
  /** The clock sessions are judged by (see server/test/clock.ts). */
  sessionClock?: () => Date;
  /** The clock uploads are created and expire by. */
  uploadClock?: () => Date;
  /** The clock the public API's sends take their Indian day from. */
  apiClock?: () => Date;
}

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-test-'));
  const kind = testDatabaseKind();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    // Statuses come back within milliseconds, and sandbox numbers send fast, so tests stay quick.
    SIMULATOR_SENT_MS: '5',
    SIMULATOR_DELIVERED_MS: '15',
    SIMULATOR_READ_MS: '30',
    SIMULATOR_REVIEW_MS: '20',
    SANDBOX_MESSAGES_PER_SECOND: '500',
    // No test reaches Meta or a channel provider: a test that needs one points these at its stand-in.
    WHATSAPP_API_BASE: 'http://127.0.0.1:9',
    CHANNEL_API_BASE: 'http://127.0.0.1:9',
    // Tests run the daily cleanup with their own clock; a real 02:00 tick must not delete their rows.
    LOG_CLEANUP_ENABLED: 'false',
    ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', DATABASE_SCHEMA: schema, DATABASE_POOL_MAX: '5' } : {}),
    ...env,
  });
  const running = await startServer(config, options);
  return {
    ...running,
    dataDir,
    async close() {
      await running.close();
      if (kind === 'postgres') await dropTestSchemas(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
