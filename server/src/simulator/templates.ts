/**
 * The simulator's stand-in for Meta's template management: `message_templates` (create, list with
 * cursor paging, delete by name), the resumable upload that gives a media header its handle, and
 * Meta's review, which answers after `reviewMs`: a name containing `reject` is rejected with a
 * reason, any other approved, and the outcome is posted as a signed
 * `message_template_status_update` webhook, as Meta does. The same store answers the channel
 * provider's template API in 360dialog's layout (`/v1/configs/templates`, `D360-API-KEY`, limit and
 * offset paging, delete by name in the path, the resumable upload at `/uploads`).
 *
 * Deterministic test names: a name containing `reject` is rejected by the review; one containing
 * `unavailable` is answered 503 at its first create (Meta down for a moment), and taken at the next.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { Agent } from 'undici';
import { z } from 'zod';
import { postWebhook } from './signedWebhookPost';
import { randomHex } from './randomHex';

/** Where review webhooks go, read at each post (the embedded server learns its address late). */
export type TemplateWebhookTarget = () => { url: string; appSecret: string } | null;

export interface SimulatorTemplatesOptions {
  /** The bearer token calls must carry; any non-empty token when not set. */
  accessToken?: string | undefined;
  /** Milliseconds from creation to the review's outcome. */
  reviewMs: number;
  webhook: TemplateWebhookTarget;
  /** A review webhook that failed after its tries. */
  onWebhookError?: ((error: Error) => void) | undefined;
  /** Bytes one upload session may take at most. */
  maxUploadBytes?: number;
  /**
   * The business account the channel provider's layout (360dialog's `/v1/configs/templates`)
   * keeps its templates in; its review webhooks name this account. Default `SIMULATOR_WABA`.
   */
  channelWabaId?: string;
  /** The D360-API-KEY the channel layout must carry; any non-empty key when not set. */
  channelApiKey?: string | undefined;
}

export interface SimulatedTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  /** Meta's status word; tests may set any of Meta's others (PAUSED, DISABLED, ...) with alter(). */
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED' | 'FLAGGED' | 'IN_APPEAL';
  components: unknown[];
  rejectedReason?: string;
  /** Meta's quality score, listed as `quality_score.score` when set. */
  quality?: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
}

/** What tests make the simulator answer instead of the real thing, per business account. */
interface TemplateFaults {
  /** List pages after the first answer HTTP 500 (an outage part way through a sync). */
  failPagesAfterFirst: boolean;
  /** Names whose delete Meta refuses, with its message. */
  refuseDelete: Map<string, string>;
}

interface UploadSession {
  fileLength: number;
  fileType: string;
  offset: number;
  handle: string | null;
}

/**
 * Meta's body for creating a template: the fields its reference marks as the request's own
 * (name, language, category, components); others are passed through as Meta does. Names are
 * lowercase letters, digits and underscores, up to 512 characters, as Meta's guide says.
 */
export const ZCreateTemplateBody = z.looseObject({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, 'name: lowercase letters, digits and underscores only'),
  language: z.string().min(2).max(15),
  category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']),
  components: z.array(z.looseObject({ type: z.string().min(1) })).min(1),
  allow_category_change: z.boolean().optional(),
  parameter_format: z.enum(['positional', 'named', 'POSITIONAL', 'NAMED']).optional(),
});

/** Meta's edit of a template: new components, and a category when it changes. */
const ZEditTemplateBody = z.looseObject({
  category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']).optional(),
  components: z.array(z.looseObject({ type: z.string().min(1) })).min(1),
});

const ERRORS = {
  auth: { http: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException' },
  param: { http: 400, code: 100, message: 'Invalid parameter', type: 'OAuthException' },
  unavailable: { http: 503, code: 2, message: 'Service temporarily unavailable', type: 'OAuthException' },
} as const;

/** Meta's subcode for a template whose name and language exist already. */
const TEMPLATE_EXISTS_SUBCODE = 2388024;
const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;
const WEBHOOK_ATTEMPTS = 3;

type Answer = { status: number; body: Record<string, unknown> };

function errorAnswer(error: { http: number; code: number; message: string; type: string }, details: string, subcode?: number): Answer {
  return {
    status: error.http,
    body: { error: { message: `(#${error.code}) ${error.message}`, type: error.type, code: error.code, ...(subcode ? { error_subcode: subcode } : {}), error_user_msg: details, fbtrace_id: `SIM${randomHex(8)}` } },
  };
}

const cursorOf = (id: string) => Buffer.from(id).toString('base64url');
const idOfCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

export class SimulatorTemplates {
  private readonly templates: SimulatedTemplate[] = [];
  private readonly uploads = new Map<string, UploadSession>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly posts = new Set<Promise<void>>();
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 2 });
  private nextId = 1;
  private closed = false;
  private readonly faults = new Map<string, TemplateFaults>();
  /** Names whose first create was answered 503 already. */
  private readonly unavailableOnce = new Set<string>();
  /** Templates whose review waits for a test's release (`holdReviews`); null when reviews run. */
  private heldReviews: SimulatedTemplate[] | null = null;

  constructor(private readonly options: SimulatorTemplatesOptions) {}

  /** The templates of a business account, in creation order. For tests. */
  list(wabaId: string): SimulatedTemplate[] {
    return this.templates.filter((t) => t.wabaId === wabaId);
  }

  /**
   * Puts a template straight into a business account, as if made and reviewed in WhatsApp Manager
   * (never through Sandesh): no review, no webhook. For tests.
   */
  seed(wabaId: string, template: Omit<SimulatedTemplate, 'id' | 'wabaId' | 'status'> & { status?: SimulatedTemplate['status'] }): SimulatedTemplate {
    const seeded: SimulatedTemplate = { ...template, status: template.status ?? 'APPROVED', wabaId, id: String(1_000_000_000_000 + this.nextId++) };
    this.templates.push(seeded);
    return seeded;
  }

  /** Changes a listed template as Meta would without telling (a missed webhook). For tests. */
  alter(id: string, change: Partial<Pick<SimulatedTemplate, 'status' | 'category' | 'quality' | 'rejectedReason'>>): void {
    const template = this.templates.find((t) => t.id === id);
    if (template) Object.assign(template, change);
  }

  /** Makes the account's list fail after its first page, or its delete of a name refused; null clears. For tests. */
  fault(wabaId: string, fault: { failPagesAfterFirst?: boolean; refuseDelete?: { name: string; message: string } } | null): void {
    if (!fault) {
      this.faults.delete(wabaId);
      return;
    }
    const faults = this.faults.get(wabaId) ?? { failPagesAfterFirst: false, refuseDelete: new Map<string, string>() };
    if (fault.failPagesAfterFirst !== undefined) faults.failPagesAfterFirst = fault.failPagesAfterFirst;
    if (fault.refuseDelete) faults.refuseDelete.set(fault.refuseDelete.name, fault.refuseDelete.message);
    this.faults.set(wabaId, faults);
  }

  create(wabaId: string, body: unknown): Answer {
    const parsed = ZCreateTemplateBody.safeParse(body);
    if (!parsed.success) return errorAnswer(ERRORS.param, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const { name, language, category, components } = parsed.data;
    if (name.includes('unavailable') && !this.unavailableOnce.has(`${wabaId}:${name}:${language}`)) {
      this.unavailableOnce.add(`${wabaId}:${name}:${language}`);
      return errorAnswer(ERRORS.unavailable, 'Service temporarily unavailable');
    }
    if (this.templates.some((t) => t.wabaId === wabaId && t.name === name && t.language === language)) {
      return errorAnswer(ERRORS.param, `Content in this language already exists for ${name}`, TEMPLATE_EXISTS_SUBCODE);
    }
    // Meta's ids are long decimal numbers, unique across accounts.
    const id = String(1_000_000_000_000 + this.nextId++);
    const template: SimulatedTemplate = { id, wabaId, name, language, category, status: 'PENDING', components };
    this.templates.push(template);
    this.scheduleReview(template);
    return { status: 200, body: { id, status: 'PENDING', category } };
  }

  /**
   * Meta's edit (`POST /{template-id}`): new components (and category) for a template, which goes
   * back to review; how a template Meta rejected is submitted again.
   */
  edit(templateId: string, body: unknown): Answer | null {
    const template = this.templates.find((t) => t.id === templateId);
    if (!template) return null;
    const parsed = ZEditTemplateBody.safeParse(body);
    if (!parsed.success) return errorAnswer(ERRORS.param, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    template.components = parsed.data.components;
    if (parsed.data.category) template.category = parsed.data.category;
    template.status = 'PENDING';
    delete template.rejectedReason;
    this.scheduleReview(template);
    return { status: 200, body: { success: true } };
  }

  /** 360dialog's list: `waba_templates` paged by `limit` and `offset`, with `count` and `total`. */
  channelPage(query: Record<string, unknown>): Answer {
    const number = (key: string, fallback: number) => (typeof query[key] === 'string' && /^\d+$/.test(query[key] as string) ? Number(query[key]) : fallback);
    const limit = Math.min(MAX_PAGE, Math.max(1, number('limit', DEFAULT_PAGE)));
    const offset = number('offset', 0);
    const all = this.list(this.channelWabaId);
    const rows = all.slice(offset, offset + limit);
    return {
      status: 200,
      body: {
        count: rows.length,
        limit,
        offset,
        total: all.length,
        waba_templates: rows.map((t) => ({ id: t.id, name: t.name, language: t.language, status: t.status.toLowerCase(), category: t.category, components: t.components, rejected_reason: t.rejectedReason ?? 'NONE' })),
      },
    };
  }

  private get channelWabaId(): string {
    return this.options.channelWabaId ?? 'SIMULATOR_WABA';
  }

  /** Meta's list: `data` and cursor `paging`; `limit`, `after`, `before` and `name` as Meta reads them. */
  page(wabaId: string, query: Record<string, unknown>, selfUrl: string): Answer {
    const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : undefined);
    const limit = Math.min(MAX_PAGE, Math.max(1, Number(text('limit')) || DEFAULT_PAGE));
    const name = text('name');
    const all = this.list(wabaId).filter((t) => !name || t.name === name);
    let start = 0;
    const after = text('after');
    const before = text('before');
    if (after && this.faults.get(wabaId)?.failPagesAfterFirst) {
      return { status: 500, body: { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1, is_transient: true, fbtrace_id: `SIM${randomHex(8)}` } } };
    }
    if (after) start = all.findIndex((t) => t.id === idOfCursor(after)) + 1;
    else if (before) start = Math.max(0, all.findIndex((t) => t.id === idOfCursor(before)) - limit);
    const rows = all.slice(start, start + limit);
    const body: Record<string, unknown> = {
      data: rows.map((t) => ({ name: t.name, components: t.components, language: t.language, status: t.status, category: t.category, id: t.id, ...(t.rejectedReason ? { rejected_reason: t.rejectedReason } : {}), ...(t.quality ? { quality_score: { score: t.quality } } : {}) })),
    };
    if (rows.length > 0) {
      const paging: Record<string, unknown> = { cursors: { before: cursorOf(rows[0]!.id), after: cursorOf(rows[rows.length - 1]!.id) } };
      const link = (key: 'after' | 'before', cursor: string) => {
        const url = new URL(selfUrl);
        url.searchParams.delete('after');
        url.searchParams.delete('before');
        url.searchParams.set('limit', String(limit));
        url.searchParams.set(key, cursor);
        return url.toString();
      };
      if (start + limit < all.length) paging.next = link('after', cursorOf(rows[rows.length - 1]!.id));
      if (start > 0) paging.previous = link('before', cursorOf(rows[0]!.id));
      body.paging = paging;
    }
    return { status: 200, body };
  }

  /** Meta's delete by name removes the template in every language; `hsm_id` narrows it to one. */
  remove(wabaId: string, query: Record<string, unknown>): Answer {
    const name = typeof query.name === 'string' ? query.name : '';
    const hsmId = typeof query.hsm_id === 'string' ? query.hsm_id : undefined;
    if (!name) return errorAnswer(ERRORS.param, 'name: required');
    const doomed = this.templates.filter((t) => t.wabaId === wabaId && t.name === name && (!hsmId || t.id === hsmId));
    if (doomed.length === 0) return errorAnswer(ERRORS.param, `Message template "${name}" not found`);
    const refusal = this.faults.get(wabaId)?.refuseDelete.get(name);
    if (refusal) return errorAnswer(ERRORS.param, refusal);
    for (const template of doomed) this.templates.splice(this.templates.indexOf(template), 1);
    return { status: 200, body: { success: true } };
  }

  /** Starts a resumable upload session: `POST /{app-id}/uploads?file_length=&file_type=`. */
  startUpload(query: Record<string, unknown>): Answer {
    const fileLength = Number(query.file_length);
    const fileType = typeof query.file_type === 'string' ? query.file_type : '';
    const max = this.options.maxUploadBytes ?? 100 * 1024 * 1024;
    if (!Number.isInteger(fileLength) || fileLength <= 0 || fileLength > max) return errorAnswer(ERRORS.param, 'file_length: a positive whole number of bytes is required');
    if (!/^[a-z]+\/[a-z0-9.+-]+$/i.test(fileType)) return errorAnswer(ERRORS.param, 'file_type: a MIME type is required');
    const id = `upload:${randomHex(16)}`;
    this.uploads.set(id, { fileLength, fileType, offset: 0, handle: null });
    return { status: 200, body: { id } };
  }

  /** Takes bytes from `file_offset` on; answers the handle once the whole file is there. */
  async continueUpload(id: string, fileOffset: string, stream: AsyncIterable<Buffer | string>): Promise<Answer> {
    const session = this.uploads.get(id);
    if (!session) return errorAnswer(ERRORS.param, 'Upload session not found');
    const offset = Number(fileOffset || '0');
    if (!Number.isInteger(offset) || offset !== session.offset) return errorAnswer(ERRORS.param, `file_offset: the session is at ${session.offset}`);
    let received = 0;
    for await (const chunk of stream) {
      received += chunk.length;
      if (offset + received > session.fileLength) return errorAnswer(ERRORS.param, 'More bytes than file_length');
    }
    session.offset += received;
    if (session.offset < session.fileLength) return { status: 200, body: { id, file_offset: session.offset } };
    session.handle ??= `4::${Buffer.from(session.fileType).toString('base64')}:${randomHex(24)}`;
    return { status: 200, body: { h: session.handle } };
  }

  uploadStatus(id: string): Answer {
    const session = this.uploads.get(id);
    if (!session) return errorAnswer(ERRORS.param, 'Upload session not found');
    return { status: 200, body: { id, file_offset: session.offset } };
  }

  /** Registers the routes on the simulator's router (after its own, so `/:version/upload:...` does not shadow them). */
  register<StateT>(router: Router<StateT>): void {
    const authorised = (ctx: Koa.Context): boolean => {
      const header = ctx.get('Authorization');
      const token = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header)?.[1] ?? (typeof ctx.query.access_token === 'string' ? ctx.query.access_token : undefined);
      return !!token && (this.options.accessToken === undefined || token === this.options.accessToken);
    };
    const answer = (ctx: Koa.Context, result: Answer) => {
      ctx.status = result.status;
      ctx.body = result.body;
    };
    const guarded = (handler: (ctx: Koa.Context) => Answer | Promise<Answer>) => async (ctx: Koa.Context) => {
      answer(ctx, authorised(ctx) ? await handler(ctx) : errorAnswer(ERRORS.auth, 'Invalid OAuth access token'));
    };
    // The channel provider's layout (360dialog): its API key in D360-API-KEY.
    const channelAuthorised = (ctx: Koa.Context): boolean => {
      const key = ctx.get('D360-API-KEY');
      return !!key && (this.options.channelApiKey === undefined || key === this.options.channelApiKey);
    };
    const channel = (handler: (ctx: Koa.Context) => Answer | Promise<Answer>) => async (ctx: Koa.Context) => {
      answer(ctx, channelAuthorised(ctx) ? await handler(ctx) : errorAnswer(ERRORS.auth, 'Invalid D360-API-KEY'));
    };
    router.post('/v1/configs/templates', channel((ctx) => this.create(this.channelWabaId, ctx.request.body)));
    router.get('/v1/configs/templates', channel((ctx) => this.channelPage(ctx.query)));
    router.delete('/v1/configs/templates/:name', channel((ctx) => this.remove(this.channelWabaId, { name: ctx.params.name ?? '' })));
    router.post('/uploads', channel((ctx) => this.startUpload(ctx.query)));
    router.post('/:uploadId', async (ctx, next) => {
      if (!ctx.params.uploadId?.startsWith('upload:')) return next();
      await channel((c) => this.continueUpload(c.params.uploadId ?? '', c.get('file_offset'), c.req))(ctx);
    });
    router.post('/:version/:wabaId/message_templates', guarded((ctx) => this.create(ctx.params.wabaId ?? '', ctx.request.body)));
    router.get('/:version/:wabaId/message_templates', guarded((ctx) => this.page(ctx.params.wabaId ?? '', ctx.query, ctx.href)));
    router.delete('/:version/:wabaId/message_templates', guarded((ctx) => this.remove(ctx.params.wabaId ?? '', ctx.query)));
    router.post('/:version/:appId/uploads', guarded((ctx) => this.startUpload(ctx.query)));
    router.post('/:version/:uploadId', async (ctx, next) => {
      if (!ctx.params.uploadId?.startsWith('upload:')) return next();
      await guarded((c) => this.continueUpload(c.params.uploadId ?? '', c.get('file_offset'), c.req))(ctx);
    });
    router.post('/:version/:templateId', async (ctx, next) => {
      const id = ctx.params.templateId ?? '';
      if (!/^\d+$/.test(id) || !this.templates.some((t) => t.id === id)) return next();
      await guarded((c) => this.edit(id, c.request.body) as Answer)(ctx);
    });
    router.get('/:version/:uploadId', async (ctx, next) => {
      if (!ctx.params.uploadId?.startsWith('upload:')) return next();
      await guarded((c) => this.uploadStatus(c.params.uploadId ?? ''))(ctx);
    });
  }

  /** Resolves once every review due has been posted. For tests. */
  async whenReviewed(): Promise<void> {
    while (this.timers.size > 0 || this.posts.size > 0) await Promise.race([...this.posts, new Promise((resolve) => setTimeout(resolve, 10))]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.posts]);
    await this.agent.close();
  }

  /**
   * Test control: reviews asked for from now on wait until the returned release is called. Meta's
   * review takes minutes, the simulator's milliseconds; a test that looks at a template between
   * its submission and its review holds the review rather than racing it.
   */
  holdReviews(): () => void {
    this.heldReviews ??= [];
    return () => {
      const waiting = this.heldReviews ?? [];
      this.heldReviews = null;
      for (const template of waiting) this.scheduleReview(template);
    };
  }

  private scheduleReview(template: SimulatedTemplate): void {
    if (this.closed) return;
    if (this.heldReviews) {
      if (!this.heldReviews.includes(template)) this.heldReviews.push(template);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.templates.includes(template)) return;
      const rejected = template.name.includes('reject');
      template.status = rejected ? 'REJECTED' : 'APPROVED';
      if (rejected) template.rejectedReason = 'INVALID_FORMAT';
      const post = this.postReview(template).finally(() => this.posts.delete(post));
      this.posts.add(post);
    }, Math.max(0, this.options.reviewMs));
    this.timers.add(timer);
  }

  /** Meta's `message_template_status_update`, signed with the app secret. */
  private async postReview(template: SimulatedTemplate): Promise<void> {
    const target = this.options.webhook();
    if (!target) return;
    const envelope = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: template.wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: template.status,
                message_template_id: Number(template.id),
                message_template_name: template.name,
                message_template_language: template.language,
                message_template_category: template.category,
                reason: template.rejectedReason ?? 'NONE',
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(envelope);
    let lastError: Error | null = null;
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS && !this.closed; attempt++) {
      lastError = await postWebhook(this.agent, target, raw);
      if (!lastError) return;
      if (attempt < WEBHOOK_ATTEMPTS && !this.closed) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
    if (lastError && !this.closed) this.options.onWebhookError?.(lastError);
  }
}
