import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/** A send: one template to many recipients, priced and charged once at acceptance. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('RESTRICT');
    table.integer('template_id').nullable().references('id').inTable('templates').onDelete('SET NULL');
    table.integer('sender_number_id').notNullable().references('id').inTable('whatsapp_numbers').onDelete('RESTRICT');
    table.string('name', 200).notNullable();
    table.string('source', 20).notNullable();
    // Kept on the campaign so reports and refunds stay right if the template changes later.
    table.string('template_name', 60).notNullable();
    table.string('template_language', 10).notNullable();
    table.string('category', 20).notNullable();
    table.bigInteger('price_units').notNullable();
    table.string('status', 20).notNullable().defaultTo('running');
    table.integer('total_recipients').notNullable();
    table.integer('billable_count').notNullable();
    table.integer('duplicate_count').notNullable().defaultTo(0);
    table.integer('invalid_count').notNullable().defaultTo(0);
    table.integer('suppressed_count').notNullable().defaultTo(0);
    table.bigInteger('total_cost_units').notNullable();
    createdUpdated(table);
    timestamp(table, 'completed_at').nullable();
    table.index(['user_id', 'created_at'], 'campaigns_user_index');
    table.index(['status'], 'campaigns_status_index');
    table.check("source in ('quick', 'bulk', 'custom', 'api')", [], 'campaigns_source_valid');
    table.check("status in ('running', 'paused', 'cancelled', 'completed')", [], 'campaigns_status_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('campaigns');
}
