/** `npm run migrate [latest|rollback|status]`: runs the migrations against the configured database. */
import { loadConfig } from '../config';
import { createDatabase } from './knex';
import { migrateToLatest, migrationSource } from './migrations';

const command = process.argv[2] ?? 'latest';
const config = loadConfig();
const db = createDatabase(config.database);
try {
  if (command === 'latest') {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date');
  } else if (command === 'rollback') {
    const [, rolledBack] = (await db.migrate.rollback({ migrationSource })) as [number, string[]];
    console.log(rolledBack.length ? `Rolled back: ${rolledBack.join(', ')}` : 'Nothing to roll back');
  } else if (command === 'status') {
    const [done, pending] = (await db.migrate.list({ migrationSource })) as [{ name: string }[], string[]];
    console.log(`Applied ${done.length}, pending ${pending.length}${pending.length ? `: ${pending.join(', ')}` : ''}`);
  } else {
    console.error(`Unknown command "${command}". Use latest, rollback or status.`);
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
