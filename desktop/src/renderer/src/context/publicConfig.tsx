import { createContext, useContext } from 'react';
import { BRAND_DEFAULT_NAME, SESSION } from '@shared/constants';
import type { TPublicConfig } from '@shared/types';

/** Used until `/api/public-config` answers, and when it cannot be reached. */
export const FALLBACK_PUBLIC_CONFIG: TPublicConfig = {
  brandName: BRAND_DEFAULT_NAME,
  support: {
    phone: '+91 40 0000 0000',
    email: 'support@sandesh.example',
    address: 'Hyderabad, Telangana, India',
  },
  environment: 'production',
  idleTimeoutSeconds: SESSION.idleTimeoutSeconds,
};

/** The app root provides the server's public configuration; pages read it with the hook. */
export const PublicConfigContext = createContext<TPublicConfig>(FALLBACK_PUBLIC_CONFIG);

export function usePublicConfig(): TPublicConfig {
  return useContext(PublicConfigContext);
}
