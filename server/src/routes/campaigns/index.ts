import { formatIndianNumber } from '@shared/money';
import Router from '@koa/router';
import { fillMessage, messages } from '@shared/messages';
import { ZResendFailedRequest, ZSendAgainRequest, ZTimelineQuery, type TSendAgainRequest } from '@shared/schemas/campaigns';
import { ZIdParam } from '@shared/schemas/common';
import { ZCampaignListQuery } from '@shared/schemas/reports';
import { ZRescheduleRequest } from '@shared/schemas/sending';
import { requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import type { Services } from '../../container';
import { presentAccountOverview, presentCampaign, presentCampaignPage } from '../../presenters/campaign';
import { presentCostPreview } from '../../presenters/costPreview';
import { presentAcceptedCampaign } from '../../presenters/sending';
import { formatIstTime } from '@shared/istTime';
import type { AppState } from '../../types';

/** Campaigns after acceptance, and the user dashboard's Account Overview built from them. */
export function campaignRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const campaigns = services.campaigns;

  router.get('/api/campaigns', async (ctx) => {
    const { user } = requireAuth(ctx);
    const query = validate(ZCampaignListQuery, ctx.query);
    ctx.body = { success: true, data: presentCampaignPage(await campaigns.list(user, query)) };
  });

  // Before /:id, which would otherwise take "timeline" for an id.
  router.get('/api/campaigns/timeline', async (ctx) => {
    const { user } = requireAuth(ctx);
    const query = validate(ZTimelineQuery, ctx.query);
    ctx.body = { success: true, data: await campaigns.timeline(user, query.days) };
  });

  router.get('/api/campaigns/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    ctx.body = { success: true, data: presentCampaign(await campaigns.get(user, id)) };
  });

  router.post('/api/campaigns/:id/pause', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    ctx.body = { success: true, message: messages.campaigns.paused, data: presentCampaign(await campaigns.pause(user, id)) };
  });

  router.post('/api/campaigns/:id/resume', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    ctx.body = { success: true, message: messages.campaigns.resumed, data: presentCampaign(await campaigns.resume(user, id)) };
  });

  router.post('/api/campaigns/:id/cancel', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const cancelled = await campaigns.cancel(user, id);
    ctx.body = { success: true, message: cancelled.wasScheduled ? messages.campaigns.scheduledCancelled : messages.campaigns.cancelled, data: presentCampaign(cancelled) };
  });

  router.patch('/api/campaigns/:id/schedule', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZRescheduleRequest, ctx.request.body);
    const record = await campaigns.reschedule(user, id, input.scheduledAt);
    ctx.body = { success: true, message: fillMessage(messages.campaigns.rescheduled, { time: formatIstTime(input.scheduledAt) }), data: presentCampaign(record) };
  });

  // What the campaign learnt: replies, the reply rate and taps per quick-reply button.
  router.get('/api/campaigns/:id/replies', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const campaign = presentCampaign(await campaigns.get(user, id));
    ctx.body = { success: true, data: { replies: campaign.replies ?? 0, reply_rate: campaign.reply_rate ?? 0, button_taps: await services.conversations.buttonTaps(id) } };
  });

  router.post('/api/campaigns/:id/resend-failed', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZResendFailedRequest, ctx.request.body);
    if (!input.confirm) {
      ctx.body = { success: true, preview: presentCostPreview(await campaigns.resendPreview(user, id)) };
      return;
    }
    const resent = await campaigns.resendFailed(user, id);
    await services.team.recordActor('campaign', resent.campaignId, user.id, actor.id);
    const data = presentAcceptedCampaign(resent);
    ctx.body = { success: true, message: fillMessage(messages.campaigns.resendAccepted, { count: formatIndianNumber(data.accepted) }), data };
  });

  // "Send again to…" those who failed (as resend-failed), replied, tapped a button, or read without replying.
  router.post('/api/campaigns/:id/send-again', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZSendAgainRequest, ctx.request.body);
    if (input.audience === 'failed') {
      if (!input.confirm) {
        ctx.body = { success: true, preview: presentCostPreview(await campaigns.resendPreview(user, id)) };
        return;
      }
      const resent = await campaigns.resendFailed(user, id);
    await services.team.recordActor('campaign', resent.campaignId, user.id, actor.id);
    const data = presentAcceptedCampaign(resent);
      ctx.body = { success: true, message: fillMessage(messages.campaigns.resendAccepted, { count: formatIndianNumber(data.accepted) }), data };
      return;
    }
    // Owned first: another user's campaign answers 404 before its contacts are looked at.
    await campaigns.get(user, id);
    const contacts = await services.conversations.audience(user.id, id, input.audience, input.button);
    if (!input.confirm) {
      ctx.body = { success: true, preview: presentCostPreview(await campaigns.sendAgainPreview(user, id, contacts, input.template_id)) };
      return;
    }
    const again = await campaigns.sendAgain(user, id, contacts, audienceLabel(input), input.template_id);
    await services.team.recordActor('campaign', again.campaignId, user.id, actor.id);
    const data = presentAcceptedCampaign(again);
    ctx.body = { success: true, message: fillMessage(messages.campaigns.sendAgainAccepted, { count: formatIndianNumber(data.accepted) }), data };
  });

  router.get('/api/dashboard/overview', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: presentAccountOverview(await campaigns.overview(user)) };
  });

  return router;
}

/** The group in the new campaign's name, in the product's words. */
function audienceLabel(input: TSendAgainRequest): string {
  if (input.audience === 'tapped') return fillMessage(messages.campaigns.audienceTapped, { button: `"${input.button ?? ''}"` });
  if (input.audience === 'read_no_reply') return messages.campaigns.audienceReadNoReply;
  return messages.campaigns.audienceReplied;
}
