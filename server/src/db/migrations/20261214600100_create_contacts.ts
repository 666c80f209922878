import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/** Attribute columns of each type (a definition in `contact_attributes` names its slot). */
const TEXT_SLOTS = 20;
const NUMBER_SLOTS = 10;
const DATE_SLOTS = 10;

/**
 * The owner's contact book: one row per owner and number (the one phone rule, digits with the
 * country code). Opt-in is recorded here; opt-out is not: it is the `suppressions` row of the same
 * owner and number, read by joining, so the two can never disagree. The counts and the last
 * message and reply times are caches the sending and reply paths keep.
 *
 * Attributes live in typed slot columns of the row (`text_1`, `number_1`, `date_1`, ...), the
 * owner's definitions saying which attribute each slot holds
 * (docs/decisions/2026-12-07-contacts-and-segments.md): a segment over a million contacts is then
 * one pass over one table, not an intersection of per-attribute id sets, and an import writes one
 * row per contact. Dates are `YYYY-MM-DD` text, which sorts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contacts', (table) => {
    table.bigIncrements('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('phone', 15).notNullable();
    table.string('name', 200).nullable();
    table.string('opt_in_source', 100).nullable();
    timestamp(table, 'opt_in_at').nullable();
    table.string('opt_in_evidence', 1000).nullable();
    timestamp(table, 'last_message_at').nullable();
    // The latest incoming reply: what "replied within N days" reads (replies are not otherwise kept).
    timestamp(table, 'last_replied_at').nullable();
    table.integer('sent_count').notNullable().defaultTo(0);
    table.integer('delivered_count').notNullable().defaultTo(0);
    table.integer('read_count').notNullable().defaultTo(0);
    table.integer('replied_count').notNullable().defaultTo(0);
    for (let slot = 1; slot <= TEXT_SLOTS; slot += 1) table.string(`text_${slot}`, 500).nullable();
    for (let slot = 1; slot <= NUMBER_SLOTS; slot += 1) table.double(`number_${slot}`).nullable();
    for (let slot = 1; slot <= DATE_SLOTS; slot += 1) table.string(`date_${slot}`, 10).nullable();
    createdUpdated(table);
    table.unique(['user_id', 'phone'], { indexName: 'contacts_user_phone_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contacts');
}
