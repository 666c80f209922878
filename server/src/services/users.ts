import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Role } from '@shared/constants';
import { messages } from '@shared/messages';
import { rupeesToUnits } from '@shared/money';
import { isUniqueViolation, uniqueViolationTarget } from '../db/knex';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { User, usernameKey } from '../models';
import type { AuditService } from './audit';
import { hashSecret } from './auth/passwords';
import type { SessionService } from './auth/sessions';
import type { WalletService } from './wallet';

export interface NewUser {
  name: string;
  email: string;
  username: string;
  password: string;
  phoneNumber?: string | undefined;
  role: Role;
  /** Opening balance in rupees. */
  creditRupees: number;
}

export interface Actor {
  userId: number | null;
  ip?: string | null;
}

export interface UserStats {
  totalUsers: number;
  regularUsers: number;
  adminUsers: number;
  configuredUsers: number;
  totalCreditUnits: number;
}

export class UserService {
  constructor(
    private readonly deps: { db: Knex; wallet: WalletService; audit: AuditService; sessions: SessionService },
  ) {}

  async findActiveByUsername(username: string): Promise<User | undefined> {
    return User.query(this.deps.db).findOne({ usernameKey: usernameKey(username) }).whereNull('deletedAt');
  }

  async findById(id: number): Promise<User | undefined> {
    return User.query(this.deps.db).findById(id).whereNull('deletedAt');
  }

  /** Creates an account; an opening balance is a ledger entry in the same transaction. */
  async create(input: NewUser, actor: Actor, source: 'signup' | 'admin' | 'bootstrap'): Promise<User> {
    await this.assertAvailable(input.username, input.email);
    const passwordHash = await hashSecret(input.password);
    try {
      return await this.deps.db.transaction(async (trx) => {
        const now = new Date();
        const user = await User.query(trx).insertAndFetch({
          name: input.name,
          email: input.email,
          username: input.username,
          usernameKey: usernameKey(input.username),
          emailKey: input.email.toLowerCase(),
          role: input.role,
          phoneNumber: input.phoneNumber ?? null,
          passwordHash,
          creditBalance: 0,
          isActive: true,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        });
        const openingUnits = rupeesToUnits(input.creditRupees);
        if (openingUnits > 0) {
          const { entry } = await this.deps.wallet.apply(
            {
              userId: user.id,
              amountUnits: openingUnits,
              type: 'OPENING_BALANCE_ADD',
              description: source === 'admin' ? 'Opening balance set by administrator' : 'Opening balance',
              idempotencyKey: `user:${user.id}:opening-balance`,
              referenceType: 'user',
              referenceId: String(user.id),
              actorUserId: actor.userId,
            },
            trx,
          );
          user.creditBalance = entry.balanceAfter;
        }
        if (source === 'admin') {
          await this.deps.audit.record(
            {
              actorUserId: actor.userId,
              action: 'user.create',
              targetType: 'user',
              targetId: user.id,
              details: { username: user.username, role: user.role, openingCredits: input.creditRupees },
              ip: actor.ip ?? null,
            },
            trx,
          );
        }
        return user;
      });
    } catch (error) {
      // Two signups racing for one name: the unique index decides, we explain.
      if (isUniqueViolation(error)) throw this.conflictFor(uniqueViolationTarget(error));
      throw error;
    }
  }

  private async assertAvailable(username: string, email: string, exceptUserId?: number): Promise<void> {
    const byUsername = await User.query(this.deps.db).findOne({ usernameKey: usernameKey(username) });
    if (byUsername && byUsername.id !== exceptUserId) throw this.conflictFor('username');
    const byEmail = await User.query(this.deps.db).findOne({ emailKey: email.toLowerCase() });
    if (byEmail && byEmail.id !== exceptUserId) throw this.conflictFor('email');
  }

  private conflictFor(target: string) {
    return target.includes('email')
      ? ConflictError('email_taken', messages.auth.emailTaken, 'email')
      : ConflictError('username_taken', messages.auth.usernameTaken, 'username');
  }

  async updateProfile(user: User, input: { name: string; email: string }): Promise<User> {
    const byEmail = await User.query(this.deps.db).findOne({ emailKey: input.email.toLowerCase() });
    if (byEmail && byEmail.id !== user.id) throw this.conflictFor('email');
    try {
      return await User.query(this.deps.db).patchAndFetchById(user.id, {
        name: input.name,
        email: input.email,
        emailKey: input.email.toLowerCase(),
        updatedAt: new Date(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.conflictFor('email');
      throw error;
    }
  }

  async setPassword(userId: number, password: string, trx: Knex = this.deps.db): Promise<void> {
    await User.query(trx)
      .patch({ passwordHash: await hashSecret(password), updatedAt: new Date() })
      .where({ id: userId });
  }

  /** Every account that is not deleted, oldest first. */
  async list(): Promise<User[]> {
    return User.query(this.deps.db).whereNull('deletedAt').orderBy('id', 'asc');
  }

  async stats(): Promise<UserStats> {
    const row = (await this.deps.db('users')
      .whereNull('deletedAt')
      .select(
        this.deps.db.raw('count(*) as total'),
        this.deps.db.raw("sum(case when role = 'user' then 1 else 0 end) as regular"),
        this.deps.db.raw("sum(case when role = 'admin' then 1 else 0 end) as admins"),
        this.deps.db.raw('coalesce(sum(credit_balance), 0) as credits'),
      )
      .first()) as { total: number | string; regular: number | string | null; admins: number | string | null; credits: number | string };
    return {
      totalUsers: Number(row.total),
      regularUsers: Number(row.regular ?? 0),
      adminUsers: Number(row.admins ?? 0),
      // Business info arrives with the sending engine; until then nobody is configured.
      configuredUsers: 0,
      totalCreditUnits: Number(row.credits),
    };
  }

  /**
   * Deletes an account: it can no longer sign in, its sessions end, and its username and e-mail
   * become free. The row stays (soft delete) because its ledger and messages are financial records.
   */
  async delete(targetId: number, actor: Actor): Promise<void> {
    if (targetId === actor.userId) throw ForbiddenError(messages.admin.cannotDeleteSelf, 'cannot_delete_self');
    await this.deps.db.transaction(async (trx) => {
      const target = await User.query(trx).findById(targetId).whereNull('deletedAt').forUpdate();
      if (!target) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
      if (target.role === 'admin') {
        const admins = await User.query(trx).where({ role: 'admin' }).whereNull('deletedAt').resultSize();
        if (admins <= 1) throw ForbiddenError(messages.admin.cannotDeleteLastAdmin, 'last_admin');
      }
      const now = new Date();
      await User.query(trx)
        .patch({ deletedAt: now, updatedAt: now, isActive: false, usernameKey: null, emailKey: null })
        .where({ id: targetId });
      await this.deps.sessions.destroyAllForUser(targetId, trx);
      await this.deps.audit.record(
        {
          actorUserId: actor.userId,
          action: 'user.delete',
          targetType: 'user',
          targetId,
          details: { username: target.username },
          ip: actor.ip ?? null,
        },
        trx,
      );
    });
  }

  /**
   * Makes sure an administrator exists: the configured one, or `admin` with a generated password
   * that is answered once for the caller to print.
   */
  async ensureInitialAdmin(settings: { username: string; password: string | undefined; email: string }): Promise<
    { created: false } | { created: true; username: string; generatedPassword: string | null }
  > {
    const existingAdmin = await User.query(this.deps.db).findOne({ role: 'admin' }).whereNull('deletedAt');
    if (existingAdmin) return { created: false };
    const generatedPassword = settings.password ? null : randomBytes(12).toString('base64url');
    await this.create(
      {
        name: 'Administrator',
        email: settings.email,
        username: settings.username,
        password: settings.password ?? (generatedPassword as string),
        role: 'admin',
        creditRupees: 0,
      },
      { userId: null },
      'bootstrap',
    );
    return { created: true, username: settings.username, generatedPassword };
  }
}
