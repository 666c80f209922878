import type { Role } from '@shared/constants';
import { BaseModel } from './BaseModel';

export class User extends BaseModel {
  static override tableName = 'users';
  static override timestampAttributes = ['createdAt', 'updatedAt', 'deletedAt', 'onboardingDismissedAt'] as const;
  static override booleanAttributes = ['isActive'] as const;

  id!: number;
  name!: string;
  email!: string;
  username!: string;
  usernameKey!: string | null;
  emailKey!: string | null;
  role!: Role;
  phoneNumber!: string | null;
  passwordHash!: string;
  /** Integer credit units (1/10000 rupee). */
  creditBalance!: number;
  isActive!: boolean;
  pricingMode!: 'default' | 'custom';
  /** Printed on top-up receipts when set (profile). */
  businessName!: string | null;
  /** Upper case, validated by the profile schema. */
  gstin!: string | null;
  billingAddress!: string | null;
  billingState!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
  deletedAt!: Date | null;
  /** When the dashboard's getting-started checklist was dismissed. */
  onboardingDismissedAt!: Date | null;

  get isAdmin(): boolean {
    return this.role === 'admin';
  }
}

/** The key that carries username uniqueness. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}
