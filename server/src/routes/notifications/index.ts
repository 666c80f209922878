/**
 * The signed-in user's notifications: list, mark read, clear, the low-balance alert
 * threshold, and a Server-Sent Events stream of new ones.
 */
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { NOTIFICATIONS } from '@shared/constants';
import { rupeesToUnits, unitsToRupees } from '@shared/money';
import { ZIdParam } from '@shared/schemas/common';
import { STREAM_EVENTS, ZLowBalanceThresholdRequest, ZMarkNotificationsReadRequest, type TNotification, type TNotificationList } from '@shared/schemas/notifications';
import type { TCampaign } from '@shared/schemas/sending';
import { requireAuth, SESSION_COOKIE } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import type { Services } from '../../container';
import type { AppState } from '../../types';

export function notificationRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/notifications' });
  const notifications = services.notifications;

  router.get('/', async (ctx) => {
    const { user } = requireAuth(ctx);
    const { notifications: list, unreadCount } = await notifications.list(user.id);
    const body: TNotificationList = { success: true, notifications: list, unreadCount };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/read', async (ctx) => {
    const { user } = requireAuth(ctx);
    const { ids } = validate(ZMarkNotificationsReadRequest, ctx.request.body ?? {});
    const updated = await notifications.markRead(user.id, ids);
    ctx.body = { success: true, updated, unreadCount: await notifications.unreadCount(user.id) };
  });

  router.delete('/', async (ctx) => {
    const { user } = requireAuth(ctx);
    const deleted = await notifications.clear(user.id);
    ctx.body = { success: true, deleted, unreadCount: 0 };
  });

  router.delete('/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const deleted = await notifications.clear(user.id, id);
    ctx.body = { success: true, deleted, unreadCount: await notifications.unreadCount(user.id) };
  });

  router.get('/low-balance', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, thresholdRupees: unitsToRupees(await notifications.lowBalanceThreshold(user.id), 2) };
  });

  router.put('/low-balance', async (ctx) => {
    const { user } = requireAuth(ctx);
    const { thresholdRupees } = validate(ZLowBalanceThresholdRequest, ctx.request.body);
    await notifications.setLowBalanceThreshold(user.id, rupeesToUnits(thresholdRupees));
    await notifications.lowBalanceCheck(user.id);
    ctx.body = { success: true, thresholdRupees };
  });

  /**
   * Server-Sent Events: `event: notification` per new notification, a comment line every 15 s so
   * proxies keep the stream open; at each heartbeat the session is checked again (a stream must
   * not outlive the inactivity timeout) and rows posted by other instances are caught up.
   * The browser's EventSource reconnects by itself, sending Last-Event-ID.
   *
   * `event: campaign_progress` carries a campaign's live counts (the campaign as `GET
   * /api/campaigns/:id` answers it, without an id line: progress is not a kept notification and
   * must not move Last-Event-ID). Pushed as the campaign moves on this instance; at connect and at
   * each heartbeat the user's followed campaigns are read, and sent when they changed.
   */
  router.get('/stream', async (ctx) => {
    const { user } = requireAuth(ctx);
    const token = ctx.cookies.get(SESSION_COOKIE) ?? /^Bearer\s+(\S+)$/.exec(ctx.get('Authorization'))?.[1] ?? null;
    const lastEventId = Number(ctx.get('Last-Event-ID')) || 0;
    let lastSent = lastEventId > 0 ? lastEventId : await notifications.latestId(user.id);

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setKeepAlive(true);
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    ctx.status = 200;
    const stream = new PassThrough();
    ctx.body = stream;

    const send = (notification: TNotification) => {
      if (notification.id <= lastSent) return;
      lastSent = notification.id;
      stream.write(`id: ${notification.id}\nevent: ${STREAM_EVENTS.notification}\ndata: ${JSON.stringify(notification)}\n\n`);
    };
    // The last progress sent per campaign: a catch-up sends only what changed.
    const progressSent = new Map<number, string>();
    const sendProgress = (campaign: TCampaign) => {
      const data = JSON.stringify(campaign);
      if (closed || progressSent.get(campaign.id) === data) return;
      progressSent.set(campaign.id, data);
      if (progressSent.size > NOTIFICATIONS.campaignFollowLimit * 10) progressSent.delete(progressSent.keys().next().value as number);
      stream.write(`event: ${STREAM_EVENTS.campaignProgress}\ndata: ${data}\n\n`);
    };
    let closed = false;
    stream.write(`retry: ${NOTIFICATIONS.streamRetryMs}\n: connected\n\n`);
    for (const missed of lastEventId > 0 ? await notifications.since(user.id, lastEventId) : []) send(missed);

    const unsubscribe = notifications.subscribe(user.id, send);
    const unsubscribeProgress = services.campaignProgress.subscribe(user.id, sendProgress);
    // Replies: the screen re-reads the conversation named (no id line: nothing to catch up on a reconnect).
    const unsubscribeConversations = services.conversations.subscribe(user.id, (change) => {
      if (!closed) stream.write(`event: ${STREAM_EVENTS.conversation}\ndata: ${JSON.stringify(change)}\n\n`);
    });
    const heartbeat = setInterval(() => {
      void (async () => {
        if (token) {
          const found = await services.sessions.lookup(token);
          if (found.status !== 'valid') return close();
        }
        for (const missed of await notifications.since(user.id, lastSent)) send(missed);
        // Campaigns pushed here since the last heartbeat reached this stream already.
        for (const campaign of await services.campaignProgress.followedBy(user.id, NOTIFICATIONS.streamHeartbeatMs)) sendProgress(campaign);
        if (!closed) stream.write(': keep-alive\n\n');
      })().catch((error: unknown) => ctx.state.log.warn({ err: error }, 'notification stream heartbeat failed'));
    }, NOTIFICATIONS.streamHeartbeatMs);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      unsubscribeProgress();
      unsubscribeConversations();
      stream.end();
    };
    ctx.req.on('close', close);
    stream.on('error', close);
    if (ctx.req.destroyed) return close();
    // Campaigns already moving when the tab connects (a send dialog opened after a reload).
    const followed = await services.campaignProgress.followedBy(user.id).catch((error: unknown) => {
      ctx.state.log.warn({ err: error }, 'campaign progress catch-up failed');
      return [];
    });
    for (const campaign of followed) sendProgress(campaign);
  });

  return router;
}
