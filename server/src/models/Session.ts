import { BaseModel } from './BaseModel';

export type SessionKind = 'web' | 'desktop';

export class Session extends BaseModel {
  static override tableName = 'sessions';
  static override timestampAttributes = ['createdAt', 'lastActivityAt', 'expiresAt'] as const;

  id!: number;
  userId!: number;
  tokenHash!: string;
  kind!: SessionKind;
  createdAt!: Date;
  lastActivityAt!: Date;
  expiresAt!: Date;
  ip!: string | null;
  userAgent!: string | null;
  /** The account the session acts in; null: the person's own. */
  accountId!: number | null;
}
