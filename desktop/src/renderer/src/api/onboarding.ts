import type { TOnboardingResponse } from '@shared/types';
import { apiGet, apiPost } from './client';

/** The dashboard's getting-started checklist. */
export const onboardingApi = {
  get: () => apiGet<TOnboardingResponse>('/api/onboarding'),
  dismiss: () => apiPost<TOnboardingResponse>('/api/onboarding/dismiss'),
};

export const onboardingKeys = { all: ['onboarding'] as const };
