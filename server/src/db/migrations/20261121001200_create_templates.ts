import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/** Message templates: owned by a user, unique by name and language for that user. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('templates', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('name', 60).notNullable();
    table.string('language', 10).notNullable();
    table.string('category', 20).notNullable();
    table.string('status', 20).notNullable().defaultTo('DRAFT');
    table.string('header_type', 10).notNullable().defaultTo('none');
    // WhatsApp Cloud API component shapes, as JSON text (portable across both databases).
    table.text('components').notNullable();
    table.text('variable_examples').notNullable().defaultTo('{}');
    table.string('header_media_path', 255).nullable();
    table.string('header_media_mime', 100).nullable();
    table.string('header_media_name', 255).nullable();
    table.integer('header_media_size').nullable();
    table.string('rejection_reason', 500).nullable();
    table.string('quality_rating', 20).nullable();
    table.string('provider_template_id', 100).nullable();
    timestamp(table, 'submitted_at').nullable();
    timestamp(table, 'reviewed_at').nullable();
    table.integer('reviewed_by').nullable();
    createdUpdated(table);
    table.unique(['user_id', 'name', 'language'], { indexName: 'templates_user_name_language_unique' });
    table.index(['user_id', 'status'], 'templates_user_status_index');
    table.index(['status'], 'templates_status_index');
    table.check("category in ('MARKETING', 'UTILITY', 'AUTHENTICATION')", [], 'templates_category_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('templates');
}
