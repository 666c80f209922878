import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * SQLite: a message deleted after it was indexed (log cleanup, a campaign's cascade) leaves the
 * search index through FTS5's 'delete' command, which needs the values it was indexed with: an
 * external-content index cannot find them itself once the row is gone, and an entry left behind
 * fails the index's integrity check. A trigger, so that no way of deleting messages can miss it;
 * messages above the progress mark were never indexed and are passed over.
 */
export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw(`create trigger messages_forget_recipient_search after delete on messages
    when old.id <= (select last_message_id from recipient_search_progress)
    begin
      insert into messages_recipient_search (messages_recipient_search, rowid, recipient) values ('delete', old.id, old.recipient);
    end`);
}

export async function down(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw('drop trigger messages_forget_recipient_search');
}
