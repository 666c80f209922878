import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { TooManyRequestsError, UnauthorizedError } from '../../errors';
import type { User } from '../../models';
import { usernameKey } from '../../models';
import type { ThrottleFactory } from '../throttle';
import { isRateLimited } from '../throttle';
import type { UserService } from '../users';
import { verifyAgainstDummy, verifySecret } from './passwords';

/**
 * Checks credentials and throttles wrong passwords three ways: per username+IP (a typo-prone
 * person is slowed quickly), per IP (one machine guessing many names) and per username across
 * IPs (a spread-out attack on one account), answering 429 with the wait.
 */
export class LoginService {
  private readonly byUsernameAndIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly byUsername: RateLimiterAbstract;

  constructor(private readonly deps: { users: UserService; throttles: ThrottleFactory }) {
    const window = AUTH.loginFailureWindowSeconds;
    const block = AUTH.loginBlockSeconds;
    this.byUsernameAndIp = deps.throttles.create({ keyPrefix: 'login_user_ip', points: AUTH.loginFailuresPerUsername, durationSeconds: window, blockSeconds: block });
    this.byIp = deps.throttles.create({ keyPrefix: 'login_ip', points: AUTH.loginFailuresPerIp, durationSeconds: window, blockSeconds: block });
    this.byUsername = deps.throttles.create({ keyPrefix: 'login_user', points: AUTH.loginFailuresPerIp * 2, durationSeconds: window, blockSeconds: block });
  }

  async login(username: string, password: string, ip: string): Promise<User> {
    const nameKey = usernameKey(username);
    const pairKey = `${nameKey}_${ip}`;
    await this.assertNotBlocked([
      [this.byUsernameAndIp, pairKey, AUTH.loginFailuresPerUsername],
      [this.byIp, ip, AUTH.loginFailuresPerIp],
      [this.byUsername, nameKey, AUTH.loginFailuresPerIp * 2],
    ]);

    const user = await this.deps.users.findActiveByUsername(username);
    const valid = user ? await verifySecret(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (!user || !valid) {
      await this.recordFailure(pairKey, ip, nameKey);
      throw UnauthorizedError(messages.auth.invalidCredentials, 'invalid_credentials');
    }
    if (!user.isActive) throw UnauthorizedError(messages.auth.accountDisabled, 'account_disabled');
    await this.byUsernameAndIp.delete(pairKey);
    return user;
  }

  private async assertNotBlocked(checks: [RateLimiterAbstract, string, number][]): Promise<void> {
    for (const [limiter, key, points] of checks) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= points) throw this.tooMany(res.msBeforeNext);
    }
  }

  private async recordFailure(pairKey: string, ip: string, nameKey: string): Promise<void> {
    try {
      await Promise.all([
        this.byUsernameAndIp.consume(pairKey),
        this.byIp.consume(ip),
        this.byUsername.consume(nameKey),
      ]);
    } catch (error) {
      if (isRateLimited(error)) throw this.tooMany(error.msBeforeNext);
      throw error;
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
