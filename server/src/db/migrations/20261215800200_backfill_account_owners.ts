import type { Knex } from 'knex';

/** Every existing user gets the account they have always had, with themselves as its owner. */
export async function up(knex: Knex): Promise<void> {
  const now = new Date().toISOString();
  await knex.raw(
    `insert into accounts (id, name, created_at) select id, name, ? from users where id not in (select id from accounts)`,
    [now],
  );
  await knex.raw(
    `insert into account_members (account_id, user_id, role, created_at)
     select id, id, 'owner', ? from users where id not in (select account_id from account_members)`,
    [now],
  );
}

/** The rows are dropped with their tables by the previous migration's down. */
export async function down(): Promise<void> {}
