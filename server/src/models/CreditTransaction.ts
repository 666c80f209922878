import { BaseModel } from './BaseModel';

export class CreditTransaction extends BaseModel {
  static override tableName = 'credit_transactions';
  static override timestampAttributes = ['createdAt'] as const;

  id!: number;
  userId!: number;
  type!: string;
  /** Signed credit units. */
  amount!: number;
  balanceAfter!: number;
  description!: string;
  templateName!: string | null;
  templateCategory!: string | null;
  referenceType!: string | null;
  referenceId!: string | null;
  idempotencyKey!: string;
  actorUserId!: number | null;
  createdAt!: Date;
}
