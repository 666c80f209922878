/**
 * A local stand-in for the WhatsApp Cloud API: accepts template sends, keeps what each recipient
 * received in the SimulatorOutbox, and posts signed status webhooks back, so that the whole
 * sending path (adapter, dispatcher, webhook endpoint) runs for real without Meta.
 *
 * Deterministic test numbers (by the recipient's last digits):
 *   ...0000  accepted, then a `failed` webhook with 131026 (undeliverable), as Meta does it
 *   ...0001  sent and delivered, never read
 *   ...0002  the first attempt per sender is refused with 130429, later ones go through
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { Agent } from 'undici';
import TinyQueue from 'tinyqueue';
import { z } from 'zod';
import { extractVariables, renderTemplateText } from '@shared/templates';
import type { TTemplateComponent } from '@shared/types';
import type { SimulatorOutbox } from './outbox';
import { postWebhook } from './signedWebhookPost';
import { randomHex } from './randomHex';
import { SimulatorTemplates } from './templates';
import { SimulatorNumbers, type SimulatorPricing } from './numbers';
import { SimulatorEmbeddedSignup } from './embeddedSignup';
import { parameterLimitRefusal } from './sendLimits';
import { sendBodyDetails, ZServiceMessage, ZTemplateMessage, type TParameter, type TServiceMessage, type TTemplateMessage } from './sendSchemas';
import { SimulatorInbox, type TInboxMessage } from './inbox';
import { META_ERROR_TABLE } from '../sending/providers/metaErrors';
import type { WebhookRetry } from '../config';

/**
 * An error the simulator is told to answer for one sender number (tests and demos), with the
 * fields Meta's error objects carry. `times` answers it that many sends, then sends again; without
 * it every send is answered so until the fault is cleared.
 */
export interface SimulatedFault {
  code: number;
  httpStatus?: number;
  subcode?: number;
  isTransient?: boolean;
  details?: string;
  times?: number;
}

/** Meta's HTTP status for a code where it is not 400 (Graph API error handling). */
function faultHttpStatus(code: number): number {
  if (code === 190 || code === 0) return 401;
  if (code === 130429 || code === 80007 || code === 4) return 429;
  if (code === 10 || code === 200 || code === 3 || code === 368) return 403;
  if (code === 131000 || code === 131016 || code === 2 || code === 1) return 500;
  return 400;
}

export type ResolveTemplate = (
  phoneNumberId: string,
  name: string,
  language: string,
) => TTemplateComponent[] | null | Promise<TTemplateComponent[] | null>;

export interface SimulatorDelays {
  /** After the send is accepted. */
  sentMs: number;
  /** After the send is accepted (never before `sent`). */
  deliveredMs: number;
  /** After the send is accepted (never before `delivered`). */
  readMs: number;
  /** Random spread added to each delay, as a share of it (0.2 = up to +20 %). */
  jitterRatio?: number;
}

export const DEFAULT_SIMULATOR_DELAYS: SimulatorDelays = { sentMs: 50, deliveredMs: 300, readMs: 1500, jitterRatio: 0.2 };

export interface CloudApiSimulatorOptions {
  outbox: SimulatorOutbox;
  resolveTemplate: ResolveTemplate;
  /** Where status webhooks go (e.g. `http://127.0.0.1:3000/api/webhooks/whatsapp`); none when null. */
  webhook?: { url: string; appSecret: string; wabaId?: string } | null;
  /** The bearer token sends must carry; any non-empty token when not set. */
  accessToken?: string;
  /** The D360-API-KEY the 360dialog layout must carry; any non-empty key when not set. */
  channelApiKey?: string;
  /**
   * The channel a D360-API-KEY belongs to, as 360dialog knows its keys; a key with no channel is
   * refused (401). Without it the key itself stands for the channel.
   */
  channelForKey?: (apiKey: string) => string | null | Promise<string | null>;
  /** Per sender number; Meta's default throughput is 80. */
  messagesPerSecond?: number;
  /** Milliseconds for the per-sender rate limit (tests hold it still so a loaded machine cannot refill the bucket). */
  rateClock?: () => number;
  delays?: SimulatorDelays;
  /** Statuses in one webhook POST at most. */
  maxStatusesPerPost?: number;
  /** Shown as `metadata.display_phone_number` and recorded as the outbox's `from`. */
  displayPhoneNumber?: (phoneNumberId: string) => string;
  /**
   * Statuses dropped after their retries ran out, with the last failure; and the first failure of
   * an outage (`willRetry`), once, not once per retry.
   */
  onWebhookError?: (error: Error, detail: { willRetry: boolean; statuses: number }) => void;
  /** How failed webhook POSTs are retried (DEFAULT_WEBHOOK_RETRY: as Meta does, for up to 7 days). */
  webhookRetry?: Partial<WebhookRetry>;
  /** Milliseconds before a created template's review outcome (SIMULATOR_REVIEW_MS). Default 2000. */
  reviewMs?: number;
  /** The category (MARKETING, UTILITY, AUTHENTICATION) of the template a send names: the `pricing` its statuses report. */
  resolveCategory?: (phoneNumberId: string, name: string, language: string) => string | null | Promise<string | null>;
}

/**
 * Meta retries a webhook that failed (no answer, or an answer other than 200) with decreasing
 * frequency for up to 7 days; the simulator does the same, with a pause that doubles from
 * `firstDelayMs` up to `maxDelayMs`, and drops a status once it is `maxAgeMs` old.
 */
export type { WebhookRetry };

export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = { firstDelayMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 7 * 24 * 3600_000 };

export interface SimulatorAnswer {
  status: number;
  body: Record<string, unknown>;
}

const ERRORS = {
  auth: { http: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException' },
  param: { http: 400, code: 100, message: 'Invalid parameter', type: 'OAuthException' },
  throughput: { http: 429, code: 130429, message: 'Rate limit hit', type: 'OAuthException' },
  template: { http: 400, code: 132001, message: 'Template name does not exist in the translation', type: 'OAuthException' },
  params: { http: 400, code: 132000, message: 'Number of parameters does not match the expected number of params', type: 'OAuthException' },
  reengagement: { http: 400, code: 131047, message: 'Re-engagement message', type: 'OAuthException' },
} as const;

const UNDELIVERABLE = { code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' };

type SendBody = TTemplateMessage;

interface WebhookStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipient_id: string;
  /** Echoed from the send, as Meta does. */
  biz_opaque_callback_data?: string;
  /** Meta's per-message pricing, on sent, delivered and read (simulator/numbers.ts). */
  pricing?: SimulatorPricing;
  errors?: { code: number; title: string; message: string; error_data: { details: string } }[];
}

interface PendingStatus {
  dueAt: number;
  seq: number;
  phoneNumberId: string;
  /** A 360dialog send's API key: its statuses go to the webhook registered with that key. */
  channelKey?: string;
  status: Omit<WebhookStatus, 'timestamp'>;
}

function newPendingQueue(): TinyQueue<PendingStatus> {
  return new TinyQueue<PendingStatus>([], (a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
}

export class CloudApiSimulator {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly throttledOnce = new Set<string>();
  /**
   * Statuses waiting for their time, earliest first (then in the order scheduled, so a message's
   * statuses leave in order). A heap: sorting an array on every send made the simulator itself the
   * bottleneck of long sends (its CPU grew with the backlog).
   */
  private pending = newPendingQueue();
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private posting: Promise<void> | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
  private readonly idleWaiters: (() => void)[] = [];
  private webhook: CloudApiSimulatorOptions['webhook'];
  /** Accepted sends per recipient (all of them, including test numbers), for duplicate checks. */
  private readonly received = new Map<string, number>();
  private readonly retry: WebhookRetry;
  /** Failed POSTs in a row; while above 0, nothing is posted before `retryAt`. */
  private failures = 0;
  private retryAt = 0;
  /** The last failed POST's error, reported with statuses dropped after their retries. */
  private lastError: Error | null = null;
  /** Webhook POSTs that failed and were retried, and statuses dropped after their retries. */
  private readonly webhookStats = { failedPosts: 0, droppedStatuses: 0 };

  /** Template management and review (simulator/templates.ts). */
  readonly templates: SimulatorTemplates;
  /** The contacts' side: replies, button taps and photos (simulator/inbox.ts). */
  readonly inbox = new SimulatorInbox();
  /** 360dialog webhooks set with `POST /v1/configs/webhook`, by API key. */
  private readonly channelWebhooks = new Map<string, { url: string; headers: Record<string, string> }>();
  /** Numbers' health and the pricing their statuses report (simulator/numbers.ts). */
  readonly numbers: SimulatorNumbers;
  /** Meta's side of Embedded Signup: the SDK stand-in, its popup, code exchange, subscription, registration. */
  readonly embeddedSignup: SimulatorEmbeddedSignup;
  /** Errors told per sender number (setFault), and numbers whose token has expired (expireToken). */
  private readonly faults = new Map<string, SimulatedFault & { left: number | null }>();
  private readonly expiredTokens = new Set<string>();
  /** Sends answered per sender number (accepted or refused), for tests that count what reached "Meta". */
  private readonly requestsBySender = new Map<string, number>();

  /** Answers `fault` to the number's sends from now on (null clears it). */
  setFault(phoneNumberId: string, fault: SimulatedFault | null): void {
    if (fault) this.faults.set(phoneNumberId, { ...fault, left: fault.times ?? null });
    else this.faults.delete(phoneNumberId);
  }

  /** The number's token expires (every send answered 190) or, with false, is renewed. */
  expireToken(phoneNumberId: string, expired = true): void {
    if (expired) this.expiredTokens.add(phoneNumberId);
    else this.expiredTokens.delete(phoneNumberId);
  }

  /** Send requests that reached the simulator for a sender number, whatever the answer. */
  requestsFor(phoneNumberId: string): number {
    return this.requestsBySender.get(phoneNumberId) ?? 0;
  }

  private faultAnswer(sender: string): SimulatorAnswer | null {
    if (this.expiredTokens.has(sender)) {
      return metaErrorAnswer(401, { code: 190, message: 'Error validating access token: Session has expired', subcode: 463, isTransient: false });
    }
    const fault = this.faults.get(sender);
    if (!fault) return null;
    if (fault.left !== null) {
      if (fault.left <= 0) {
        this.faults.delete(sender);
        return null;
      }
      fault.left -= 1;
    }
    const title = META_ERROR_TABLE.find((row) => row.codes.includes(fault.code))?.title ?? 'Simulated error';
    return metaErrorAnswer(fault.httpStatus ?? faultHttpStatus(fault.code), {
      code: fault.code,
      message: title,
      ...(fault.subcode !== undefined ? { subcode: fault.subcode } : {}),
      isTransient: fault.isTransient ?? false,
      ...(fault.details !== undefined ? { details: fault.details } : {}),
    });
  }

  constructor(private readonly options: CloudApiSimulatorOptions) {
    this.webhook = options.webhook ?? null;
    this.retry = { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry };
    this.templates = new SimulatorTemplates({
      accessToken: options.accessToken,
      reviewMs: options.reviewMs ?? 2000,
      webhook: () => (this.webhook ? { url: this.webhook.url, appSecret: this.webhook.appSecret } : null),
      onWebhookError: (error) => options.onWebhookError?.(error, { willRetry: false, statuses: 0 }),
    });
    this.numbers = new SimulatorNumbers({
      accessToken: options.accessToken,
      webhook: () => (this.webhook ? { url: this.webhook.url, appSecret: this.webhook.appSecret } : null),
    });
    this.embeddedSignup = new SimulatorEmbeddedSignup({ accessToken: options.accessToken, numbers: this.numbers });
  }

  /** Webhook POSTs that failed (each retried later) and statuses dropped once too old, so far. */
  webhookCounts(): { failedPosts: number; droppedStatuses: number; pendingStatuses: number } {
    return { ...this.webhookStats, pendingStatuses: this.pending.length };
  }

  /** Where status webhooks go; the embedded server knows its own address only once it listens. */
  setWebhook(webhook: CloudApiSimulatorOptions['webhook']): void {
    this.webhook = webhook ?? null;
  }

  /** How many sends each recipient has received, and the recipients that received more than one. */
  receivedCounts(): { recipients: number; sends: number; repeated: { to: string; count: number }[] } {
    let sends = 0;
    const repeated: { to: string; count: number }[] = [];
    for (const [to, count] of this.received) {
      sends += count;
      if (count > 1) repeated.push({ to, count });
    }
    return { recipients: this.received.size, sends, repeated };
  }

  /**
   * One send, whichever URL layout it came through. `credential` is the bearer token (Cloud API
   * layout) or the X-API-Key (channel layout); `senderId` the phone number id or channel id.
   */
  async send(input: { senderId: string; credential: string | undefined; via: 'cloud_api' | 'channel'; body: unknown }): Promise<SimulatorAnswer> {
    let channelKey: string | undefined;
    let sender = input.senderId;
    if (input.via === 'channel') {
      const channel = await this.channelOf(input.credential);
      if (!channel) return D360_UNAUTHORIZED;
      channelKey = channel.key;
      sender = channel.id;
    } else if (!input.credential || (this.options.accessToken !== undefined && input.credential !== this.options.accessToken)) {
      return errorAnswer(ERRORS.auth);
    }

    const type = (input.body as { type?: unknown } | null)?.type;
    if (type !== undefined && type !== 'template') return this.sendService(sender, input.body, channelKey);
    // Held to Meta's TemplateMessage schema (sendSchemas.ts): a body Meta refuses is refused as Meta answers it.
    const parsed = ZTemplateMessage.safeParse(input.body);
    if (!parsed.success) return errorAnswer(ERRORS.param, sendBodyDetails(parsed.error));
    const body = parsed.data;
    const waId = body.to.replace(/\D+/g, '');
    if (waId.length < 8) return errorAnswer(ERRORS.param, 'to: not a phone number');

    this.requestsBySender.set(sender, (this.requestsBySender.get(sender) ?? 0) + 1);
    const fault = this.faultAnswer(sender);
    if (fault) return fault;
    if (!this.takeToken(sender)) return errorAnswer(ERRORS.throughput, 'Message failed to send because there were too many messages sent from this phone number in a short period of time.');
    if (waId.endsWith('0002')) {
      const key = `${sender}:${waId}`;
      if (!this.throttledOnce.has(key)) {
        this.throttledOnce.add(key);
        return errorAnswer(ERRORS.throughput, 'Test number: throttled on the first attempt.');
      }
    }

    const components = await this.options.resolveTemplate(sender, body.template.name, body.template.language.code);
    if (!components) return errorAnswer(ERRORS.template, `template name (${body.template.name}) does not exist in ${body.template.language.code}`);
    const overLimit = parameterLimitRefusal(components, body);
    if (overLimit) return errorAnswer(overLimit.error, overLimit.details);
    const rendered = renderSendBody(components, body);
    if (!rendered.ok) return errorAnswer(ERRORS.params, rendered.details);

    this.received.set(waId, (this.received.get(waId) ?? 0) + 1);
    let messageId: string;
    if (waId.endsWith('0000')) {
      messageId = `wamid.SIM${randomHex(12).toUpperCase()}`;
      this.schedule(sender, messageId, waId, [['failed', 'sentMs']], body.biz_opaque_callback_data, channelKey);
    } else {
      const from = this.options.displayPhoneNumber?.(sender) ?? sender;
      messageId = this.options.outbox.record({ to: waId, from, kind: 'template', text: rendered.text, template: body.template.name }).id;
      this.inbox.rememberButtons({ messageId, sender, to: waId, buttons: quickReplies(components, body) });
      const steps: [WebhookStatus['status'], keyof SimulatorDelays][] = [
        ['sent', 'sentMs'],
        ['delivered', 'deliveredMs'],
      ];
      if (!waId.endsWith('0001')) steps.push(['read', 'readMs']);
      const category = (await this.options.resolveCategory?.(sender, body.template.name, body.template.language.code)) ?? null;
      this.schedule(sender, messageId, waId, steps, body.biz_opaque_callback_data, channelKey, this.numbers.pricingFor(sender, category));
    }
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: waId }], messages: [{ id: messageId }] },
    };
  }

  /**
   * A free-form message (Meta's TextMessage or a media message), held to Meta's schema and to the
   * customer service window: outside it Meta answers 131047 (re-engagement message).
   */
  private async sendService(sender: string, raw: unknown, channelKey: string | undefined): Promise<SimulatorAnswer> {
    const parsed = ZServiceMessage.safeParse(raw);
    if (!parsed.success) return errorAnswer(ERRORS.param, sendBodyDetails(parsed.error));
    const body: TServiceMessage = parsed.data;
    const waId = body.to.replace(/\D+/g, '');
    if (waId.length < 8) return errorAnswer(ERRORS.param, 'to: not a phone number');
    this.requestsBySender.set(sender, (this.requestsBySender.get(sender) ?? 0) + 1);
    const fault = this.faultAnswer(sender);
    if (fault) return fault;
    if (!this.inbox.windowOpen(sender, waId)) {
      return errorAnswer(ERRORS.reengagement, 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.');
    }
    if (!this.takeToken(sender)) return errorAnswer(ERRORS.throughput, 'Message failed to send because there were too many messages sent from this phone number in a short period of time.');
    const from = this.options.displayPhoneNumber?.(sender) ?? sender;
    const media = body.type === 'image' ? body.image : body.type === 'video' ? body.video : body.type === 'document' ? body.document : body.type === 'audio' ? body.audio : null;
    const caption = media && 'caption' in media && typeof media.caption === 'string' ? media.caption : '';
    const text = body.type === 'text' ? body.text.body : `[${body.type}] ${caption} ${media?.link ?? media?.id ?? ''}`.replace(/\s+/g, ' ').trim();
    const messageId = this.options.outbox.record({ to: waId, from, kind: body.type === 'text' ? 'text' : 'media', text, template: null }).id;
    this.schedule(sender, messageId, waId, [['sent', 'sentMs'], ['delivered', 'deliveredMs'], ['read', 'readMs']], body.biz_opaque_callback_data, channelKey);
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: waId }], messages: [{ id: messageId }] } };
  }

  /**
   * The contact answers (a test or a demo, simulator/inbox.ts): a signed `messages` webhook to the
   * simulator's webhook, as Meta would post it. Answers the new message's id, or why not.
   */
  async receive(input: TInboxMessage): Promise<{ ok: true; messageId: string } | { ok: false; error: string }> {
    const webhook = this.webhook;
    if (!webhook) return { ok: false, error: 'the simulator has no webhook to post to' };
    const composed = this.inbox.compose(input, this.options.displayPhoneNumber?.(input.phone_number_id) ?? input.phone_number_id);
    if (!composed.ok) return composed;
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: webhook.wabaId ?? 'SIMULATOR_WABA', changes: [{ value: composed.value, field: 'messages' }] }] });
    const error = await postWebhook(this.agent, webhook, raw);
    return error ? { ok: false, error: error.message } : { ok: true, messageId: composed.messageId };
  }

  /**
   * Routes for both URL layouts: the Cloud API's `POST /:version/:phoneNumberId/messages` and
   * 360dialog's Messaging API, `POST /messages` and `POST|GET /v1/configs/webhook` with the
   * channel's `D360-API-KEY` (see sending/providers/channel.ts).
   * Expects a JSON body parser in front (the main app has one; startSimulatorServer adds one).
   */
  router<StateT = Koa.DefaultState>(prefix = ''): Router<StateT> {
    const router = new Router<StateT>(prefix ? { prefix } : {});
    router.post('/messages', async (ctx) => {
      const answer = await this.send({ senderId: '', credential: ctx.get('D360-API-KEY') || undefined, via: 'channel', body: ctx.request.body });
      ctx.status = answer.status;
      ctx.body = answer.body;
    });
    router.post('/v1/configs/webhook', async (ctx) => {
      const answer = await this.setChannelWebhook(ctx.get('D360-API-KEY') || undefined, ctx.request.body);
      ctx.status = answer.status;
      ctx.body = answer.body;
    });
    router.get('/v1/configs/webhook', async (ctx) => {
      const channel = await this.channelOf(ctx.get('D360-API-KEY') || undefined);
      const webhook = channel ? this.channelWebhooks.get(channel.key) : undefined;
      const answer: SimulatorAnswer = !channel ? D360_UNAUTHORIZED : { status: 200, body: webhook ? { url: webhook.url, headers: webhook.headers } : { url: null } };
      ctx.status = answer.status;
      ctx.body = answer.body;
    });
    router.post('/:version/:phoneNumberId/messages', async (ctx) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
      const answer = await this.send({ senderId: ctx.params.phoneNumberId ?? '', credential: bearer, via: 'cloud_api', body: ctx.request.body });
      ctx.status = answer.status;
      ctx.body = answer.body;
    });
    router.get('/received-counts', (ctx) => {
      ctx.body = this.receivedCounts();
    });
    // Meta's media endpoint for a contact's file: its URL, then its bytes, with the bearer token.
    router.get('/media-files/:mediaId', (ctx) => {
      const media = this.inbox.mediaInfo(ctx.params.mediaId ?? '');
      const answer = this.mediaAuth(ctx.get('Authorization'));
      if (answer) {
        ctx.status = answer.status;
        ctx.body = answer.body;
      } else if (!media) ctx.status = 404;
      else {
        ctx.type = media.mime;
        ctx.body = media.bytes;
      }
    });
    router.get('/:version/:mediaId', async (ctx, next) => {
      const media = this.inbox.mediaInfo(ctx.params.mediaId ?? '');
      if (!media) return next();
      const answer = this.mediaAuth(ctx.get('Authorization'));
      ctx.status = answer?.status ?? 200;
      ctx.body = answer?.body ?? {
        messaging_product: 'whatsapp',
        url: `${ctx.protocol}://${ctx.host}${ctx.path.replace(/\/[^/]+\/[^/]+$/, '')}/media-files/${ctx.params.mediaId}`,
        mime_type: media.mime,
        sha256: createHash('sha256').update(media.bytes).digest('hex'),
        file_size: media.bytes.length,
        id: ctx.params.mediaId,
      };
    });
    this.templates.register(router);
    this.embeddedSignup.register(router);
    this.numbers.register(router);
    return router;
  }

  private mediaAuth(header: string): SimulatorAnswer | null {
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!bearer || (this.options.accessToken !== undefined && bearer !== this.options.accessToken)) return errorAnswer(ERRORS.auth);
    return null;
  }

  /** The channel a D360-API-KEY stands for; null when 360dialog would refuse the key. */
  private async channelOf(key: string | undefined): Promise<{ key: string; id: string } | null> {
    if (!key || (this.options.channelApiKey !== undefined && key !== this.options.channelApiKey)) return null;
    const id = this.options.channelForKey ? await this.options.channelForKey(key) : key;
    return id ? { key, id } : null;
  }

  /** 360dialog's `POST /v1/configs/webhook`: `{ url, headers? }`, answered with what was set. */
  async setChannelWebhook(key: string | undefined, body: unknown): Promise<SimulatorAnswer> {
    const channel = await this.channelOf(key);
    if (!channel) return D360_UNAUTHORIZED;
    const parsed = ZChannelWebhook.safeParse(body);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
      return { status: 400, body: { meta: { success: false, http_code: 400, developer_message: 'Invalid webhook configuration', details } } };
    }
    const webhook = { url: parsed.data.url, headers: parsed.data.headers ?? {} };
    this.channelWebhooks.set(channel.key, webhook);
    return { status: 200, body: webhook };
  }

  /** The webhook a 360dialog API key registered, if any (tests). */
  channelWebhook(key: string): { url: string; headers: Record<string, string> } | null {
    return this.channelWebhooks.get(key) ?? null;
  }

  /** Resolves once every scheduled webhook has been posted (or dropped). For tests and benchmarks. */
  whenIdle(): Promise<void> {
    if (this.pending.length === 0 && !this.posting) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops pending webhooks (they are dropped), waits for the one in flight, closes connections. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.pending = newPendingQueue();
      await this.posting;
      this.notifyIdle();
      await this.templates.close();
      await this.numbers.close();
      await this.agent.close();
    })();
    return this.closing;
  }

  private takeToken(sender: string): boolean {
    // A number told its throughput level (simulator/numbers.ts) is held to that level's rate.
    const rate = this.numbers.rateOf(sender) ?? this.options.messagesPerSecond ?? 80;
    const now = this.options.rateClock?.() ?? performance.now();
    const bucket = this.buckets.get(sender) ?? { tokens: rate, at: now };
    // A bucket of one second's worth: a burst of `rate` at once, then `rate` per second.
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(sender, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private schedule(
    sender: string,
    id: string,
    recipient: string,
    steps: [WebhookStatus['status'], keyof SimulatorDelays][],
    callbackData?: string,
    channelKey?: string,
    pricing?: WebhookStatus['pricing'],
  ): void {
    if ((channelKey === undefined ? !this.webhook : !this.channelWebhooks.has(channelKey)) || this.closed) return;
    // Meta names the number by its own phone number id; a 360dialog channel's differs from its channel id.
    const phoneNumberId = channelKey === undefined ? sender : d360PhoneNumberId(sender);
    const delays = this.options.delays ?? DEFAULT_SIMULATOR_DELAYS;
    const jitter = delays.jitterRatio ?? 0;
    const now = Date.now();
    let previous = now;
    for (const [status, delayKey] of steps) {
      const base = Number(delays[delayKey]) || 0;
      // Never before the previous step: a message's statuses leave in order even with jitter.
      const dueAt = Math.max(previous, now + base + Math.random() * jitter * base);
      previous = dueAt;
      const item: PendingStatus = {
        dueAt,
        seq: this.seq++,
        phoneNumberId,
        ...(channelKey === undefined ? {} : { channelKey }),
        status: { id, status, recipient_id: recipient, ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}) },
      };
      if (pricing && status !== 'failed') item.status.pricing = pricing;
      if (status === 'failed') {
        item.status.errors = [{ code: UNDELIVERABLE.code, title: UNDELIVERABLE.title, message: UNDELIVERABLE.title, error_data: { details: UNDELIVERABLE.details } }];
      }
      this.pending.push(item);
    }
    this.arm();
  }

  private arm(): void {
    if (this.closed || this.posting || this.pending.length === 0) return;
    // After a failed POST nothing leaves before the retry: the failed statuses go first then, so a
    // message's statuses still arrive in order.
    const next = Math.max((this.pending.peek() as PendingStatus).dueAt, this.failures > 0 ? this.retryAt : 0);
    if (this.timer && this.timerAt <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    // Rounded up: jittered due times are fractional, and an early timer would only find nothing due.
    this.timer = setTimeout(() => this.flush(), Math.max(0, Math.ceil(next - Date.now())));
  }

  /** Posts what is due, one POST at a time so that a message's statuses arrive in order. */
  private flush(): void {
    this.timer = null;
    this.timerAt = Infinity;
    if (this.closed || this.posting) return;
    const now = Date.now();
    if (this.failures > 0 && now < this.retryAt) return this.arm();
    const limit = this.options.maxStatusesPerPost ?? 100;
    const batch: PendingStatus[] = [];
    let expired = 0;
    while (batch.length < limit && this.pending.length > 0 && (this.pending.peek() as PendingStatus).dueAt <= now) {
      const item = this.pending.pop() as PendingStatus;
      // Older than the retries last: dropped, as Meta drops a webhook after 7 days of failures.
      if (now - item.dueAt > this.retry.maxAgeMs) expired += 1;
      else batch.push(item);
    }
    if (expired > 0) {
      this.webhookStats.droppedStatuses += expired;
      this.options.onWebhookError?.(this.lastError ?? new Error('webhook statuses expired'), { willRetry: false, statuses: expired });
    }
    if (batch.length === 0) {
      if (this.pending.length === 0) this.notifyIdle();
      return this.arm();
    }
    this.posting = this.deliver(batch).finally(() => {
      this.posting = null;
      if (this.pending.length === 0) this.notifyIdle();
      else this.arm();
    });
  }

  /**
   * Posts a batch once. A failure puts its statuses back (they keep their place, ahead of later
   * ones) and holds every POST back until the retry, the pause doubling with each failure in a row.
   */
  private async deliver(batch: PendingStatus[]): Promise<void> {
    const error = await this.post(batch);
    if (this.closed) return;
    if (!error) {
      this.failures = 0;
      this.lastError = null;
      return;
    }
    this.webhookStats.failedPosts += 1;
    if (this.failures === 0) this.options.onWebhookError?.(error, { willRetry: true, statuses: batch.length });
    this.failures += 1;
    this.lastError = error;
    this.retryAt = Date.now() + Math.min(this.retry.maxDelayMs, this.retry.firstDelayMs * 2 ** Math.min(this.failures - 1, 30));
    for (const item of batch) this.pending.push(item);
  }

  /**
   * POSTs these statuses: Meta's to the simulator's webhook, signed; each 360dialog channel's to the
   * webhook its key registered, unsigned with the registered headers. Answers the first failure, or
   * null when every endpoint took its part.
   */
  private async post(batch: PendingStatus[]): Promise<Error | null> {
    const byRoute = new Map<string, PendingStatus[]>();
    for (const item of batch) {
      const route = item.channelKey ?? '';
      byRoute.set(route, [...(byRoute.get(route) ?? []), item]);
    }
    let failure: Error | null = null;
    for (const [route, items] of byRoute) {
      const error = route === '' ? await this.postToMeta(items) : await this.postToChannel(route, items);
      failure ??= error;
    }
    return failure;
  }

  private envelope(items: PendingStatus[], wabaId: string): string {
    const byNumber = new Map<string, WebhookStatus[]>();
    for (const item of items) {
      const list = byNumber.get(item.phoneNumberId) ?? [];
      list.push({ ...item.status, timestamp: String(Math.floor(item.dueAt / 1000)) });
      byNumber.set(item.phoneNumberId, list);
    }
    return JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: wabaId,
          changes: [...byNumber].map(([phoneNumberId, statuses]) => ({
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: this.options.displayPhoneNumber?.(phoneNumberId) ?? phoneNumberId, phone_number_id: phoneNumberId },
              statuses,
            },
          })),
        },
      ],
    });
  }

  private async postToMeta(items: PendingStatus[]): Promise<Error | null> {
    const webhook = this.webhook;
    if (!webhook) return null;
    return postWebhook(this.agent, webhook, this.envelope(items, webhook.wabaId ?? 'SIMULATOR_WABA'));
  }

  private async postToChannel(key: string, items: PendingStatus[]): Promise<Error | null> {
    const webhook = this.channelWebhooks.get(key);
    if (!webhook) return null;
    return postWebhook(this.agent, webhook, this.envelope(items, 'SIMULATOR_D360_WABA'));
  }

  private notifyIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

/** 360dialog's own refusal of a missing or unknown D360-API-KEY (its Messaging API: 401, `{ error }`). */
const D360_UNAUTHORIZED: SimulatorAnswer = { status: 401, body: { error: 'Invalid or missing D360-API-KEY' } };

const ZChannelWebhook = z.object({ url: z.url(), headers: z.record(z.string(), z.string()).optional() });

/** A stable, Meta-like (numeric) phone number id for a simulated 360dialog channel. */
export function d360PhoneNumberId(channelId: string): string {
  return `1${BigInt(`0x${createHash('sha256').update(channelId).digest('hex').slice(0, 12)}`).toString().padStart(15, '0')}`;
}

function errorAnswer(error: { http: number; code: number; message: string; type: string }, details?: string): SimulatorAnswer {
  return {
    status: error.http,
    body: {
      error: {
        message: `(#${error.code}) ${error.message}`,
        type: error.type,
        code: error.code,
        error_data: { messaging_product: 'whatsapp', details: details ?? error.message },
        fbtrace_id: `SIM${randomHex(8)}`,
      },
    },
  };
}

/** An error object as Meta's Graph API answers it, with the fields a told fault carries. */
function metaErrorAnswer(status: number, error: { code: number; message: string; subcode?: number; isTransient?: boolean; details?: string }): SimulatorAnswer {
  return {
    status,
    body: {
      error: {
        message: `(#${error.code}) ${error.message}`,
        type: 'OAuthException',
        code: error.code,
        ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
        ...(error.isTransient !== undefined ? { is_transient: error.isTransient } : {}),
        error_data: { messaging_product: 'whatsapp', details: error.details ?? error.message },
        fbtrace_id: `SIM${randomHex(8)}`,
      },
    },
  };
}

/** A template's quick-reply buttons with the payload the send gave each (by its index), for the contact to tap. */
function quickReplies(components: TTemplateComponent[], body: SendBody): { text: string; payload: string | null }[] {
  const buttons = components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const sent = (body.template.components ?? []).flatMap((c) => (c.type === 'button' && c.sub_type === 'quick_reply' ? [c] : []));
  return buttons.flatMap((button, index) => {
    if (button.type !== 'QUICK_REPLY') return [];
    const parameter = sent.find((c) => c.index === String(index))?.parameters[0];
    return [{ text: button.text, payload: parameter && parameter.type === 'payload' ? parameter.payload : null }];
  });
}

type Rendered = { ok: true; text: string } | { ok: false; details: string };

/** What a parameter shows in the text: its text, or a currency's or date's fallback; media show nothing. */
export function parameterText(parameter: TParameter): string {
  if (parameter.type === 'text') return parameter.text;
  if (parameter.type === 'currency') return parameter.currency.fallback_value;
  if (parameter.type === 'date_time') return parameter.date_time.fallback_value;
  return '';
}

function parameterName(parameter: TParameter): string | undefined {
  return parameter.type === 'text' || parameter.type === 'currency' || parameter.type === 'date_time' ? parameter.parameter_name : undefined;
}

/**
 * The text a recipient would see: header (text headers only), body and footer with the send's
 * parameters filled in, positionally into {{1}}, {{2}}, ... or by `parameter_name` for named
 * variables. A count that does not match the template is refused, as Meta does (132000).
 */
function renderSendBody(components: TTemplateComponent[], body: SendBody): Rendered {
  const parametersOf = (type: 'header' | 'body'): TParameter[] => {
    const component = (body.template.components ?? []).find((c) => c.type === type);
    return component && component.type !== 'button' ? (component.parameters ?? []) : [];
  };
  const parts: string[] = [];
  for (const component of components) {
    if (component.type === 'FOOTER' && component.text) parts.push(component.text);
    if (component.type !== 'BODY' && !(component.type === 'HEADER' && (component.format ?? 'TEXT') === 'TEXT')) continue;
    const text = component.text ?? '';
    const kind = component.type === 'BODY' ? 'body' : 'header';
    const variables = extractVariables({ bodyText: text });
    const parameters = parametersOf(kind);
    if (parameters.length !== variables.length) {
      return { ok: false, details: `${kind}: expected number of params (${variables.length}) does not match received number of params (${parameters.length})` };
    }
    const values: Record<string, string> = {};
    parameters.forEach((parameter, index) => {
      values[parameterName(parameter) ?? String(index + 1)] = parameterText(parameter);
    });
    parts.push(renderTemplateText(text, values));
  }
  // Components come in template order (HEADER, BODY, FOOTER); the footer was pushed in place.
  return { ok: true, text: parts.filter(Boolean).join('\n\n') };
}

export interface SimulatorServer {
  url: string;
  port: number;
  simulator: CloudApiSimulator;
  close(): Promise<void>;
}

/** The simulator on its own port (tests, benchmarks, a separate dev process). Port 0 picks a free one. */
export async function startSimulatorServer(options: CloudApiSimulatorOptions & { port?: number; host?: string }): Promise<SimulatorServer> {
  const simulator = new CloudApiSimulator(options);
  const app = new Koa();
  app.silent = true;
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb' }));
  const router = simulator.router();
  app.use(router.routes());
  app.use(router.allowedMethods());
  const host = options.host ?? '127.0.0.1';
  const server = app.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Short keep-alive so close() is not held up by idle client sockets.
  server.keepAliveTimeout = 5_000;
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    simulator,
    close: () =>
      (closing ??= (async () => {
        await simulator.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
