import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { digitsOnly } from '@shared/schemas/auth';
import { AppError, BadRequestError, ServiceUnavailableError, TooManyRequestsError } from '../errors';
import { PasswordReset, usernameKey } from '../models';
import type { Logger } from '../logger';
import type { PlatformMessenger } from '../platformMessages/platformMessenger';
import type { AuditService } from '../audit/service';
import { isRateLimited, type ThrottleFactory } from '../throttling/throttle';
import type { UserService } from './users';
import type { SessionService } from './sessions';
import { hashSecret, verifySecret } from '../security/passwords';
import { hashToken, newToken } from '../security/tokens';

const minutes = (n: number) => n * 60_000;

/**
 * Forgot-password by a 6-digit code sent over WhatsApp from the platform's number. The answer
 * to a request is the same whether or not the username and phone match an account; a code is
 * only sent when they do. Codes are hashed, expire after 10 minutes, allow 5 attempts and are
 * single use; a verified code yields a short-lived reset token that the reset call spends.
 */
export class PasswordResetService {
  private readonly requestsByUsernameAndIp: RateLimiterAbstract;
  private readonly requestsByIp: RateLimiterAbstract;
  private readonly codesByPhone: RateLimiterAbstract;
  private readonly checksByUsername: RateLimiterAbstract;
  private readonly checksByIp: RateLimiterAbstract;

  constructor(
    private readonly deps: {
      db: Knex;
      users: UserService;
      sessions: SessionService;
      messenger: PlatformMessenger;
      audit: AuditService;
      throttles: ThrottleFactory;
      log: Logger;
      now?: () => Date;
    },
  ) {
    // Per username+IP, not per username: someone else's requests cannot use up the owner's.
    this.requestsByUsernameAndIp = deps.throttles.create({ keyPrefix: 'otp_user_ip', points: AUTH.otpRequestsPerWindow, durationSeconds: AUTH.otpRequestWindowSeconds });
    this.requestsByIp = deps.throttles.create({ keyPrefix: 'otp_ip', points: AUTH.otpRequestsPerWindow * 4, durationSeconds: AUTH.otpRequestWindowSeconds });
    // Codes are only sent to an account's own phone, but sign-up takes any phone: bound the messages a number gets.
    this.codesByPhone = deps.throttles.create({ keyPrefix: 'otp_phone', points: AUTH.otpCodesPerPhonePerDay, durationSeconds: 24 * 3600 });
    this.checksByUsername = deps.throttles.create({ keyPrefix: 'otp_check_user', points: AUTH.otpVerifyPerUsername, durationSeconds: AUTH.otpRequestWindowSeconds });
    this.checksByIp = deps.throttles.create({ keyPrefix: 'otp_check_ip', points: AUTH.otpVerifyPerIp, durationSeconds: AUTH.otpRequestWindowSeconds });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Answers the last four digits of the phone given, whatever happened. */
  async request(username: string, phone: string, ip: string): Promise<{ phoneLast4: string }> {
    if (!this.deps.messenger.available) throw ServiceUnavailableError('otp_delivery_unavailable', messages.auth.otpSendFailed);
    try {
      await this.requestsByUsernameAndIp.consume(`${usernameKey(username)}_${ip}`);
      await this.requestsByIp.consume(ip);
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const seconds = Math.ceil(error.msBeforeNext / 1000);
      throw TooManyRequestsError(fillMessage(messages.auth.otpTooManyRequests, { minutes: Math.max(1, Math.ceil(seconds / 60)) }), seconds, 'too_many_otp_requests');
    }

    const phoneLast4 = phone.slice(-4);
    const user = await this.deps.users.findActiveByUsername(username);
    const code = String(randomInt(0, 10 ** AUTH.otpLength)).padStart(AUTH.otpLength, '0');
    // Hashed whether or not the account matches: the answer takes the same time either way.
    const codeHash = await hashSecret(code);
    if (!user || !user.phoneNumber || digitsOnly(user.phoneNumber) !== phone) {
      this.deps.log.info({ username }, 'password reset requested for unknown username or phone');
      return { phoneLast4 };
    }
    try {
      await this.codesByPhone.consume(phone);
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      // Same answer as ever: the phone simply gets no more codes today.
      this.deps.log.warn({ userId: user.id }, 'password reset codes for this phone reached the daily bound');
      return { phoneLast4 };
    }

    const now = this.now();
    await this.deps.db.transaction(async (trx) => {
      // A new code replaces any earlier one still pending.
      await PasswordReset.query(trx).patch({ usedAt: now }).where({ userId: user.id }).whereNull('usedAt');
      await PasswordReset.query(trx).insert({
        userId: user.id,
        codeHash,
        phone,
        attempts: 0,
        createdAt: now,
        expiresAt: new Date(now.getTime() + minutes(AUTH.otpTtlMinutes)),
        verifiedAt: null,
        resetTokenHash: null,
        resetExpiresAt: null,
        usedAt: null,
      });
    });
    try {
      await this.deps.messenger.sendAuthenticationCode(phone, code);
    } catch (error) {
      this.deps.log.error({ err: error, userId: user.id }, 'password reset code could not be sent');
      throw ServiceUnavailableError('otp_send_failed', messages.auth.otpSendFailed);
    }
    return { phoneLast4 };
  }

  /** Checks a code; answers a reset token to present with the new password. */
  async verify(username: string, otp: string, ip: string): Promise<{ resetToken: string }> {
    try {
      await this.checksByIp.consume(ip);
      await this.checksByUsername.consume(usernameKey(username));
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const seconds = Math.ceil(error.msBeforeNext / 1000);
      throw TooManyRequestsError(fillMessage(messages.auth.otpTooManyChecks, { minutes: Math.max(1, Math.ceil(seconds / 60)) }), seconds, 'too_many_otp_checks');
    }
    const user = await this.deps.users.findActiveByUsername(username);
    const pending = user
      ? await PasswordReset.query(this.deps.db)
          .where({ userId: user.id })
          .whereNull('usedAt')
          .whereNull('verifiedAt')
          .orderBy('id', 'desc')
          .first()
      : undefined;
    if (!pending) throw BadRequestError('otp_invalid', messages.auth.otpInvalid, 'otp');
    const now = this.now();
    if (now.getTime() >= pending.expiresAt.getTime()) {
      await PasswordReset.query(this.deps.db).patch({ usedAt: now }).where({ id: pending.id });
      throw BadRequestError('otp_expired', messages.auth.otpExpired, 'otp');
    }
    // The attempt is counted before the code is judged, in one conditional update: parallel
    // guesses each take one of the five attempts or none.
    const counted = (await this.deps
      .db('password_resets')
      .where({ id: pending.id })
      .whereNull('usedAt')
      .where('attempts', '<', AUTH.otpMaxAttempts)
      .update({ attempts: this.deps.db.raw('attempts + 1') }, ['attempts'])) as { attempts: number }[];
    const attempts = counted[0]?.attempts;
    if (attempts === undefined) throw new AppError(429, 'otp_too_many_attempts', messages.auth.otpTooManyAttempts, 'otp');
    const matches = await verifySecret(pending.codeHash, otp);
    if (!matches) {
      if (attempts >= AUTH.otpMaxAttempts) {
        await PasswordReset.query(this.deps.db).patch({ usedAt: now }).where({ id: pending.id });
        throw new AppError(429, 'otp_too_many_attempts', messages.auth.otpTooManyAttempts, 'otp');
      }
      throw BadRequestError('otp_invalid', messages.auth.otpInvalid, 'otp');
    }
    const resetToken = newToken();
    // The conditional update makes a code single-use even if two verifications race.
    const claimed = await PasswordReset.query(this.deps.db)
      .patch({
        verifiedAt: now,
        resetTokenHash: hashToken(resetToken),
        resetExpiresAt: new Date(now.getTime() + minutes(AUTH.resetWindowMinutes)),
      })
      .where({ id: pending.id })
      .whereNull('verifiedAt')
      .whereNull('usedAt');
    if (claimed === 0) throw BadRequestError('otp_invalid', messages.auth.otpInvalid, 'otp');
    return { resetToken };
  }

  /** Sets the new password when the reset token proves a verified code; ends every session. */
  async reset(username: string, resetToken: string | undefined, newPassword: string, ip: string): Promise<void> {
    const user = await this.deps.users.findActiveByUsername(username);
    if (!user || !resetToken) throw BadRequestError('reset_not_allowed', messages.auth.resetNotAllowed);
    const now = this.now();
    await this.deps.db.transaction(async (trx) => {
      const claimed = await PasswordReset.query(trx)
        .patch({ usedAt: now })
        .where({ userId: user.id, resetTokenHash: hashToken(resetToken) })
        .whereNotNull('verifiedAt')
        .whereNull('usedAt')
        .where('resetExpiresAt', '>', now.toISOString());
      if (claimed === 0) throw BadRequestError('reset_not_allowed', messages.auth.resetNotAllowed);
      await this.deps.users.setPassword(user.id, newPassword, trx);
      await this.deps.sessions.destroyAllForUser(user.id, trx);
      await this.deps.audit.record({ actorUserId: user.id, action: 'user.password_reset', targetType: 'user', targetId: user.id, ip }, trx);
    });
  }

  /** Deletes reset rows older than a day. */
  async purgeOld(): Promise<number> {
    const cutoff = new Date(this.now().getTime() - 24 * 3_600_000);
    return PasswordReset.query(this.deps.db).delete().where('createdAt', '<', cutoff.toISOString());
  }
}
