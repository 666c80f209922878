/**
 * A user's Meta Cloud API business info (spec 001 §3 and §7): written by admins, secrets sealed
 * and write-only, the user's Cloud API sender number kept in step in the same transaction.
 */
import type { Knex } from 'knex';
import type { TBusinessInfoInput } from '@shared/schemas/providers';
import type { AuditService } from '../audit/service';
import { forUpdateIfSupported } from '../db/dialect';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import { toDate } from '../models';
import type { SecretBox } from '../security/secretBox';
import { syncSenderNumbers } from './numberSync';
import { BUSINESS_SECRET_FIELDS, secretContext, type SecretColumn } from './secrets';
import { assertUser, lockUser, uniqueIdsOrConflict } from './userGuards';

/** Business info without its secrets: only whether each one is stored. */
export interface BusinessInfoRecord {
  id: number;
  userId: number;
  businessName: string | null;
  whatsappNumber: string | null;
  whatsappNumberId: string | null;
  wabaId: string | null;
  webhookUrl: string | null;
  isActive: boolean;
  accessTokenSet: boolean;
  webhookVerifyTokenSet: boolean;
  appSecretSet: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface BusinessInfoSummaryRecord {
  businessName: string | null;
  whatsappNumber: string | null;
  isActive: boolean;
}

type PlainField = 'businessName' | 'whatsappNumber' | 'whatsappNumberId' | 'wabaId' | 'webhookUrl';
const PLAIN_FIELDS: readonly PlainField[] = ['businessName', 'whatsappNumber', 'whatsappNumberId', 'wabaId', 'webhookUrl'];

function toRecord(row: BusinessInfoRow): BusinessInfoRecord {
  return {
    id: row.id,
    userId: row.userId,
    businessName: row.businessName,
    whatsappNumber: row.whatsappNumber,
    whatsappNumberId: row.whatsappNumberId,
    wabaId: row.wabaId,
    webhookUrl: row.webhookUrl,
    isActive: Boolean(row.isActive),
    accessTokenSet: row.accessTokenEncrypted !== null,
    webhookVerifyTokenSet: row.webhookVerifyTokenEncrypted !== null,
    appSecretSet: row.appSecretEncrypted !== null,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

export class BusinessInfoService {
  constructor(private readonly deps: { db: Knex; secretBox: SecretBox; audit: AuditService }) {}

  async get(userId: number): Promise<BusinessInfoRecord | null> {
    await assertUser(this.deps.db, userId);
    const row = (await this.deps.db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    return row ? toRecord(row) : null;
  }

  /**
   * Creates or updates a user's business info. Plain fields: absent keeps, null clears. Secrets
   * are write-only: absent keeps the stored one. The user's sender numbers follow in the same
   * transaction; the audit row names what changed, never a secret's value.
   */
  async put(admin: { id: number }, userId: number, input: TBusinessInfoInput, ip: string | null = null): Promise<BusinessInfoRecord> {
    const record = await uniqueIdsOrConflict(() => this.write(admin, userId, input, ip));
    await this.onSaved?.(userId);
    return record;
  }

  /**
   * Told after a user's business settings were saved (new credentials): their numbers Meta had
   * stopped try again (sending/senderHealth.ts). Must not throw.
   */
  onSaved: ((userId: number) => Promise<void>) | null = null;

  private async write(admin: { id: number }, userId: number, input: TBusinessInfoInput, ip: string | null): Promise<BusinessInfoRecord> {
    const row = await this.deps.db.transaction(async (trx) => {
      await lockUser(trx, userId);
      const existing = (await forUpdateIfSupported(trx('business_infos').where({ userId }), trx).first()) as BusinessInfoRow | undefined;
      const changes: Partial<Record<PlainField | SecretColumn | 'isActive', string | boolean | null>> = {};
      const fields: string[] = [];
      for (const field of PLAIN_FIELDS) {
        const value = input[field];
        if (value === undefined || (existing?.[field] ?? null) === value) continue;
        changes[field] = value;
        fields.push(field);
      }
      if (input.isActive !== undefined && (existing ? Boolean(existing.isActive) : true) !== input.isActive) {
        changes.isActive = input.isActive;
        fields.push('isActive');
      }
      const secrets: string[] = [];
      for (const [field, column] of BUSINESS_SECRET_FIELDS) {
        const value = input[field];
        if (value === undefined) continue;
        changes[column] = this.deps.secretBox.seal(value, secretContext(column, userId));
        secrets.push(field);
      }

      const now = new Date().toISOString();
      if (!existing) {
        await trx('business_infos').insert({
          userId,
          businessName: null,
          whatsappNumber: null,
          whatsappNumberId: null,
          wabaId: null,
          accessTokenEncrypted: null,
          webhookVerifyTokenEncrypted: null,
          appSecretEncrypted: null,
          webhookUrl: null,
          isActive: true,
          ...changes,
          createdAt: now,
          updatedAt: now,
        });
      } else if (Object.keys(changes).length > 0) {
        await trx('business_infos').where({ userId }).update({ ...changes, updatedAt: now });
      }
      if (!existing || Object.keys(changes).length > 0) {
        await syncSenderNumbers(trx, userId, now);
        await this.deps.audit.record(
          {
            actorUserId: admin.id,
            action: existing ? 'business_info.update' : 'business_info.create',
            targetType: 'user',
            targetId: userId,
            details: { fields, secretsReplaced: secrets },
            ip,
          },
          trx,
        );
      }
      return (await trx('business_infos').where({ userId }).first()) as BusinessInfoRow;
    });
    return toRecord(row);
  }

  /** Spec 001: a user is Configured when business info exists for them. */
  async isConfigured(userId: number): Promise<boolean> {
    const row = (await this.deps.db('business_infos').where({ userId }).first('id')) as Pick<BusinessInfoRow, 'id'> | undefined;
    return row !== undefined;
  }

  /** Users (not deleted) with business info: the dashboard's Configured Users. */
  async configuredUserIds(): Promise<Set<number>> {
    const rows = (await this.deps
      .db('business_infos')
      .join('users', 'users.id', 'business_infos.userId')
      .whereNull('users.deletedAt')
      .select('business_infos.userId as userId')) as Pick<BusinessInfoRow, 'userId'>[];
    return new Set(rows.map((row) => row.userId));
  }

  /** The list's Configured column for every user at once (one query rather than one per user). */
  async summaries(): Promise<Map<number, BusinessInfoSummaryRecord>> {
    const rows = (await this.deps.db('business_infos').select('userId', 'businessName', 'whatsappNumber', 'isActive')) as Pick<
      BusinessInfoRow,
      'userId' | 'businessName' | 'whatsappNumber' | 'isActive'
    >[];
    return new Map(rows.map((row) => [row.userId, { businessName: row.businessName, whatsappNumber: row.whatsappNumber, isActive: Boolean(row.isActive) }]));
  }

  async summaryFor(userId: number): Promise<BusinessInfoSummaryRecord | null> {
    const row = (await this.deps.db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    return row ? { businessName: row.businessName, whatsappNumber: row.whatsappNumber, isActive: Boolean(row.isActive) } : null;
  }
}
