/**
 * A user's Cloud API and channel sender numbers follow their provider settings: written in the
 * same transaction as the settings that imply them.
 */
import type { Knex } from 'knex';
import { fillMessage, messages } from '@shared/messages';
import { isUniqueViolation } from '../db/knex';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import type { ProviderSettingsRow } from '../db/rows/providerSettings';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import { ConflictError } from '../errors';

interface WantedNumber {
  phoneNumberId: string;
  displayNumber: string;
  label: string;
}

/** Meta's default throughput for a business number. */
const DEFAULT_MESSAGES_PER_SECOND = 80;
const LABEL_MAX = 100;

/**
 * Keeps the user's Cloud API and channel sender numbers in step with their settings. A number
 * whose id changed or whose business is inactive is deactivated, never deleted: campaigns and
 * messages point at it.
 */
export async function syncSenderNumbers(trx: Knex.Transaction, userId: number, now: string): Promise<void> {
  const info = (await trx('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
  const settings = (await trx('provider_settings').where({ userId }).first()) as ProviderSettingsRow | undefined;
  const active = info ? Boolean(info.isActive) : true;
  const displayNumber = info?.whatsappNumber ?? '';
  const businessName = info?.businessName ?? null;
  const cloud: WantedNumber | null =
    info && active && info.whatsappNumberId && info.accessTokenEncrypted
      ? { phoneNumberId: info.whatsappNumberId, displayNumber, label: businessName ?? messages.providers.cloudNumberLabel }
      : null;
  const channel: WantedNumber | null =
    settings && active && settings.apiKeyEncrypted
      ? {
          phoneNumberId: settings.channelId,
          displayNumber,
          label: businessName ? fillMessage(messages.providers.channelNumberLabel, { name: businessName }) : messages.providers.channelNumberFallback,
        }
      : null;
  // Further numbers the customer connected through Embedded Signup send beside the business's own.
  const connected = active
    ? ((await trx('whatsapp_connections').where({ userId, status: 'connected', sandbox: false }).whereNotNull('whatsappNumberId').select('whatsappNumberId')) as { whatsappNumberId: number | string }[]).map((row) =>
        Number(row.whatsappNumberId),
      )
    : [];
  await reconcileNumber(trx, userId, 'cloud_api', cloud, now, new Set(connected));
  await reconcileNumber(trx, userId, 'channel', channel, now, new Set());
}

async function reconcileNumber(
  trx: Knex.Transaction,
  userId: number,
  provider: 'cloud_api' | 'channel',
  wanted: WantedNumber | null,
  now: string,
  connected: ReadonlySet<number>,
): Promise<void> {
  const taken =
    provider === 'cloud_api'
      ? ConflictError('number_id_taken', messages.providers.numberIdTaken, 'whatsappNumberId')
      : ConflictError('channel_id_taken', messages.providers.channelIdTaken, 'channelId');
  const rows = (await trx('whatsapp_numbers').where({ userId, provider })) as WhatsappNumberRow[];
  for (const row of rows) {
    if (row.phoneNumberId === wanted?.phoneNumberId) continue;
    const keep = connected.has(Number(row.id));
    if (Boolean(row.isActive) !== keep) await trx('whatsapp_numbers').where({ id: row.id }).update({ isActive: keep, updatedAt: now });
  }
  if (!wanted) return;
  const values = { displayNumber: wanted.displayNumber, label: wanted.label.slice(0, LABEL_MAX), isActive: true };
  const current = (await trx('whatsapp_numbers').where({ provider, phoneNumberId: wanted.phoneNumberId }).first()) as WhatsappNumberRow | undefined;
  if (current && current.userId !== userId) throw taken;
  if (current) {
    if (current.displayNumber !== values.displayNumber || current.label !== values.label || !current.isActive) {
      await trx('whatsapp_numbers').where({ id: current.id }).update({ ...values, updatedAt: now });
    }
    return;
  }
  try {
    await trx('whatsapp_numbers').insert({
      userId,
      provider,
      phoneNumberId: wanted.phoneNumberId,
      ...values,
      messagesPerSecond: DEFAULT_MESSAGES_PER_SECOND,
      isSandbox: false,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // Another account registered the same id at the same moment.
    if (isUniqueViolation(error)) throw taken;
    throw error;
  }
}
