import { BaseModel } from './BaseModel';

/** A key of the public send API. Only its SHA-256 is stored; see services/apiKeys.ts. */
export class ApiKey extends BaseModel {
  static override tableName = 'api_keys';
  static override timestampAttributes = ['lastUsedAt', 'revokedAt', 'createdAt'] as const;

  id!: number;
  userId!: number;
  name!: string;
  prefix!: string;
  keyHash!: string;
  /** Requests per 15 minutes for this key; null = the platform's per-IP default. */
  rateLimitPer15Min!: number | null;
  lastUsedAt!: Date | null;
  revokedAt!: Date | null;
  createdAt!: Date;
}
