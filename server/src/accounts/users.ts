import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Role } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees, rupeesToUnits, unitsToRupees } from '@shared/money';
import { digitsOnly, gstinStateMismatch } from '@shared/schemas/auth';
import { isUniqueViolation, uniqueViolationTarget } from '../db/knex';
import { forUpdateIfSupported } from '../db/dialect';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { User, usernameKey } from '../models';
import type { AuditService } from '../audit/service';
import { hashSecret } from '../security/passwords';
import type { SessionService } from './sessions';
import type { TeamService } from './team';
import type { WalletService } from '../wallet/service';

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

/** Campaigns that still hold the account's money or may still send. */
const CAMPAIGNS_IN_FLIGHT = ['scheduled', 'running', 'paused'] as const;

export interface Actor {
  userId: number | null;
  ip?: string | null;
}

export interface UserStats {
  totalUsers: number;
  regularUsers: number;
  adminUsers: number;
  totalCreditUnits: number;
}

export class UserService {
  constructor(
    private readonly deps: { db: Knex; wallet: WalletService; audit: AuditService; sessions: SessionService; team: TeamService },
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
        await this.deps.team.ensureOwnAccount(user, trx);
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

  async updateProfile(
    user: User,
    input: { name: string; email: string; businessName?: string | null; gstin?: string | null; billingAddress?: string | null; billingState?: string | null },
  ): Promise<User> {
    // One of the two left out keeps its stored value, which the other must still agree with.
    const mismatch = gstinStateMismatch(input.gstin !== undefined ? input.gstin : user.gstin, input.billingState !== undefined ? input.billingState : user.billingState);
    if (mismatch) throw ValidationError('billingState', mismatch);
    const byEmail = await User.query(this.deps.db).findOne({ emailKey: input.email.toLowerCase() });
    if (byEmail && byEmail.id !== user.id) throw this.conflictFor('email');
    try {
      return await User.query(this.deps.db).patchAndFetchById(user.id, {
        name: input.name,
        email: input.email,
        emailKey: input.email.toLowerCase(),
        ...(input.businessName !== undefined ? { businessName: input.businessName } : {}),
        ...(input.gstin !== undefined ? { gstin: input.gstin } : {}),
        ...(input.billingAddress !== undefined ? { billingAddress: input.billingAddress } : {}),
        ...(input.billingState !== undefined ? { billingState: input.billingState } : {}),
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

  /**
   * An administrator edits an account (spec 001 basic info). A new creditBalance becomes a ledger
   * entry for the difference, written with the balance read under lock, so it cannot lose a
   * concurrent debit. An admin cannot demote themselves or the last admin.
   */
  async updateByAdmin(
    targetId: number,
    input: { name?: string; email?: string; username?: string; phoneNumber?: string | null; role?: Role; creditBalance?: number; reason?: string },
    actor: Actor & { userId: number },
  ): Promise<User> {
    try {
      return await this.deps.db.transaction(async (trx) => {
        const target = await forUpdateIfSupported(User.query(trx).findById(targetId).whereNull('deletedAt'), trx);
        if (!target) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
        if (input.username && usernameKey(input.username) !== target.usernameKey) {
          const taken = await User.query(trx).findOne({ usernameKey: usernameKey(input.username) });
          if (taken && taken.id !== targetId) throw this.conflictFor('username');
        }
        if (input.email && input.email.toLowerCase() !== target.emailKey) {
          const taken = await User.query(trx).findOne({ emailKey: input.email.toLowerCase() });
          if (taken && taken.id !== targetId) throw this.conflictFor('email');
        }
        if (input.role === 'user' && target.role === 'admin') {
          if (targetId === actor.userId) throw ForbiddenError(messages.admin.cannotDemoteSelf, 'cannot_demote_self');
          const admins = await User.query(trx).where({ role: 'admin' }).whereNull('deletedAt').resultSize();
          if (admins <= 1) throw ForbiddenError(messages.admin.lastAdminRole, 'last_admin');
        }
        const changes: Partial<User> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.email !== undefined) Object.assign(changes, { email: input.email, emailKey: input.email.toLowerCase() });
        if (input.username !== undefined) Object.assign(changes, { username: input.username, usernameKey: usernameKey(input.username) });
        if (input.phoneNumber !== undefined) changes.phoneNumber = input.phoneNumber ? digitsOnly(input.phoneNumber) : null;
        if (input.role !== undefined) changes.role = input.role;
        if (Object.keys(changes).length > 0) {
          await User.query(trx).patch({ ...changes, updatedAt: new Date() }).where({ id: targetId });
        }
        let balanceChange: number | null = null;
        if (input.creditBalance !== undefined) {
          const targetUnits = rupeesToUnits(Math.round(input.creditBalance * 100) / 100);
          balanceChange = targetUnits - target.creditBalance;
          // Every balance change is a ledger entry with a reason, as Adjust Credits requires.
          if (balanceChange !== 0 && !input.reason) {
            throw BadRequestError('balance_reason_required', messages.adminWallet.balanceReasonRequired, 'reason');
          }
          if (balanceChange !== 0) {
            await this.deps.wallet.apply(
              {
                userId: targetId,
                amountUnits: balanceChange,
                type: balanceChange > 0 ? 'ADMIN_ADD' : 'ADMIN_DEDUCT',
                description: input.reason ?? 'Balance set by administrator',
                idempotencyKey: `admin:set-balance:${targetId}:${randomUUID()}`,
                referenceType: 'admin',
                referenceId: String(actor.userId),
                actorUserId: actor.userId,
              },
              trx,
            );
          }
        }
        await this.deps.audit.record(
          {
            actorUserId: actor.userId,
            action: 'user.update',
            targetType: 'user',
            targetId,
            details: { fields: Object.keys(changes), balanceChangeUnits: balanceChange, reason: input.reason ?? null },
            ip: actor.ip ?? null,
          },
          trx,
        );
        return (await User.query(trx).findById(targetId)) as User;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.conflictFor(uniqueViolationTarget(error));
      throw error;
    }
  }

  /**
   * The user changes their own password (the current one was checked by the caller): every other
   * session of theirs ends, the one in use stays, and the change is audited.
   */
  async changeOwnPassword(user: User, newPassword: string, keepSessionId: number, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      await this.setPassword(user.id, newPassword, trx);
      await this.deps.sessions.destroyOthersForUser(user.id, keepSessionId, trx);
      await this.deps.audit.record({ actorUserId: user.id, action: 'user.password_change_self', targetType: 'user', targetId: user.id, ip }, trx);
    });
  }

  /** An administrator sets a new password; the user's sessions end. */
  async changePasswordByAdmin(targetId: number, password: string, actor: Actor & { userId: number }): Promise<User> {
    const target = await this.findById(targetId);
    if (!target) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    await this.deps.db.transaction(async (trx) => {
      await this.setPassword(targetId, password, trx);
      await this.deps.sessions.destroyAllForUser(targetId, trx);
      await this.deps.audit.record({ actorUserId: actor.userId, action: 'user.password_change', targetType: 'user', targetId, ip: actor.ip ?? null }, trx);
    });
    return target;
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
      totalCreditUnits: Number(row.credits),
    };
  }

  /**
   * Deletes an account: it can no longer sign in, its sessions end, and its username and e-mail
   * become free. The row stays (soft delete) because its ledger and messages are financial records.
   */
  private async deactivate(targetId: number, trx: Knex): Promise<void> {
    const now = new Date();
    await User.query(trx)
      .patch({ deletedAt: now, updatedAt: now, isActive: false, usernameKey: null, emailKey: null })
      .where({ id: targetId });
    await this.deps.sessions.destroyAllForUser(targetId, trx);
  }

  /**
   * Deletes an account. One whose wallet holds money (to the paisa) goes only when
   * `confirmedBalanceRupees` is that balance as the admin was shown it, so money is never
   * abandoned unseen, nor a balance that changed after the admin looked.
   */
  async delete(targetId: number, actor: Actor, confirmedBalanceRupees?: number): Promise<void> {
    if (targetId === actor.userId) throw ForbiddenError(messages.admin.cannotDeleteSelf, 'cannot_delete_self');
    await this.deps.db.transaction(async (trx) => {
      const target = await forUpdateIfSupported(User.query(trx).findById(targetId).whereNull('deletedAt'), trx);
      if (!target) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
      if (target.role === 'admin') {
        const admins = await User.query(trx).where({ role: 'admin' }).whereNull('deletedAt').resultSize();
        if (admins <= 1) throw ForbiddenError(messages.admin.cannotDeleteLastAdmin, 'last_admin');
      }
      const balance = unitsToRupees(Number(target.creditBalance));
      if (balance !== 0 && confirmedBalanceRupees !== balance) {
        throw ConflictError('balance_not_confirmed', fillMessage(messages.admin.deleteUserBalanceUnconfirmed, { amount: formatRupees(balance) }), 'confirm_balance');
      }
      await this.deactivate(targetId, trx);
      await this.deps.audit.record(
        {
          actorUserId: actor.userId,
          action: 'user.delete',
          targetType: 'user',
          targetId,
          details: { username: target.username, creditBalance: balance },
          ip: actor.ip ?? null,
        },
        trx,
      );
    });
  }

  /**
   * The owner deletes their account (its id is its founder's user id, so the founder's login goes
   * with it). Refused while the wallet holds money, so paid credits are never lost unseen, and
   * while campaigns are scheduled, running or paused, which hold money and would still send. The
   * account is deactivated as an admin's delete does (ledger, invoices and messages are kept);
   * every member's sessions in it end and the team is dissolved.
   */
  async deleteOwnAccount(accountId: number, ownerUserId: number, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (trx) => {
      const account = await forUpdateIfSupported(User.query(trx).findById(accountId).whereNull('deletedAt'), trx);
      if (!account) throw NotFoundError(messages.team.notMember, 'not_member');
      // The platform's administrators are removed by another administrator, never by themselves.
      if (account.role === 'admin') throw ForbiddenError(messages.admin.cannotDeleteSelf, 'cannot_delete_self');
      const owner = (await trx('account_members').where({ accountId, userId: ownerUserId, role: 'owner' }).first('userId')) as { userId: number } | undefined;
      if (!owner) throw ForbiddenError(fillMessage(messages.team.roleRequired, { role: 'not owner', roles: 'owner' }), 'role_required');
      const balance = unitsToRupees(Number(account.creditBalance));
      if (balance > 0) throw ConflictError('account_has_balance', fillMessage(messages.team.deleteAccountHasBalance, { amount: formatRupees(balance) }));
      const [inFlight] = (await trx('campaigns').where({ userId: accountId }).whereIn('status', CAMPAIGNS_IN_FLIGHT).count({ count: '*' })) as { count: number | string }[];
      const campaigns = Number(inFlight?.count ?? 0);
      if (campaigns > 0) throw ConflictError('account_has_campaigns', fillMessage(messages.team.deleteAccountHasCampaigns, { count: campaigns }));
      await this.deps.team.endAccount(accountId, trx);
      await this.deactivate(accountId, trx);
      await this.deps.audit.record(
        { actorUserId: ownerUserId, action: 'account.delete', targetType: 'account', targetId: accountId, details: { username: account.username }, ip },
        trx,
      );
    });
  }

  /**
   * Makes sure an administrator exists: the configured one, or `admin` with a generated password
   * that is answered once for the caller to print. An existing one is answered by its username.
   */
  async ensureInitialAdmin(settings: { username: string; password: string | undefined; email: string }): Promise<
    { created: false; username: string } | { created: true; username: string; generatedPassword: string | null }
  > {
    const existingAdmin = await User.query(this.deps.db).findOne({ role: 'admin' }).whereNull('deletedAt').orderBy('id');
    if (existingAdmin) return { created: false, username: existingAdmin.username };
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
