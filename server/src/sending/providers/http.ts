/**
 * What both adapters share: a kept-alive undici Agent, the Cloud API template message body, and
 * turning an HTTP answer (or its absence) into a SendResult.
 */
import { Agent, request } from 'undici';
import { parseCloudApiWebhook, verifyWebhookHandshake, verifyWebhookSignature } from './webhooks';
import { NETWORK_ERROR_CODE, sendFailure, type HandshakeResult, type MediaFetchResult, type SendResult, type ServiceSendRequest, type StatusEvent, type TemplateSendRequest, type WebhookEvents } from './types';

export interface HttpSettings {
  /** Whole-request limit (connect, headers and body). Default 15 s. */
  timeoutMs?: number;
  /** Connections per origin; the dispatcher sends many messages at once. Default 64. */
  connections?: number;
  /** How long an idle connection is kept for reuse. Default 30 s. */
  keepAliveMs?: number;
}

export function createAgent(settings: HttpSettings): Agent {
  const timeout = settings.timeoutMs ?? 15_000;
  return new Agent({
    connections: settings.connections ?? 64,
    keepAliveTimeout: settings.keepAliveMs ?? 30_000,
    keepAliveMaxTimeout: 10 * 60_000,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    connect: { timeout: Math.min(timeout, 10_000) },
  });
}

/** The Cloud API's template message, the same for Meta and for the channel provider. */
export function templateMessageBody(input: TemplateSendRequest): Record<string, unknown> {
  // `policy: deterministic` is the only policy Meta has, and its schema requires it.
  const template: Record<string, unknown> = { name: input.template.name, language: { policy: 'deterministic', code: input.template.language } };
  // An empty components array is refused by some providers for templates without variables.
  if (input.template.components.length > 0) template.components = input.template.components;
  const body: Record<string, unknown> = { messaging_product: 'whatsapp', recipient_type: 'individual', to: input.to, type: 'template', template };
  if (input.callbackData) body.biz_opaque_callback_data = input.callbackData;
  return body;
}

/**
 * The Cloud API's free-form message (customer service window), the same for Meta and 360dialog:
 * `type: text` with `text.body`, or a media type with the file's `link` (and a caption; a
 * document's file name), Meta's `TextMessage` / media message schemas.
 */
export function serviceMessageBody(input: ServiceSendRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { messaging_product: 'whatsapp', recipient_type: 'individual', to: input.to, type: input.content.type };
  const content = input.content;
  if (content.type === 'text') body.text = { preview_url: false, body: content.body };
  else {
    const media: Record<string, unknown> = { link: content.link };
    // Meta refuses a caption on audio.
    if (content.caption && content.type !== 'audio') media.caption = content.caption;
    if (content.filename && content.type === 'document') media.filename = content.filename;
    body[content.type] = media;
  }
  if (input.callbackData) body.biz_opaque_callback_data = input.callbackData;
  return body;
}

/**
 * Meta's two steps for an incoming file: `GET {mediaUrl}` answers `{ url, mime_type, file_size }`,
 * then the file is read from `url` with the same credentials. The size is checked from Meta's
 * answer and again while reading, so a file above `maxBytes` is never held whole.
 */
export async function fetchMediaByUrl(agent: Agent, mediaUrl: string, headers: Record<string, string>, maxBytes: number, timeoutMs: number, rewrite: (url: string) => string = (url) => url): Promise<MediaFetchResult> {
  try {
    const meta = await request(mediaUrl, { dispatcher: agent, method: 'GET', headers: { accept: 'application/json', ...headers }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const text = await meta.body.text();
    if (meta.statusCode !== 200) return { ok: false, reason: `media lookup answered HTTP ${meta.statusCode}`, retryable: meta.statusCode >= 500 || meta.statusCode === 429 };
    const info = JSON.parse(text) as { url?: unknown; mime_type?: unknown; file_size?: unknown };
    if (typeof info.url !== 'string' || !info.url) return { ok: false, reason: 'media lookup gave no url', retryable: false };
    if (Number(info.file_size) > maxBytes) return { ok: false, reason: `file of ${Number(info.file_size)} bytes is above the limit`, retryable: false };
    const file = await request(rewrite(info.url), { dispatcher: agent, method: 'GET', headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    if (file.statusCode !== 200) {
      await file.body.dump();
      return { ok: false, reason: `media download answered HTTP ${file.statusCode}`, retryable: file.statusCode >= 500 || file.statusCode === 429 };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of file.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        file.body.destroy();
        return { ok: false, reason: 'file is above the limit', retryable: false };
      }
      chunks.push(chunk as Buffer);
    }
    const mime = typeof info.mime_type === 'string' ? info.mime_type : String(file.headers['content-type'] ?? '');
    return { ok: true, bytes: Buffer.concat(chunks), mime: mime.split(';')[0]?.trim().toLowerCase() ?? '' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error), retryable: true };
  }
}

/** Failures that prove the request never reached the provider: nothing to settle, safe to send again. */
const NOT_SENT_ERRORS: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED', 'UND_ERR_INVALID_ARG']);

/** The error code of an undici failure, also when it is wrapped (`fetch failed` style causes). */
function errorCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

interface CloudApiAnswer {
  messages?: { id?: unknown }[];
  error?: { code?: unknown; title?: unknown; message?: unknown; error_subcode?: unknown; is_transient?: unknown; fbtrace_id?: unknown; error_data?: { details?: unknown } };
}

/**
 * POSTs JSON and reads a Cloud API answer. Never throws: a network failure or timeout is a
 * retryable result, marked `unknown` when the provider may have accepted the message (the
 * dispatcher then waits for a status webhook carrying our reference instead of resending).
 */
export async function postTemplateMessage(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  timeoutMs: number,
  /** How the answer is read; a provider with error shapes of its own passes its reader. */
  interpret: (httpStatus: number, text: string) => SendResult = interpretAnswer,
): Promise<SendResult> {
  let statusCode: number;
  let text: string;
  // A timer cleared once the answer is read: `AbortSignal.timeout`'s timer is never cleared, and
  // fired for every send long after its answer, building a TimeoutError each time: a visible
  // share of an instance's thread under a long send.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
  try {
    const response = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: timeout.signal,
    });
    statusCode = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const code = errorCode(error);
    // A refused or unreachable connection never carried the request; anything else (a timeout,
    // a reset, the other side closing) may have come after the provider took the message.
    const unknown = code === null || !NOT_SENT_ERRORS.has(code);
    return sendFailure({ code: NETWORK_ERROR_CODE, title: `Network error (${reason})`, unknown });
  } finally {
    clearTimeout(timer);
  }
  return interpret(statusCode, text);
}

export function interpretAnswer(httpStatus: number, text: string): SendResult {
  let answer: CloudApiAnswer = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) answer = parsed as CloudApiAnswer;
  } catch {
    // A proxy's HTML error page: judged by the HTTP status alone below.
  }
  const id = answer.messages?.[0]?.id;
  if (httpStatus >= 200 && httpStatus < 300 && typeof id === 'string' && id) return { ok: true, providerMessageId: id };

  const error = answer.error;
  const code = typeof error?.code === 'number' ? error.code : Number(error?.code) || httpStatus;
  // Graph API messages start with their code, `(#130429) Rate limit hit`: the code is kept apart.
  const title =
    (typeof error?.title === 'string' && error.title) ||
    (typeof error?.message === 'string' && error.message.replace(/^\(#\d+\)\s*/, '')) ||
    (httpStatus >= 200 && httpStatus < 300 ? 'Answer without a message id' : `HTTP ${httpStatus}`);
  // What to do is the error table's (metaErrors.ts); the fields are kept for the owner and Meta's support.
  return sendFailure({
    code,
    title,
    httpStatus,
    ...(typeof error?.error_subcode === 'number' ? { subcode: error.error_subcode } : {}),
    ...(typeof error?.error_data?.details === 'string' ? { details: error.error_data.details } : {}),
    ...(typeof error?.is_transient === 'boolean' ? { isTransient: error.is_transient } : {}),
    ...(typeof error?.fbtrace_id === 'string' ? { fbtraceId: error.fbtrace_id } : {}),
  });
}

/** Webhook handling common to both adapters: both deliver Cloud API webhook shapes. */
export abstract class CloudApiShapedProvider {
  parseWebhook(body: unknown): WebhookEvents {
    return parseCloudApiWebhook(body);
  }
  parseStatusWebhook(body: unknown): StatusEvent[] {
    return parseCloudApiWebhook(body).statuses;
  }
  verifySignature(rawBody: Buffer | string, header: string | undefined | null, appSecret: string): boolean {
    return verifyWebhookSignature(rawBody, header, appSecret);
  }
  verifyHandshake(query: Record<string, unknown>, verifyToken: string): HandshakeResult {
    return verifyWebhookHandshake(query, verifyToken);
  }
}
