import { BaseModel } from './BaseModel';

export class PasswordReset extends BaseModel {
  static override tableName = 'password_resets';
  static override timestampAttributes = ['createdAt', 'expiresAt', 'verifiedAt', 'resetExpiresAt', 'usedAt'] as const;

  id!: number;
  userId!: number;
  codeHash!: string;
  phone!: string;
  attempts!: number;
  createdAt!: Date;
  expiresAt!: Date;
  verifiedAt!: Date | null;
  resetTokenHash!: string | null;
  resetExpiresAt!: Date | null;
  usedAt!: Date | null;
}
