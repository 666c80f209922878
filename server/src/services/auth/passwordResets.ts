import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { digitsOnly } from '@shared/schemas/auth';
import { AppError, BadRequestError, ServiceUnavailableError, TooManyRequestsError } from '../../errors';
import { PasswordReset, usernameKey } from '../../models';
import type { Logger } from '../../logger';
import type { PlatformMessenger } from '../../messaging/platformMessenger';
import type { AuditService } from '../audit';
import { isRateLimited, type ThrottleFactory } from '../throttle';
import type { UserService } from '../users';
import type { SessionService } from './sessions';
import { hashSecret, verifySecret } from './passwords';
import { hashToken, newToken } from './tokens';

const minutes = (n: number) => n * 60_000;

/**
 * Forgot-password by a 6-digit code sent over WhatsApp from the platform's number. The answer
 * to a request is the same whether or not the username and phone match an account; a code is
 * only sent when they do. Codes are hashed, expire after 10 minutes, allow 5 attempts and are
 * single use; a verified code yields a short-lived reset token that the reset call spends.
 */
export class PasswordResetService {
  private readonly requestsByUsername: RateLimiterAbstract;
  private readonly requestsByIp: RateLimiterAbstract;

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
    this.requestsByUsername = deps.throttles.create({ keyPrefix: 'otp_user', points: AUTH.otpRequestsPerWindow, durationSeconds: AUTH.otpRequestWindowSeconds });
    this.requestsByIp = deps.throttles.create({ keyPrefix: 'otp_ip', points: AUTH.otpRequestsPerWindow * 4, durationSeconds: AUTH.otpRequestWindowSeconds });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Answers the last four digits of the phone given, whatever happened. */
  async request(username: string, phone: string, ip: string): Promise<{ phoneLast4: string }> {
    if (!this.deps.messenger.available) throw ServiceUnavailableError('otp_delivery_unavailable', messages.auth.otpSendFailed);
    try {
      await Promise.all([this.requestsByUsername.consume(usernameKey(username)), this.requestsByIp.consume(ip)]);
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const seconds = Math.ceil(error.msBeforeNext / 1000);
      throw TooManyRequestsError(fillMessage(messages.auth.otpTooManyRequests, { minutes: Math.max(1, Math.ceil(seconds / 60)) }), seconds, 'too_many_otp_requests');
    }

    const phoneLast4 = phone.slice(-4);
    const user = await this.deps.users.findActiveByUsername(username);
    if (!user || !user.phoneNumber || digitsOnly(user.phoneNumber) !== phone) {
      this.deps.log.info({ username }, 'password reset requested for unknown username or phone');
      return { phoneLast4 };
    }

    const code = String(randomInt(0, 10 ** AUTH.otpLength)).padStart(AUTH.otpLength, '0');
    const now = this.now();
    await this.deps.db.transaction(async (trx) => {
      // A new code replaces any earlier one still pending.
      await PasswordReset.query(trx).patch({ usedAt: now }).where({ userId: user.id }).whereNull('usedAt');
      await PasswordReset.query(trx).insert({
        userId: user.id,
        codeHash: await hashSecret(code),
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
  async verify(username: string, otp: string): Promise<{ resetToken: string }> {
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
    if (pending.attempts >= AUTH.otpMaxAttempts) {
      throw new AppError(429, 'otp_too_many_attempts', messages.auth.otpTooManyAttempts, 'otp');
    }
    const matches = await verifySecret(pending.codeHash, otp);
    if (!matches) {
      const attempts = pending.attempts + 1;
      await PasswordReset.query(this.deps.db)
        .patch({ attempts, ...(attempts >= AUTH.otpMaxAttempts ? { usedAt: now } : {}) })
        .where({ id: pending.id });
      if (attempts >= AUTH.otpMaxAttempts) {
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
