import type { Knex } from 'knex';

/**
 * Attribute values, one narrow row per contact and attribute
 * (docs/decisions/2026-12-07-contacts-and-segments.md). A segment's condition on an attribute
 * reads one range of `(attribute_id, value)` (the attribute belongs to one owner, so the owner
 * needs no column here) and answers contact ids, which the segment intersects; numbers also keep
 * `number_value` so that before/after compare numerically. Dates are stored as `YYYY-MM-DD`, which
 * sorts as text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_attribute_values', (table) => {
    table.bigInteger('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE');
    table.integer('attribute_id').notNullable().references('id').inTable('contact_attributes').onDelete('CASCADE');
    table.string('value', 500).notNullable();
    table.double('number_value').nullable();
    table.primary(['contact_id', 'attribute_id']);
    table.index(['attribute_id', 'value', 'contact_id'], 'contact_attribute_values_attribute_value_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contact_attribute_values');
}
