import type { TAccountSummary, TActivityEntry, TTeamInvite, TTeamMember } from '@shared/schemas/team';
import type { AccountRecord, ActivityRecord, InviteRecord, TeamMemberRecord } from '../accounts/team';

export function presentTeamMember(member: TeamMemberRecord): TTeamMember {
  return { userId: member.userId, name: member.name, username: member.username, email: member.email, role: member.role, createdAt: member.createdAt.toISOString() };
}

export function presentTeamInvite(invite: InviteRecord): TTeamInvite {
  return { id: invite.id, email: invite.email, phone: invite.phone, role: invite.role, delivery: invite.delivery, createdAt: invite.createdAt.toISOString(), expiresAt: invite.expiresAt.toISOString() };
}

export function presentAccount(account: AccountRecord, currentAccountId: number): TAccountSummary {
  return { id: account.id, name: account.name, role: account.role, ownerUserId: account.ownerUserId, current: account.id === currentAccountId };
}

export function presentActivity(entry: ActivityRecord): TActivityEntry {
  return { id: entry.id, action: entry.action, actorUserId: entry.actorUserId, actorName: entry.actorName, details: entry.details, createdAt: entry.createdAt.toISOString() };
}
