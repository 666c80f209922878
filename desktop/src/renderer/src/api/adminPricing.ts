import type { TPriceDefaultsRequest, TUserPricingRequest } from '@shared/schemas/pricing';
import type { TPriceDefaultsResponse, TPricingStats, TUserPricingResponse } from '@shared/types';
import { apiGet, apiPut } from './client';

export interface TPricingStatsResponse {
  success: true;
  stats: TPricingStats;
}

/** Pricing calls of the admin area (spec 001 §7, plus the stats of docs/decisions/2026-11-24-routes.md). */
export const adminPricingApi = {
  defaults: () => apiGet<TPriceDefaultsResponse>('/api/admin/pricing/defaults'),
  updateDefaults: (body: TPriceDefaultsRequest) => apiPut<TPriceDefaultsResponse>('/api/admin/pricing/defaults', body),
  userPricing: (userId: number) => apiGet<TUserPricingResponse>(`/api/admin/pricing/users/${userId}/pricing`),
  updateUserPricing: (userId: number, body: TUserPricingRequest) =>
    apiPut<TUserPricingResponse>(`/api/admin/pricing/users/${userId}/pricing`, body),
  stats: () => apiGet<TPricingStatsResponse>('/api/admin/pricing/stats'),
};

export const pricingKeys = {
  all: ['admin', 'pricing'] as const,
  defaults: ['admin', 'pricing', 'defaults'] as const,
  stats: ['admin', 'pricing', 'stats'] as const,
  users: ['admin', 'pricing', 'users'] as const,
  user: (userId: number) => ['admin', 'pricing', 'users', userId] as const,
};
