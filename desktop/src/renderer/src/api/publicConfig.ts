import type { TPublicConfig } from '@shared/types';
import { apiGet } from './client';

export const publicConfigApi = {
  get: () => apiGet<TPublicConfig>('/api/public-config', { skipUnauthorizedHandler: true }),
};

export const publicConfigKey = ['public-config'] as const;
