import type { Knex } from 'knex';

/**
 * How an invitation reached the person: sent by the platform's WhatsApp number, or a link the
 * owner shares (e-mail invitations: the product sends no e-mail). Invitations made before this
 * column were all links to share.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_invites', (table) => {
    table.string('delivery', 20).notNullable().defaultTo('link_only');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_invites', (table) => {
    table.dropColumn('delivery');
  });
}
