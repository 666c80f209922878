import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Resumable uploads: one row per upload, its declared size and SHA-256, the part size
 * chosen for it, and when it expires. The parts themselves are files under
 * `DATA_DIR/uploads/<id>/`; the row says what the file must be, the folder what has arrived.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (table) => {
    table.string('id', 36).primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('filename', 255).notNullable();
    table.bigInteger('size').notNullable();
    table.string('sha256', 64).notNullable();
    table.integer('part_size').notNullable();
    table.integer('part_count').notNullable();
    table.string('status', 12).notNullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'completed_at').nullable();
    // The quota adds up one user's unexpired uploads.
    table.index(['user_id', 'expires_at'], 'uploads_user_expires_index');
    // The sweep finds expired uploads.
    table.index(['expires_at'], 'uploads_expires_index');
    table.check("status in ('receiving', 'complete')", [], 'uploads_status_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('uploads');
}
