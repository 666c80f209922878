import type { Knex } from 'knex';
import { TEAM } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { phoneDigits } from '@shared/phone';
import type { TInviteDelivery } from '@shared/schemas/team';
import { TEAM_ROLE_LABELS, type MemberRole, type TeamRole } from '@shared/teamRoles';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { toDate } from '../models/BaseModel';
import { User } from '../models';
import { hashToken, newToken } from '../security/tokens';
import type { AuditService } from '../audit/service';
import type { Logger } from '../logger';
import type { PlatformMessenger } from '../platformMessages/platformMessenger';

const t = messages.team;

export interface AccountMembership {
  accountId: number;
  role: TeamRole;
}

export interface TeamMemberRecord {
  userId: number;
  name: string;
  username: string;
  email: string;
  role: TeamRole;
  createdAt: Date;
}

export interface InviteRecord {
  id: number;
  email: string | null;
  phone: string | null;
  role: TeamRole;
  delivery: TInviteDelivery;
  createdAt: Date;
  expiresAt: Date;
}

/** Rows whose maker is recorded, and the activity-log action each one writes. */
const ACTOR_KINDS = {
  campaign: { table: 'campaigns', action: 'campaign.create' },
  template: { table: 'templates', action: 'template.edit' },
  apiKey: { table: 'api_keys', action: 'api_key.create' },
  reply: { table: 'conversation_messages', action: 'reply.send' },
  upload: { table: 'uploads', action: 'upload.create' },
} as const;
export type ActorKind = keyof typeof ACTOR_KINDS;

export interface ActivityRecord {
  id: number;
  action: string;
  actorUserId: number | null;
  actorName: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

export interface AccountRecord {
  id: number;
  name: string;
  role: TeamRole;
  ownerUserId: number;
}

interface InviteRow {
  id: number;
  accountId: number;
  email: string | null;
  phone: string | null;
  role: TeamRole;
  delivery: TInviteDelivery;
  createdAt: unknown;
  expiresAt: unknown;
  acceptedAt: unknown;
  revokedAt: unknown;
}

/**
 * Members of customer accounts. An account's id is its first owner's user id, so every table that
 * scopes by `user_id` scopes by account; this service keeps who belongs to which account, with
 * which role, and the invitations that let people join.
 */
export class TeamService {
  constructor(
    private readonly deps: {
      db: Knex;
      audit: AuditService;
      /** The platform's own WhatsApp number, which delivers invitations made with a phone. */
      messenger: PlatformMessenger;
      brandName: string;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Makes `user` the owner of their own account (sign-up, admin-made users); harmless when done. */
  async ensureOwnAccount(user: { id: number; name: string }, trx: Knex = this.deps.db): Promise<void> {
    const now = this.now().toISOString();
    await trx('accounts').insert({ id: user.id, name: user.name, createdAt: now }).onConflict('id').ignore();
    await trx('account_members').insert({ accountId: user.id, userId: user.id, role: 'owner', createdAt: now }).onConflict(['accountId', 'userId']).ignore();
  }

  async membership(userId: number, accountId: number): Promise<AccountMembership | undefined> {
    const row = (await this.deps.db('account_members').where({ userId, accountId }).first('accountId', 'role')) as AccountMembership | undefined;
    return row;
  }

  /**
   * The account a session acts in and the person's role there: the session's chosen account,
   * else their own, else the first they belong to. Undefined when they belong to none any more.
   */
  async resolve(personId: number, sessionAccountId: number | null): Promise<{ account: User; role: TeamRole } | undefined> {
    let found = await this.membership(personId, sessionAccountId ?? personId);
    if (!found && sessionAccountId === null) {
      found = (await this.deps.db('account_members').where({ userId: personId }).orderBy('accountId').first('accountId', 'role')) as AccountMembership | undefined;
    }
    if (!found) return undefined;
    const account = found.accountId === personId ? undefined : await User.query(this.deps.db).findById(found.accountId).whereNull('deletedAt');
    if (found.accountId !== personId && (!account || !account.isActive)) return undefined;
    return { account: account ?? (await User.query(this.deps.db).findById(personId).throwIfNotFound()), role: found.role };
  }

  async listMembers(accountId: number): Promise<TeamMemberRecord[]> {
    const rows = (await this.deps.db('account_members as m')
      .join('users as u', 'u.id', 'm.userId')
      .where('m.accountId', accountId)
      .whereNull('u.deletedAt')
      .orderBy('m.id')
      .select('m.userId', 'u.name', 'u.username', 'u.email', 'm.role', 'm.createdAt')) as (Omit<TeamMemberRecord, 'createdAt'> & { createdAt: unknown })[];
    return rows.map((row) => ({ ...row, createdAt: toDate(row.createdAt) }));
  }

  /**
   * A one-time invitation; the token is returned once and only its hash is kept. One made with a
   * phone is sent from the platform's WhatsApp number; if that fails the invitation stands all the
   * same (marked `whatsapp_failed`) and the owner shares the link. E-mail invitations are links to
   * share: the product sends no e-mail.
   */
  async createInvite(
    accountId: number,
    actorUserId: number,
    input: { email?: string | undefined; phone?: string | undefined; role: MemberRole },
    linkFor: (token: string) => string,
  ): Promise<InviteRecord & { token: string; link: string }> {
    const token = newToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + TEAM.inviteTtlDays * 86_400_000);
    const email = input.email ? input.email.toLowerCase() : null;
    const phone = input.phone ? phoneDigits(input.phone) : null;
    const [inserted] = (await this.deps.db('team_invites')
      .insert({
        accountId,
        tokenHash: hashToken(token),
        email,
        phone,
        role: input.role,
        invitedByUserId: actorUserId,
        createdAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      })
      .returning('id')) as ({ id: number } | number)[];
    const id = typeof inserted === 'object' ? inserted.id : Number(inserted);
    const link = linkFor(token);
    const delivery = phone ? await this.sendInvite(accountId, id, phone, input.role, link) : 'link_only';
    await this.deps.audit.record({ actorUserId, action: 'team.invite', targetType: 'account', targetId: accountId, details: { inviteId: id, role: input.role, email, phone, delivery } });
    return { id, email, phone, role: input.role, delivery, createdAt: now, expiresAt, token, link };
  }

  /** Sends the invitation by WhatsApp and records how it went; never throws. */
  private async sendInvite(accountId: number, inviteId: number, phone: string, role: MemberRole, link: string): Promise<TInviteDelivery> {
    let delivery: TInviteDelivery = 'whatsapp_failed';
    try {
      const account = (await this.deps.db('users').where({ id: accountId }).first('name', 'businessName')) as { name: string; businessName: string | null } | undefined;
      const accountName = account?.businessName || account?.name || this.deps.brandName;
      await this.deps.messenger.sendTeamInvite(phone, { accountName, roleLabel: TEAM_ROLE_LABELS[role].toLowerCase(), link });
      delivery = 'whatsapp_sent';
    } catch (error) {
      this.deps.log.warn({ err: error, accountId, inviteId }, 'team invitation could not be sent by WhatsApp');
    }
    await this.deps.db('team_invites').where({ id: inviteId }).update({ delivery });
    return delivery;
  }

  /** Invitations not yet used, withdrawn or expired. */
  async listInvites(accountId: number): Promise<InviteRecord[]> {
    const rows = (await this.deps.db('team_invites')
      .where({ accountId })
      .whereNull('acceptedAt')
      .whereNull('revokedAt')
      .where('expiresAt', '>', this.now().toISOString())
      .orderBy('id', 'desc')
      .select('id', 'accountId', 'email', 'phone', 'role', 'delivery', 'createdAt', 'expiresAt', 'acceptedAt', 'revokedAt')) as InviteRow[];
    return rows.map((row) => ({ id: row.id, email: row.email, phone: row.phone, role: row.role, delivery: row.delivery, createdAt: toDate(row.createdAt), expiresAt: toDate(row.expiresAt) }));
  }

  async revokeInvite(accountId: number, inviteId: number, actorUserId: number): Promise<void> {
    const changed = await this.deps.db('team_invites')
      .where({ id: inviteId, accountId })
      .whereNull('acceptedAt')
      .whereNull('revokedAt')
      .update({ revokedAt: this.now().toISOString() });
    if (changed === 0) throw NotFoundError(t.inviteNotFound, 'invite_not_found');
    await this.deps.audit.record({ actorUserId, action: 'team.invite_revoke', targetType: 'account', targetId: accountId, details: { inviteId } });
  }

  /**
   * Joins the invitation's account as `person`, who must be the one invited (same e-mail or
   * phone). One use: the row is claimed with a conditional update, so two accepts race safely.
   */
  async acceptInvite(token: string, person: User): Promise<AccountRecord> {
    const row = (await this.deps.db('team_invites').where({ tokenHash: hashToken(token) }).first()) as InviteRow | undefined;
    if (!row) throw NotFoundError(t.inviteNotFound, 'invite_not_found');
    if (row.revokedAt) throw new AppError(410, 'invite_revoked', t.inviteRevoked);
    if (row.acceptedAt) throw ConflictError('invite_used', t.inviteUsed);
    const now = this.now();
    if (toDate(row.expiresAt).getTime() <= now.getTime()) throw new AppError(410, 'invite_expired', t.inviteExpired);
    const emailMatches = row.email !== null && row.email === person.email.toLowerCase();
    const phoneMatches = row.phone !== null && person.phoneNumber !== null && row.phone === phoneDigits(person.phoneNumber);
    if (!emailMatches && !phoneMatches) throw ForbiddenError(t.inviteWrongPerson, 'invite_wrong_person');
    if (await this.membership(person.id, row.accountId)) throw ConflictError('already_member', t.alreadyMember);
    await this.deps.db.transaction(async (trx) => {
      const claimed = await trx('team_invites')
        .where({ id: row.id })
        .whereNull('acceptedAt')
        .update({ acceptedAt: now.toISOString(), acceptedByUserId: person.id });
      if (claimed === 0) throw ConflictError('invite_used', t.inviteUsed);
      await trx('account_members').insert({ accountId: row.accountId, userId: person.id, role: row.role, createdAt: now.toISOString() });
      await this.deps.audit.record({ actorUserId: person.id, action: 'team.join', targetType: 'account', targetId: row.accountId, details: { role: row.role, inviteId: row.id } }, trx);
    });
    const account = await this.account(row.accountId, person.id);
    if (!account) throw NotFoundError(t.notMember, 'not_member');
    return account;
  }

  async changeRole(accountId: number, userId: number, role: MemberRole, actorUserId: number): Promise<void> {
    const current = await this.membership(userId, accountId);
    if (!current) throw NotFoundError(t.memberNotFound, 'member_not_found');
    if (current.role === 'owner') throw BadRequestError('owner_role_fixed', t.ownerRoleFixed);
    await this.deps.db('account_members').where({ accountId, userId }).update({ role });
    await this.deps.audit.record({ actorUserId, action: 'team.role_change', targetType: 'account', targetId: accountId, details: { userId, from: current.role, to: role } });
  }

  /** Removes a member and ends their sessions in this account at once. */
  async removeMember(accountId: number, userId: number, actorUserId: number): Promise<void> {
    const current = await this.membership(userId, accountId);
    if (!current) throw NotFoundError(t.memberNotFound, 'member_not_found');
    if (current.role === 'owner') throw BadRequestError('owner_cannot_leave', t.ownerCannotLeave);
    await this.deps.db.transaction(async (trx) => {
      await trx('account_members').where({ accountId, userId }).delete();
      await trx('sessions')
        .where({ userId })
        .andWhere((where) => {
          void where.where({ accountId });
          // A session that never switched acts in the person's own account.
          if (accountId === userId) void where.orWhereNull('accountId');
        })
        .delete();
      await this.deps.audit.record({ actorUserId, action: 'team.remove', targetType: 'account', targetId: accountId, details: { userId, role: current.role } }, trx);
    });
  }

  /** The owner hands the account to a member, and stays in it as a manager. */
  async transferOwnership(accountId: number, fromUserId: number, toUserId: number): Promise<void> {
    if (fromUserId === toUserId) throw BadRequestError('transfer_to_self', t.transferToSelf);
    const target = await this.membership(toUserId, accountId);
    if (!target) throw NotFoundError(t.memberNotFound, 'member_not_found');
    await this.deps.db.transaction(async (trx) => {
      const demoted = await trx('account_members').where({ accountId, userId: fromUserId, role: 'owner' }).update({ role: 'manager' });
      if (demoted === 0) throw ForbiddenError(fillMessage(t.roleRequired, { role: 'not owner', roles: 'owner' }), 'role_required');
      await trx('account_members').where({ accountId, userId: toUserId }).update({ role: 'owner' });
      await this.deps.audit.record({ actorUserId: fromUserId, action: 'team.transfer_ownership', targetType: 'account', targetId: accountId, details: { from: fromUserId, to: toUserId } }, trx);
    });
  }

  async account(accountId: number, personId: number): Promise<AccountRecord | undefined> {
    return (await this.accounts(personId)).find((account) => account.id === accountId);
  }

  /** The accounts a person belongs to, with their role and each account's present owner. */
  async accounts(personId: number): Promise<AccountRecord[]> {
    const rows = (await this.deps.db('account_members as m')
      .join('accounts as a', 'a.id', 'm.accountId')
      .join('users as u', 'u.id', 'a.id')
      .join('account_members as o', (join) => {
        join.on('o.accountId', '=', 'm.accountId').andOnVal('o.role', '=', 'owner');
      })
      .where('m.userId', personId)
      .whereNull('u.deletedAt')
      .orderBy('m.accountId')
      .select('m.accountId as id', 'u.name', 'u.businessName', 'm.role', 'o.userId as ownerUserId')) as (AccountRecord & { businessName: string | null })[];
    return rows.map(({ businessName, ...row }) => ({ ...row, name: businessName || row.name }));
  }

  /**
   * Records which member did an account's action: `actor_user_id` on the row it made, and a line
   * in the account's activity log. Called right after the row is made; the row stays the
   * account's (`user_id`), so a stamp can never move it to another account.
   */
  async recordActor(kind: ActorKind, rowId: number | string, accountId: number, actorUserId: number, details: Record<string, unknown> = {}): Promise<void> {
    const { table, action } = ACTOR_KINDS[kind];
    await this.deps.db(table).where({ id: rowId, userId: accountId }).update({ actorUserId });
    await this.deps.audit.record({ actorUserId, action, targetType: 'account', targetId: accountId, details: { id: rowId, ...details } });
  }

  /**
   * A campaign made through the public API: an API key acts for the account, so the member who
   * made the key answers for it (null for a key made before teams existed). The key is named in
   * the activity log either way.
   */
  async recordApiCampaign(campaignId: number, accountId: number, apiKeyId: number): Promise<void> {
    const key = (await this.deps.db('api_keys').where({ id: apiKeyId, userId: accountId }).first('actorUserId')) as { actorUserId: number | null } | undefined;
    const actorUserId = key?.actorUserId ?? null;
    await this.deps.db('campaigns').where({ id: campaignId, userId: accountId }).update({ actorUserId });
    await this.deps.audit.record({ actorUserId, action: 'campaign.create', targetType: 'account', targetId: accountId, details: { id: campaignId, apiKeyId } });
  }

  /**
   * Ends an account's team as the account is deleted: every member's sessions in it, their
   * memberships, and the invitations still open. Runs in the deletion's transaction.
   */
  async endAccount(accountId: number, trx: Knex): Promise<void> {
    const now = this.now().toISOString();
    await trx('sessions').where({ accountId }).delete();
    await trx('account_members').where({ accountId }).delete();
    await trx('team_invites').where({ accountId }).whereNull('acceptedAt').whereNull('revokedAt').update({ revokedAt: now });
  }

  /** The account's activity log: what its members did, newest first. */
  async activity(accountId: number, limit = 100): Promise<ActivityRecord[]> {
    const rows = (await this.deps.db('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actorUserId')
      .where({ 'a.targetType': 'account', 'a.targetId': String(accountId) })
      .orderBy('a.id', 'desc')
      .limit(limit)
      .select('a.id', 'a.action', 'a.actorUserId', 'u.name as actorName', 'a.details', 'a.createdAt')) as (Omit<ActivityRecord, 'createdAt' | 'details'> & { createdAt: unknown; details: string | null })[];
    return rows.map((row) => ({ ...row, details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : {}, createdAt: toDate(row.createdAt) }));
  }

  /** Points a session at another account the person belongs to. */
  async switchAccount(sessionId: number, personId: number, accountId: number): Promise<AccountRecord> {
    const account = await this.account(accountId, personId);
    if (!account) throw ForbiddenError(t.notMember, 'not_member');
    await this.deps.db('sessions').where({ id: sessionId, userId: personId }).update({ accountId });
    return account;
  }
}
