import Router from '@koa/router';
import type { Context } from 'koa';
import { DESKTOP_CLIENT_HEADER, DESKTOP_CLIENT_VALUE, DEVICE_COOKIE, DEVICE_ID_HEADER, USERS } from '@shared/constants';
import { messages } from '@shared/messages';
import {
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZResetPasswordRequest,
  ZSignupRequest,
  ZUpdateProfileRequest,
  ZVerifyOtpRequest,
} from '@shared/schemas/auth';
import type {
  TForgotPasswordResponse,
  TLoginResponse,
  TMeResponse,
  TSessionResponse,
  TVerifyOtpResponse,
} from '@shared/types';
import { requireAuth, requirePerson } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentSignedIn, presentUser } from '../../presenters/user';
import type { Services } from '../../container';
import type { AppState } from '../../types';
import { deviceLabel, newDeviceId, validDeviceId } from '../../accounts/devices';
import { RESET_COOKIE, clearResetCookie, clearSessionCookie, setDeviceCookie, setResetCookie, setSessionCookie, type CookieSettings } from './cookies';

function isDesktopClient(ctx: Context): boolean {
  return ctx.get(DESKTOP_CLIENT_HEADER).toLowerCase() === DESKTOP_CLIENT_VALUE;
}

export function authRoutes(services: Services, cookies: CookieSettings): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth' });
  const idleTimeoutSeconds = services.sessions.idleTimeoutSeconds;

  router.post('/login', async (ctx) => {
    const input = validate(ZLoginRequest, ctx.request.body);
    const user = await services.login.login(input.username, input.password, ctx.ip);
    const desktop = isDesktopClient(ctx);
    const { token } = await services.sessions.create(user.id, desktop ? 'desktop' : 'web', {
      ip: ctx.ip,
      userAgent: ctx.get('User-Agent'),
    });
    if (!desktop) setSessionCookie(ctx, token, cookies);
    // The device: the browser's cookie (issued now if it has none) or the desktop app's own id.
    // A desktop app too old to send one counts as a new device each time, which errs on telling.
    const sentDeviceId = validDeviceId(desktop ? ctx.get(DEVICE_ID_HEADER) : ctx.cookies.get(DEVICE_COOKIE));
    const deviceId = sentDeviceId ?? newDeviceId();
    if (!desktop) setDeviceCookie(ctx, deviceId, cookies);
    const device = deviceLabel(ctx.get('User-Agent'), desktop);
    if ((await services.devices.signedIn(user.id, deviceId, device)) === 'new') void services.notifications.newDeviceSignIn(user.id, device);
    const body: TLoginResponse = {
      success: true,
      message: messages.auth.loginSuccess,
      user: presentUser(user),
      idleTimeoutSeconds,
      ...(desktop ? { token } : {}),
    };
    ctx.body = body;
  });

  router.post('/logout', async (ctx) => {
    if (ctx.state.auth) await services.sessions.destroy(ctx.state.auth.session.id);
    clearSessionCookie(ctx, cookies);
    ctx.body = { success: true, message: messages.auth.logoutSuccess };
  });

  router.get('/me', async (ctx) => {
    const auth = requireAuth(ctx);
    ctx.set('Cache-Control', 'no-store');
    const body: TMeResponse = { success: true, user: presentSignedIn(auth), idleTimeoutSeconds };
    ctx.body = body;
  });

  // The session check of the web app's start-up: 200 for visitors too, so a public page
  // logs no failed request. An expired session is a visitor here; /me still says why with its 401.
  router.get('/session', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const auth = ctx.state.auth;
    const body: TSessionResponse = auth ? { user: presentSignedIn(auth), idleTimeoutSeconds } : { user: null };
    ctx.body = body;
  });

  router.post('/signup', async (ctx) => {
    const input = validate(ZSignupRequest, ctx.request.body);
    await services.login.consumeSignup(ctx.ip);
    const user = await services.users.create(
      { ...input, role: 'user', creditRupees: USERS.signupCredits },
      { userId: null, ip: ctx.ip },
      'signup',
    );
    ctx.status = 201;
    ctx.body = { success: true, message: messages.auth.signupSuccess, user: presentUser(user) };
  });

  router.put('/update-profile', async (ctx) => {
    const { user } = requirePerson(ctx);
    const input = validate(ZUpdateProfileRequest, ctx.request.body);
    const updated = await services.users.updateProfile(user, input);
    ctx.body = { success: true, message: messages.auth.profileUpdated, user: presentUser(updated) };
  });

  router.post('/change-password', async (ctx) => {
    const { user, session } = requirePerson(ctx);
    const input = validate(ZChangePasswordRequest, ctx.request.body);
    await services.login.changeOwnPassword(user, input.currentPassword, input.newPassword, session.id, ctx.ip);
    ctx.body = { success: true, message: messages.auth.passwordChanged };
  });

  router.post('/reset-activity', async (ctx) => {
    // sessionAuth has already extended the session: any POST counts as activity.
    requireAuth(ctx);
    ctx.body = { success: true, idleTimeoutSeconds };
  });

  router.post('/forgot-password', async (ctx) => {
    const input = validate(ZForgotPasswordRequest, ctx.request.body);
    const { phoneLast4 } = await services.passwordResets.request(input.username, input.phone, ctx.ip);
    const body: TForgotPasswordResponse = { success: true, otpSent: true, message: messages.auth.otpSent, phoneLast4 };
    ctx.body = body;
  });

  router.post('/verify-otp', async (ctx) => {
    const input = validate(ZVerifyOtpRequest, ctx.request.body);
    const { resetToken } = await services.passwordResets.verify(input.username, input.otp, ctx.ip);
    const desktop = isDesktopClient(ctx);
    if (!desktop) setResetCookie(ctx, resetToken, cookies);
    const body: TVerifyOtpResponse = {
      success: true,
      resetAllowed: true,
      message: messages.auth.otpVerified,
      ...(desktop ? { resetToken } : {}),
    };
    ctx.body = body;
  });

  router.post('/reset-password', async (ctx) => {
    const input = validate(ZResetPasswordRequest, ctx.request.body);
    const resetToken = input.resetToken ?? ctx.cookies.get(RESET_COOKIE);
    await services.passwordResets.reset(input.username, resetToken, input.newPassword, ctx.ip);
    clearResetCookie(ctx, cookies);
    ctx.body = { success: true, message: messages.auth.resetSuccess };
  });

  return router;
}
