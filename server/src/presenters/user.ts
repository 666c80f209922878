import { unitsToRupees } from '@shared/money';
import type { TAdminUser, TBusinessInfoSummary, TUser } from '@shared/types';
import type { User } from '../models';

export function presentUser(user: User): TUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username,
    role: user.role,
    phoneNumber: user.phoneNumber,
    creditBalance: unitsToRupees(user.creditBalance),
    businessName: user.businessName ?? null,
    gstin: user.gstin ?? null,
    billingAddress: user.billingAddress ?? null,
    billingState: user.billingState ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** A user of the admin list: Configured when business info exists for them (spec 001). */
export function presentAdminUser(user: User, businessInfo: TBusinessInfoSummary | null = null): TAdminUser {
  return {
    ...presentUser(user),
    isConfigured: businessInfo !== null,
    businessInfo,
  };
}
