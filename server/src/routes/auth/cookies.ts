import type { Context } from 'koa';
import { AUTH, DEVICE_COOKIE } from '@shared/constants';
import { SESSION_COOKIE } from '../../middleware/auth';

export const RESET_COOKIE = 'sandesh_reset';

export interface CookieSettings {
  secure: boolean;
  maxAgeHours: number;
}

function baseOptions(ctx: Context, settings: CookieSettings) {
  // With COOKIE_SECURE on behind a TLS-terminating proxy the hop to us is plain HTTP; the
  // configuration is the authority on whether the browser's connection is secure.
  if (settings.secure) ctx.cookies.secure = true;
  return { httpOnly: true, sameSite: 'lax' as const, secure: settings.secure, overwrite: true };
}

export function setSessionCookie(ctx: Context, token: string, settings: CookieSettings): void {
  ctx.cookies.set(SESSION_COOKIE, token, { ...baseOptions(ctx, settings), path: '/', maxAge: settings.maxAgeHours * 3_600_000 });
}

export function clearSessionCookie(ctx: Context, settings: CookieSettings): void {
  ctx.cookies.set(SESSION_COOKIE, '', { ...baseOptions(ctx, settings), path: '/', maxAge: 0 });
}

export function setResetCookie(ctx: Context, token: string, settings: CookieSettings): void {
  ctx.cookies.set(RESET_COOKIE, token, { ...baseOptions(ctx, settings), path: '/api/auth', maxAge: AUTH.resetWindowMinutes * 60_000 });
}

export function clearResetCookie(ctx: Context, settings: CookieSettings): void {
  ctx.cookies.set(RESET_COOKIE, '', { ...baseOptions(ctx, settings), path: '/api/auth', maxAge: 0 });
}

/** Browsers cap a cookie's lifetime at 400 days; each sign-in renews it. */
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 86_400_000;

/**
 * The browser's device id: read only by sign-in, so it travels only to /api/auth, and
 * logout leaves it (the browser stays a known device).
 */
export function setDeviceCookie(ctx: Context, deviceId: string, settings: CookieSettings): void {
  ctx.cookies.set(DEVICE_COOKIE, deviceId, { ...baseOptions(ctx, settings), path: '/api/auth', maxAge: DEVICE_COOKIE_MAX_AGE_MS });
}
