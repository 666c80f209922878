import { z } from 'zod';
import { messages } from '../messages';
import { MEMBER_ROLES, TEAM_ROLES, type TeamRole } from '../teamRoles';
import { ZEmail, ZSignupPhone } from './common';

const t = messages.team;
const roleError = { error: t.roleInvalid };

/** POST /api/team/invites: an e-mail address, a phone number or both, and the role to give. */
export const ZCreateInviteRequest = z
  .object({
    email: z.union([z.literal(''), ZEmail]).optional(),
    phone: ZSignupPhone,
    role: z.enum(MEMBER_ROLES, roleError),
  })
  .refine((value) => Boolean(value.email) || Boolean(value.phone), { error: t.inviteNeedsContact, path: ['email'] });
export type TCreateInviteRequest = z.infer<typeof ZCreateInviteRequest>;

/** PATCH /api/team/members/{userId} */
export const ZChangeRoleRequest = z.object({ role: z.enum(MEMBER_ROLES, roleError) });
export type TChangeRoleRequest = z.infer<typeof ZChangeRoleRequest>;

/** POST /api/team/transfer-ownership */
export const ZTransferOwnershipRequest = z.object({ userId: z.number({ error: t.memberNotFound }).int().positive() });
export type TTransferOwnershipRequest = z.infer<typeof ZTransferOwnershipRequest>;

export interface TTeamMember {
  userId: number;
  name: string;
  username: string;
  email: string;
  role: TeamRole;
  createdAt: string;
}

/**
 * How an invitation reached the person: sent by the platform's WhatsApp number (or it failed, and
 * the link is to be shared by hand), or a link to share from the start (e-mail: the product sends
 * no e-mail).
 */
export const INVITE_DELIVERIES = ['whatsapp_sent', 'whatsapp_failed', 'link_only'] as const;
export type TInviteDelivery = (typeof INVITE_DELIVERIES)[number];

export interface TTeamInvite {
  id: number;
  email: string | null;
  phone: string | null;
  role: TeamRole;
  delivery: TInviteDelivery;
  createdAt: string;
  expiresAt: string;
}

export interface TCreatedInvite {
  id: number;
  token: string;
  link: string;
  expires_at: string;
  delivery: TInviteDelivery;
}

/** DELETE /api/account: the owner's own password, asked again (the key change-password uses). */
export const ZDeleteAccountRequest = z.object({
  currentPassword: z.string({ error: messages.auth.currentPasswordRequired }).min(1, { error: messages.auth.currentPasswordRequired }).max(200),
});
export type TDeleteAccountRequest = z.infer<typeof ZDeleteAccountRequest>;

export interface TAccountSummary {
  id: number;
  name: string;
  role: TeamRole;
  ownerUserId: number;
  current: boolean;
}

/** A line of the account's activity log (GET /api/team/activity). */
export interface TActivityEntry {
  id: number;
  action: string;
  actorUserId: number | null;
  actorName: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export const ZTeamRole = z.enum(TEAM_ROLES);
