import Router from '@koa/router';
import { fillMessage, messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import { ZChangeRoleRequest, ZCreateInviteRequest, ZDeleteAccountRequest, ZTransferOwnershipRequest, type TCreatedInvite } from '@shared/schemas/team';
import { BadRequestError } from '../../errors';
import { requireAuth, requirePerson } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentAccount, presentActivity, presentTeamInvite, presentTeamMember } from '../../presenters/team';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** Where the web app opens an invitation (pages/auth/AcceptInvitePage.tsx). */
export const INVITE_PAGE_PATH = '/invite/';

/**
 * Members, invitations and accounts: session only (an API key acts for an account, never for a
 * person). Roles are checked before these handlers by requireRole: /api/team is the owner's.
 */
export function teamRoutes(services: Pick<Services, 'team' | 'users' | 'login'>): Router<AppState> {
  const router = new Router<AppState>();
  const team = services.team;

  router.get('/api/team/members', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: (await team.listMembers(user.id)).map(presentTeamMember) };
  });

  router.post('/api/team/invites', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZCreateInviteRequest, ctx.request.body);
    const invite = await team.createInvite(user.id, actor.id, input, (token) => `${ctx.origin}${INVITE_PAGE_PATH}${token}`);
    const body: TCreatedInvite = {
      id: invite.id,
      token: invite.token,
      link: invite.link,
      expires_at: invite.expiresAt.toISOString(),
      delivery: invite.delivery,
    };
    ctx.status = 201;
    // The token is in this answer only.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/api/team/invites', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: (await team.listInvites(user.id)).map(presentTeamInvite) };
  });

  router.delete('/api/team/invites/:id', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    await team.revokeInvite(user.id, validate(ZIdParam, ctx.params.id), actor.id);
    ctx.body = { success: true };
  });

  router.post('/api/team/invites/:token/accept', async (ctx) => {
    const { user: person } = requirePerson(ctx);
    const token = ctx.params.token ?? '';
    if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) throw BadRequestError('invite_not_found', messages.team.inviteNotFound);
    const account = await team.acceptInvite(token, person);
    ctx.body = { success: true, message: fillMessage(messages.team.joined, { account: account.name }), account: presentAccount(account, -1) };
  });

  router.patch('/api/team/members/:userId', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const { role } = validate(ZChangeRoleRequest, ctx.request.body);
    await team.changeRole(user.id, validate(ZIdParam, ctx.params.userId), role, actor.id);
    ctx.body = { success: true, message: messages.team.roleChanged };
  });

  router.delete('/api/team/members/:userId', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    await team.removeMember(user.id, validate(ZIdParam, ctx.params.userId), actor.id);
    ctx.body = { success: true, message: messages.team.memberRemoved };
  });

  router.post('/api/team/transfer-ownership', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const { userId } = validate(ZTransferOwnershipRequest, ctx.request.body);
    await team.transferOwnership(user.id, actor.id, userId);
    ctx.body = { success: true, message: messages.team.ownershipTransferred };
  });

  router.get('/api/team/activity', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: (await team.activity(user.id)).map(presentActivity) };
  });

  // The owner deletes the account they act in (requireRole holds DELETE /api/account to the owner).
  router.delete('/api/account', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const { currentPassword } = validate(ZDeleteAccountRequest, ctx.request.body);
    await services.login.checkCurrentPassword(actor, currentPassword);
    await services.users.deleteOwnAccount(user.id, actor.id, ctx.ip);
    ctx.body = { success: true, message: messages.team.accountDeleted };
  });

  router.get('/api/accounts', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    ctx.body = (await team.accounts(actor.id)).map((account) => presentAccount(account, user.id));
  });

  router.post('/api/accounts/:id/switch', async (ctx) => {
    const { actor, session } = requireAuth(ctx);
    const account = await team.switchAccount(session.id, actor.id, validate(ZIdParam, ctx.params.id));
    ctx.body = { success: true, message: fillMessage(messages.team.switched, { account: account.name }), account: presentAccount(account, account.id) };
  });

  return router;
}
