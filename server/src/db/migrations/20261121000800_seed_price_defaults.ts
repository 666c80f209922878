import type { Knex } from 'knex';

/** The specification's defaults: marketing 0.80, utility 0.15, authentication 0.15 (units of 1/10000 rupee). */
export async function up(knex: Knex): Promise<void> {
  const existing = await knex('price_defaults').where({ id: 1 }).first();
  if (existing) return;
  await knex('price_defaults').insert({ id: 1, marketingUnits: 8000, utilityUnits: 1500, authenticationUnits: 1500 });
}

export async function down(knex: Knex): Promise<void> {
  await knex('price_defaults').where({ id: 1 }).delete();
}
