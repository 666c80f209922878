import { unitsToRupees } from '@shared/money';
import type { TAdminUser, TUser } from '@shared/types';
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
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export function presentAdminUser(user: User): TAdminUser {
  return {
    ...presentUser(user),
    // Provider configuration (business info) arrives with the sending engine.
    isConfigured: false,
    businessInfo: null,
  };
}
