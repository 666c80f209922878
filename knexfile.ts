/**
 * Knex CLI configuration: SQLite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * The server migrates itself at start (`npm run migrate` does the same by hand); both use the
 * ordered migration list in server/src/db/migrations/index.ts.
 */
import type { Knex } from 'knex';
import { loadConfig } from './server/src/config';
import { knexConfig } from './server/src/db/knex';
import { migrationSource } from './server/src/db/migrations';

const config = loadConfig();

const knexfile: Knex.Config = {
  ...knexConfig(config.database),
  migrations: { migrationSource },
};

export default knexfile;
