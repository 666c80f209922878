import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { BadRequestError, TooManyRequestsError, UnauthorizedError } from '../errors';
import type { User } from '../models';
import { usernameKey } from '../models';
import type { ThrottleFactory } from '../throttling/throttle';
import { isRateLimited } from '../throttling/throttle';
import type { UserService } from './users';
import { verifyAgainstDummy, verifySecret } from '../security/passwords';

const WINDOW = AUTH.loginFailureWindowSeconds;

/**
 * Checks credentials and throttles guessing. Every attempt is counted before the password is
 * checked, so a burst of parallel guesses gets no more than the limit:
 * - per username+IP (5) and per IP (30): that source is blocked for 15 minutes;
 * - per username from anywhere: after 10 failures each further try waits a delay that doubles
 *   up to 30 seconds (one try per delay). A spread-out attack is slowed to a crawl, but the
 *   account's owner is never locked out for long: they wait at most 30 s.
 * A successful login forgets that username's failures.
 */
export class LoginService {
  private readonly byUsernameAndIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly failuresByUsername: RateLimiterAbstract;
  private readonly delayByUsername: RateLimiterAbstract;
  private readonly signupsByIp: RateLimiterAbstract;
  private readonly wrongCurrentPasswords: RateLimiterAbstract;

  constructor(private readonly deps: { users: UserService; throttles: ThrottleFactory }) {
    const block = AUTH.loginBlockSeconds;
    this.byUsernameAndIp = deps.throttles.create({ keyPrefix: 'login_user_ip', points: AUTH.loginFailuresPerUsername, durationSeconds: WINDOW, blockSeconds: block });
    this.byIp = deps.throttles.create({ keyPrefix: 'login_ip', points: AUTH.loginFailuresPerIp, durationSeconds: WINDOW, blockSeconds: block });
    // Only counts: it never refuses by itself (the delay below does the slowing).
    this.failuresByUsername = deps.throttles.create({ keyPrefix: 'login_user_count', points: 1_000_000, durationSeconds: WINDOW });
    this.delayByUsername = deps.throttles.create({ keyPrefix: 'login_user_delay', points: 1, durationSeconds: AUTH.loginDelayMaxSeconds });
    this.signupsByIp = deps.throttles.create({ keyPrefix: 'signup_ip', points: AUTH.signupsPerIpPerHour, durationSeconds: 3600 });
    this.wrongCurrentPasswords = deps.throttles.create({ keyPrefix: 'change_password_user', points: AUTH.changePasswordFailuresPerUser, durationSeconds: WINDOW, blockSeconds: AUTH.loginBlockSeconds });
  }

  async login(username: string, password: string, ip: string): Promise<User> {
    const nameKey = usernameKey(username);
    const pairKey = `${nameKey}_${ip}`;
    try {
      await this.byUsernameAndIp.consume(pairKey);
      await this.byIp.consume(ip);
    } catch (error) {
      if (isRateLimited(error)) throw this.tooMany(error.msBeforeNext);
      throw error;
    }
    await this.waitYourTurn(nameKey);

    const user = await this.deps.users.findActiveByUsername(username);
    const valid = user ? await verifySecret(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (!user || !valid) throw UnauthorizedError(messages.auth.invalidCredentials, 'invalid_credentials');
    if (!user.isActive) throw UnauthorizedError(messages.auth.accountDisabled, 'account_disabled');
    await Promise.all([this.byUsernameAndIp.delete(pairKey), this.byIp.reward(ip, 1), this.failuresByUsername.delete(nameKey), this.delayByUsername.delete(nameKey)]);
    return user;
  }

  /**
   * Change Password from the profile. A stolen session must not become a way to guess the
   * password, so wrong current passwords are counted per account like login failures; the answer
   * is a 400 on the field (a 401 would read as the session having ended).
   */
  async changeOwnPassword(user: User, currentPassword: string, newPassword: string, sessionId: number, ip: string | null): Promise<void> {
    await this.checkCurrentPassword(user, currentPassword);
    await this.deps.users.changeOwnPassword(user, newPassword, sessionId, ip);
  }

  /**
   * The signed-in person's password asked again before something that cannot be undone (changing
   * it, deleting the account): wrong answers count against the same per-account bound.
   */
  async checkCurrentPassword(user: User, currentPassword: string): Promise<void> {
    const key = String(user.id);
    const blocked = await this.wrongCurrentPasswords.get(key);
    if (blocked && blocked.remainingPoints <= 0 && blocked.msBeforeNext > 0) throw this.tooManyWrongCurrent(blocked.msBeforeNext);
    if (!(await verifySecret(user.passwordHash, currentPassword))) {
      try {
        await this.wrongCurrentPasswords.consume(key);
      } catch (error) {
        if (isRateLimited(error)) throw this.tooManyWrongCurrent(error.msBeforeNext);
        throw error;
      }
      throw BadRequestError('current_password_incorrect', messages.auth.currentPasswordIncorrect, 'currentPassword');
    }
    await this.wrongCurrentPasswords.delete(key);
  }

  private tooManyWrongCurrent(msBeforeNext: number) {
    const seconds = Math.ceil(msBeforeNext / 1000);
    return TooManyRequestsError(
      fillMessage(messages.auth.changePasswordTooMany, { minutes: Math.max(1, Math.ceil(seconds / 60)) }),
      seconds,
      'too_many_password_changes',
    );
  }

  /** Counts a sign-up from this address before its password is hashed. */
  async consumeSignup(ip: string): Promise<void> {
    try {
      await this.signupsByIp.consume(ip);
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const seconds = Math.ceil(error.msBeforeNext / 1000);
      throw TooManyRequestsError(fillMessage(messages.auth.signupTooMany, { minutes: Math.max(1, Math.ceil(seconds / 60)) }), seconds, 'too_many_signups');
    }
  }

  /** Past the free failures, one try per delay for this username, the delay doubling each time. */
  private async waitYourTurn(nameKey: string): Promise<void> {
    const counted = await this.failuresByUsername.consume(nameKey);
    const over = counted.consumedPoints - AUTH.loginFailuresBeforeDelay;
    if (over <= 0) return;
    const seconds = Math.min(AUTH.loginDelayMaxSeconds, 2 ** Math.min(over - 1, 10));
    try {
      await this.delayByUsername.consume(nameKey, 1, { customDuration: seconds });
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      const wait = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw TooManyRequestsError(fillMessage(messages.auth.loginSlowDown, { seconds: wait }), wait, 'login_slowed_down');
    }
  }

  private tooMany(msBeforeNext: number) {
    const seconds = Math.ceil(msBeforeNext / 1000);
    return TooManyRequestsError(
      fillMessage(messages.auth.tooManyLoginAttempts, { minutes: Math.max(1, Math.ceil(seconds / 60)) }),
      seconds,
      'too_many_login_attempts',
    );
  }
}
