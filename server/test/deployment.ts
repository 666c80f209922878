/**
 * A deployment of several server instances for the scale-out and crash tests: one database (a
 * PostgreSQL schema of its own, or SQLite in the data folder), one data folder and one secrets key,
 * as instances behind a load balancer share them.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { TEST_ADMIN } from './server';

/** Drops a PostgreSQL test schema and the one pg-boss made beside it. */
export async function dropTestSchemas(schema: string): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL });
  try {
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.raw('drop schema if exists ?? cascade', [`${schema}_pgboss`]);
  } finally {
    await admin.destroy();
  }
}

export interface TestDeployment {
  database: 'postgres' | 'sqlite';
  dataDir: string;
  /** The PostgreSQL schema (unused on SQLite). */
  schema: string;
  /** What every instance of the deployment is started with; add PORT and anything of its own. */
  env: Record<string, string>;
  /** Drops the schema and removes the data folder. */
  close(): Promise<void>;
}

export function testDeployment(options: { name: string; database: 'postgres' | 'sqlite'; poolMax?: number; env?: Record<string, string> }): TestDeployment {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sandesh-${options.name}-`));
  const schema = `t_${options.name}_${randomBytes(5).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ...(options.database === 'postgres'
      ? { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', DATABASE_SCHEMA: schema, DATABASE_POOL_MAX: String(options.poolMax ?? 5) }
      : {}),
    ...options.env,
  };
  return {
    database: options.database,
    dataDir,
    schema,
    env,
    async close() {
      if (options.database === 'postgres') await dropTestSchemas(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a child-process instance needs from this process's environment besides the deployment's. */
export function childProcessEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), TMPDIR: os.tmpdir() };
}
