/**
 * Response shapes the server's presenters produce and the renderer reads. Keys follow the
 * specification exactly: they are a contract with existing clients.
 */
import type { Role } from './constants';
import type { TFieldMessage } from './schemas/common';

/** The session user (spec 000 §3), kept by the browser under the storage key `user`. */
export interface TUser {
  id: number;
  name: string;
  email: string;
  username: string;
  role: Role;
  phoneNumber: string | null;
  /** Rupees, rounded to 2 decimals. */
  creditBalance: number;
  createdAt: string;
  updatedAt: string;
}

/** A user row of the admin list: the session user plus the provider configuration summary. */
export interface TAdminUser extends TUser {
  /** True when business info exists for the user (spec 001: Configured / Not configured). */
  isConfigured: boolean;
  businessInfo: TBusinessInfoSummary | null;
}

export interface TBusinessInfoSummary {
  businessName: string | null;
  whatsappNumber: string | null;
  isActive: boolean;
}

export interface TAdminStats {
  totalUsers: number;
  regularUsers: number;
  adminUsers: number;
  configuredUsers: number;
  /** Sum of every wallet, rupees to 2 decimals. */
  totalCredits: number;
}

export interface TErrorResponse {
  error: string;
  code: string;
  field?: string;
  details?: TFieldMessage[];
}

export interface TLoginResponse {
  success: true;
  message: string;
  user: TUser;
  /** Only for desktop clients (header X-Client: desktop): the bearer token to keep. */
  token?: string;
  /** Seconds of inactivity after which the server ends the session. */
  idleTimeoutSeconds: number;
}

export interface TMeResponse {
  success: true;
  user: TUser;
  idleTimeoutSeconds: number;
}

export interface TForgotPasswordResponse {
  success: true;
  otpSent: true;
  message: string;
  /** Last four digits of the phone the code was sent to. */
  phoneLast4: string;
}

export interface TVerifyOtpResponse {
  success: true;
  resetAllowed: true;
  message: string;
  /** Only for desktop clients: proof of the verified code for the reset call. */
  resetToken?: string;
}

export interface THealthResponse {
  status: 'ok';
  version: string;
  database: { kind: 'sqlite' | 'postgresql'; version: string };
  uptimeSeconds: number;
}

/** `GET /api/public-config`: what the web app may know about the deployment. */
export interface TPublicConfig {
  brandName: string;
  support: { phone: string; email: string; address: string };
  /** `development`, `test` or `production`. */
  environment: string;
  /** Seconds of inactivity after which the server ends a session. */
  idleTimeoutSeconds: number;
}
