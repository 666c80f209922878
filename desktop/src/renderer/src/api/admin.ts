import type {
  TAdminChangePasswordRequest,
  TCreateUserRequest,
  TCreditAdjustmentRequest,
  THeldRefundsResponse,
  TReleaseHeldRefundsResponse,
  TUpdateUserRequest,
} from '@shared/schemas/admin';
import type { TAdminStats, TAdminUser, TAdminUserDetails, TCreditAdjustmentResponse, TUser } from '@shared/types';
import { apiDelete, apiGet, apiPost, apiPut } from './client';

export interface TAdminUsersResponse {
  success: true;
  users: TAdminUser[];
}

export interface TAdminStatsResponse {
  success: true;
  stats: TAdminStats;
}

export interface TCreateUserResponse {
  success: true;
  message: string;
  user: TUser | TAdminUser;
}

export interface TDeleteUserResponse {
  success: true;
  message: string;
}

export interface TUpdateUserResponse {
  success: true;
  message: string;
  user: TAdminUser;
}

export interface TAdminChangePasswordResponse {
  success: true;
  message: string;
  user: { name: string };
}

/** GET /api/admin/settings: what /admin/settings shows read-only (docs/decisions/2026-11-24-routes.md). */
export interface TPlatformSettings {
  /** Digits with country code: the sender of password-reset codes (PLATFORM_WHATSAPP_NUMBER). */
  platformWhatsappNumber: string;
  logRetentionDays: number;
  cleanupSchedule: string;
  payments: { enabled: boolean; sandbox: boolean };
}

export interface TPlatformSettingsResponse {
  success: true;
  settings: TPlatformSettings;
}

export const adminApi = {
  users: () => apiGet<TAdminUsersResponse>('/api/admin/users'),
  stats: () => apiGet<TAdminStatsResponse>('/api/admin/stats'),
  createUser: (body: TCreateUserRequest) => apiPost<TCreateUserResponse>('/api/admin/users', body),
  /** `confirmBalance`: the wallet balance in rupees the admin was shown, required when it is not zero. */
  deleteUser: (id: number, confirmBalance?: number) =>
    apiDelete<TDeleteUserResponse>(`/api/admin/users/${id}`, confirmBalance ? { params: { confirm_balance: confirmBalance.toFixed(2) } } : undefined),
  userDetails: (id: number) => apiGet<TAdminUserDetails>(`/api/admin/users/${id}/details`),
  updateUser: (id: number, body: TUpdateUserRequest) => apiPut<TUpdateUserResponse>(`/api/admin/users/${id}`, body),
  /** The race-free adjustment: the server adds or deducts, so two admins never overwrite each other. */
  adjustCredits: (id: number, body: TCreditAdjustmentRequest, idempotencyKey: string) =>
    apiPost<TCreditAdjustmentResponse>(`/api/admin/users/${id}/credits`, body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  changePassword: (id: number, body: TAdminChangePasswordRequest) =>
    apiPost<TAdminChangePasswordResponse>(`/api/admin/users/${id}/change-password`, body),
  settings: () => apiGet<TPlatformSettingsResponse>('/api/admin/settings'),
  /** Refunds of failures reported only under the user's own app secret. */
  heldRefunds: (id: number) => apiGet<THeldRefundsResponse>(`/api/admin/users/${id}/held-refunds`),
  /** Releases every held refund of the user (the server pays each one once). */
  releaseHeldRefunds: (id: number) => apiPost<TReleaseHeldRefundsResponse>(`/api/admin/users/${id}/held-refunds/release`, {}),
};

/** Query keys of the admin area, so that pages sharing data share the cache. */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  stats: ['admin', 'stats'] as const,
  userDetails: (id: number) => ['admin', 'user', id, 'details'] as const,
  heldRefunds: (id: number) => ['admin', 'user', id, 'held-refunds'] as const,
  settings: ['admin', 'settings'] as const,
};
