import type { Knex } from 'knex';

/**
 * Per-day message figures that outlive the message logs. The daily cleanup adds each batch's
 * counts here in the same transaction that deletes the rows, so the dashboards, the admin usage
 * and a campaign's totals stay true after its old messages are gone. No foreign key to campaigns:
 * these rows are kept when the campaign itself is deleted.
 *
 * `day` is the Indian calendar day (the product's time zone) of the message's creation for
 * `status:*`, `cancelled` and `campaign:billable`, and of the event itself for `event:*`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('message_daily_totals', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable();
    table.integer('campaign_id').notNullable();
    table.string('day', 10).notNullable();
    table.string('metric', 32).notNullable();
    table.bigInteger('count').notNullable().defaultTo(0);
    table.unique(['campaign_id', 'day', 'metric'], { indexName: 'message_daily_totals_key' });
    table.index(['user_id', 'day'], 'message_daily_totals_user_day_index');
    table.index(['day'], 'message_daily_totals_day_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_daily_totals');
}
