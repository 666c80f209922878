import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * PostgreSQL: each staged recipient takes its message's id when acceptance writes it (the COPY
 * fills the default in the file's order), so the materialiser can write several chunks of one
 * campaign side by side and the ids still follow the file's order, the order reports list a
 * campaign's messages in. An id taken at acceptance is kept with the row, so a crash between
 * acceptance and the chunk loses nothing. Rows staged before this migration take theirs here, in
 * order. SQLite's one writer writes a chunk at a time and numbers rows as it inserts them.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('alter table campaign_recipients add column message_id bigint');
  await knex.raw(`update campaign_recipients r set message_id = numbered.id
    from (select campaign_id, position, nextval('messages_id_seq') as id
            from (select campaign_id, position from campaign_recipients order by campaign_id, position) ordered) numbered
   where r.campaign_id = numbered.campaign_id and r.position = numbered.position`);
  await knex.raw("alter table campaign_recipients alter column message_id set default nextval('messages_id_seq')");
  await knex.raw('alter table campaign_recipients alter column message_id set not null');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('alter table campaign_recipients drop column message_id');
}
