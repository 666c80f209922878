import { unitsToRupees } from '@shared/money';
import type { TAdminUser, TBusinessInfoSummary, TUser } from '@shared/types';
import type { User } from '../models';
import type { AuthContext } from '../types';

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

/**
 * The person signed in, with the wallet balance of the account they act in and that account
 * (its id, name and their role there), so the header shows what the member spends from.
 */
export function presentSignedIn(auth: AuthContext): TUser {
  const account = auth.user;
  return {
    ...presentUser(auth.actor),
    creditBalance: unitsToRupees(account.creditBalance),
    account: { id: account.id, name: account.businessName || account.name, role: auth.accountRole },
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
