import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * PostgreSQL: the guard of a send accepted as one statement (sending/duplicateLocks.ts). The
 * statement reads what blocks its messages beforehand, without locks; the guard runs first in its
 * write, takes the send's locks, and looks again for the messages it is about to queue. Being
 * volatile, its query takes a snapshot of its own after the locks are held, so it sees a send of
 * the same messages that committed after the read, or that it waited for. Found, it refuses the
 * statement (SQLSTATE SD409), and the send is accepted again under the locks in a transaction.
 * The look is the Duplicate Blocked probe's (campaignAcceptance.ts, `PG_PROBE_SQL`), without the
 * statement's own campaign.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw(`create function accept_messages_guard(
      lock_classes integer[], lock_ids integer[], lock_shared boolean[],
      p_user integer, p_template integer, p_campaign bigint, p_recipients text[], p_keys text[], p_since timestamptz)
    returns boolean language plpgsql volatile as $$
    begin
      perform count(case when l.shared then pg_advisory_xact_lock_shared(l.class, l.id) else pg_advisory_xact_lock(l.class, l.id) end)
        from unnest(lock_classes, lock_ids, lock_shared) as l(class, id, shared);
      if exists (
          select 1 from unnest(p_recipients, p_keys) as k(recipient, key)
            cross join lateral (select 1 from messages m
              where m.user_id = (select p_user) and m.recipient = k.recipient and m.dedupe_key = k.key and m.campaign_id <> p_campaign
                and (m.created_at >= p_since and m.status in ('queued', 'sending', 'unknown', 'sent', 'delivered', 'read')) is true
              limit 1) as found)
        or exists (
          select 1 from campaign_recipients r
            where r.campaign_id in (select c.id from campaigns c where c.user_id = p_user and c.template_id = p_template and c.staged_recipients > 0)
              and r.status_code = 0 and r.dedupe_key = any(p_keys))
      then
        raise exception using errcode = 'SD409', message = 'a message of this send was accepted by another send after it was read';
      end if;
      return true;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop function accept_messages_guard(integer[], integer[], boolean[], integer, integer, bigint, text[], text[], timestamptz)');
}
