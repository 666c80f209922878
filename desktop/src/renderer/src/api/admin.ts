import type { TCreateUserRequest } from '@shared/schemas/admin';
import type { TAdminStats, TAdminUser, TUser } from '@shared/types';
import { apiDelete, apiGet, apiPost } from './client';

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

export const adminApi = {
  users: () => apiGet<TAdminUsersResponse>('/api/admin/users'),
  stats: () => apiGet<TAdminStatsResponse>('/api/admin/stats'),
  createUser: (body: TCreateUserRequest) => apiPost<TCreateUserResponse>('/api/admin/users', body),
  deleteUser: (id: number) => apiDelete<TDeleteUserResponse>(`/api/admin/users/${id}`),
};

/** Query keys of the admin area, so that pages sharing data share the cache. */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  stats: ['admin', 'stats'] as const,
};
