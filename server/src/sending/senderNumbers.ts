import type { Knex } from 'knex';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';

/** A sender number as the sending rules use it: booleans as booleans. */
export interface SenderNumber extends Omit<WhatsappNumberRow, 'isSandbox' | 'isActive' | 'createdAt' | 'updatedAt'> {
  isSandbox: boolean;
  isActive: boolean;
}

/** SQLite answers booleans as 0/1. */
function toSenderNumber(row: WhatsappNumberRow): SenderNumber {
  return { ...row, isSandbox: Boolean(row.isSandbox), isActive: Boolean(row.isActive) };
}

/**
 * Sender numbers. In the embedded default every user gets a sandbox number on the simulator,
 * so a new user can send at once (docs/decisions/2026-11-21-sending-rules.md); production can switch the sandbox off.
 */
export class SenderNumberService {
  constructor(private readonly deps: { db: Knex; sandboxMessagesPerSecond: number }) {}

  async listForUser(userId: number): Promise<SenderNumber[]> {
    const rows = (await this.deps.db('whatsapp_numbers').where({ userId, isActive: true }).orderBy('id')) as WhatsappNumberRow[];
    return rows.map(toSenderNumber);
  }

  /** The user's sandbox number on the simulator, created on first use. */
  async ensureSandbox(userId: number): Promise<SenderNumber> {
    const phoneNumberId = `sandbox-${userId}`;
    const find = async () => {
      const row = (await this.deps.db('whatsapp_numbers').where({ provider: 'simulator', phoneNumberId }).first()) as WhatsappNumberRow | undefined;
      return row ? toSenderNumber(row) : undefined;
    };
    const existing = await find();
    if (existing) return existing;
    const now = new Date().toISOString();
    await this.deps.db('whatsapp_numbers')
      .insert({
        userId,
        provider: 'simulator',
        phoneNumberId,
        displayNumber: `1555${String(userId).padStart(7, '0')}`,
        label: 'Sandbox number (simulator)',
        messagesPerSecond: this.deps.sandboxMessagesPerSecond,
        isSandbox: true,
        isActive: true,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict(['provider', 'phoneNumberId'])
      .ignore();
    return (await find()) as SenderNumber;
  }
}
