import type {
  TChangePasswordRequest,
  TForgotPasswordRequest,
  TLoginRequest,
  TResetPasswordRequest,
  TSignupRequest,
  TUpdateProfileRequest,
  TVerifyOtpRequest,
} from '@shared/schemas/auth';
import type {
  TForgotPasswordResponse,
  TLoginResponse,
  TMeResponse,
  TSessionResponse,
  TUser,
  TVerifyOtpResponse,
} from '@shared/types';
import { apiGet, apiPost, apiPut } from './client';

export interface TSignupResponse {
  success: true;
  message: string;
  user: TUser;
}

export interface TResetPasswordResponse {
  success: true;
  message: string;
}

export interface TUpdateProfileResponse {
  success: true;
  message: string;
  user: TUser;
}

/** Answers of the public auth calls are expected failures: a 401 there is not a lost session. */
const expectedFailure = { skipUnauthorizedHandler: true } as const;

export const authApi = {
  login: (body: TLoginRequest) => apiPost<TLoginResponse>('/api/auth/login', body, expectedFailure),

  logout: () => apiPost<{ success: true }>('/api/auth/logout', undefined, expectedFailure),

  /**
   * The signed-in user. `fresh` defeats caches for balance refreshes. Does not extend the
   * session on the server. `quiet` leaves 401 handling to the caller.
   */
  me: (options: { fresh?: boolean; quiet?: boolean } = {}) =>
    apiGet<TMeResponse>('/api/auth/me', {
      params: options.fresh ? { t: Date.now() } : undefined,
      headers: options.fresh ? { 'Cache-Control': 'no-cache', Pragma: 'no-cache' } : undefined,
      skipUnauthorizedHandler: options.quiet ?? false,
    }),

  /** Who is signed in: `user: null` for a visitor (a 200, so start-up logs no failed request). */
  session: () => apiGet<TSessionResponse>('/api/auth/session', expectedFailure),

  signup: (body: TSignupRequest) => apiPost<TSignupResponse>('/api/auth/signup', body, expectedFailure),

  forgotPassword: (body: TForgotPasswordRequest) =>
    apiPost<TForgotPasswordResponse>('/api/auth/forgot-password', body, expectedFailure),

  /** The user's own password; the current one is checked, other sessions end. A wrong current password is a 400. */
  changePassword: (body: TChangePasswordRequest) => apiPost<{ success: true; message: string }>('/api/auth/change-password', body),

  verifyOtp: (body: TVerifyOtpRequest) => apiPost<TVerifyOtpResponse>('/api/auth/verify-otp', body, expectedFailure),

  resetPassword: (body: TResetPasswordRequest) =>
    apiPost<TResetPasswordResponse>('/api/auth/reset-password', body, expectedFailure),

  resetActivity: () => apiPost<{ success: true }>('/api/auth/reset-activity'),

  updateProfile: (body: TUpdateProfileRequest) => apiPut<TUpdateProfileResponse>('/api/auth/update-profile', body),
};
