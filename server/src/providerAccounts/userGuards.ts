/** Checks shared by the writers of a user's provider accounts (business info, channel settings). */
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { isUniqueViolation, uniqueViolationTarget } from '../db/knex';
import { forUpdateIfSupported } from '../db/dialect';
import { ConflictError, NotFoundError } from '../errors';

export async function assertUser(db: Knex, userId: number): Promise<void> {
  const user = (await db('users').where({ id: userId }).whereNull('deletedAt').first('id')) as { id: number } | undefined;
  if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
}

/** Serialises concurrent saves for one user (PostgreSQL), so two first saves cannot both insert. */
export async function lockUser(trx: Knex.Transaction, userId: number): Promise<void> {
  const user = (await forUpdateIfSupported(trx('users').where({ id: userId }).whereNull('deletedAt'), trx).first('id')) as { id: number } | undefined;
  if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
}

/**
 * Number, business and channel ids belong to one account each (webhooks are verified with the
 * secret of the account an id names): a second account claiming one answers 409.
 */
export async function uniqueIdsOrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const target = uniqueViolationTarget(error);
    // The constraint name (PostgreSQL) or table.column (SQLite); the message also quotes the SQL.
    if (/business_infos(_|\.)waba_id/i.test(target)) throw ConflictError('waba_id_taken', messages.providers.wabaIdTaken, 'wabaId');
    if (/provider_settings(_|\.)channel/i.test(target)) throw ConflictError('channel_id_taken', messages.providers.channelIdTaken, 'channelId');
    if (/business_infos(_|\.)(whatsapp_)?number_id/i.test(target)) throw ConflictError('number_id_taken', messages.providers.numberIdTaken, 'whatsappNumberId');
    throw error;
  }
}
