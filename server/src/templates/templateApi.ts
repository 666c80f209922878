/**
 * The one client for template management wherever a user's templates live: Meta's Cloud API (the
 * business's own WhatsApp Business Account), the channel provider's template API (360dialog's
 * layout) or the simulator (Meta's layout, the sandbox's business account). Create, upload a media
 * header's sample, list page by page and delete by name; every failure is a TemplateApiError that
 * says whether the provider refused (4xx: do not retry the same request) or could not answer
 * (5xx, network, timeout: try again later).
 *
 * Sources: Meta's OpenAPI file (../shared/reference/meta-whatsapp-openapi), Meta's resumable
 * upload guide, 360dialog's template API page; see docs/decisions/2026-12-07-templates-submitted-to-meta.md.
 */
import fs from 'node:fs';
import type { Knex } from 'knex';
import { Agent, request } from 'undici';
import { messages } from '@shared/messages';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import type { ProviderSettingsRow } from '../db/rows/providerSettings';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import { secretContext, tryOpenSecret } from '../providerAccounts/secrets';
import type { SecretBox } from '../security/secretBox';
import { simulatorWabaId } from './templateEvents';
import type { MetaTemplateCreateBody } from './metaTemplateBody';

export type { MetaTemplateCreateBody } from './metaTemplateBody';

/** Where one user's templates are managed, with what it takes to call there. */
export type TemplateAccount =
  | { kind: 'cloud_api'; base: string; version: string; wabaId: string; accessToken: string; appId: string | null }
  | { kind: 'channel'; base: string; apiKey: string }
  | { kind: 'simulator'; base: string; version: string; wabaId: string; accessToken: string; appId: string };

/** A template as a provider lists it, in Meta's terms. */
export interface MetaTemplateListed {
  id: string;
  name: string;
  language: string;
  /** Meta's status word, upper case (APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ...). */
  status: string;
  category: string;
  /** Meta's quality score (GREEN, YELLOW, RED, UNKNOWN) when given. */
  quality: string | null;
  components: unknown[];
  rejectedReason: string | null;
}

/** What a create answers: Meta's id, its status (PENDING, or APPROVED at once) and category. */
export interface MetaTemplateCreated {
  id: string;
  status: string;
  category: string | null;
}

/** The app id the simulator accepts for its resumable upload (any id would do; this one is named). */
export const SIMULATOR_APP_ID = 'SIMULATOR_APP';

/**
 * A call that did not do what was asked. `refused`: the provider answered 4xx (the request itself
 * is wrong: a duplicate, a policy refusal, a bad token); `message` is Meta's text for the user
 * (`error_user_msg`, else `error.message`). `unavailable`: no usable answer (5xx, network,
 * timeout, or this server lacks a setting); the same request may succeed later.
 */
export class TemplateApiError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
    readonly details: { status: number | null; code: number | null; subcode: number | null } = { status: null, code: null, subcode: null },
  ) {
    super(message);
    this.name = 'TemplateApiError';
  }

  get code(): number | null {
    return this.details.code;
  }

  get subcode(): number | null {
    return this.details.subcode;
  }
}

/**
 * Finds where a user's templates live. A user with an active business info holding a business
 * account id and an access token manages them at Meta; else one with channel provider settings
 * (an API key) at the channel provider; else, when the simulator runs, a user whose numbers are
 * the simulator's (or who has none yet: the sandbox number is made on first use) at the
 * simulator. Null: nowhere to submit to.
 */
export class TemplateAccounts {
  constructor(
    private readonly deps: {
      db: Knex;
      secretBox: SecretBox;
      providers: { whatsappApiBase: string; whatsappApiVersion: string; channelApiBase: string; appId: string | null };
      /** The simulator's Cloud API layout (its base URL is known once the server listens); null when it is off. */
      simulator: { base: () => string; accessToken: string } | null;
    },
  ) {}

  async forUser(userId: number): Promise<TemplateAccount | null> {
    const { db, secretBox, providers } = this.deps;
    const info = (await db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    if (info && Boolean(info.isActive) && info.wabaId && info.accessTokenEncrypted) {
      const accessToken = tryOpenSecret(secretBox, info.accessTokenEncrypted, secretContext('accessTokenEncrypted', userId));
      if (accessToken) {
        return { kind: 'cloud_api', base: providers.whatsappApiBase, version: providers.whatsappApiVersion, wabaId: info.wabaId, accessToken, appId: providers.appId };
      }
    }
    const settings = (await db('provider_settings').where({ userId }).first()) as ProviderSettingsRow | undefined;
    if (settings?.apiKeyEncrypted) {
      const apiKey = tryOpenSecret(secretBox, settings.apiKeyEncrypted, secretContext('apiKeyEncrypted', userId));
      if (apiKey) return { kind: 'channel', base: providers.channelApiBase, apiKey };
    }
    const simulator = this.deps.simulator;
    if (!simulator) return null;
    const numbers = (await db('whatsapp_numbers').where({ userId, isActive: true }).select('provider')) as Pick<WhatsappNumberRow, 'provider'>[];
    if (numbers.length > 0 && !numbers.some((number) => number.provider === 'simulator')) return null;
    return { kind: 'simulator', base: simulator.base(), version: providers.whatsappApiVersion, wabaId: simulatorWabaId(userId), accessToken: simulator.accessToken, appId: SIMULATOR_APP_ID };
  }
}

/** 360dialog's page size for its template list (it pages by limit and offset). */
const CHANNEL_PAGE = 100;
/** Meta's largest page for the template list. */
const META_PAGE = 100;
/** The fields the template list asks Meta for. */
const LIST_FIELDS = 'id,name,language,status,category,quality_score,components,rejected_reason';

type Answer = { status: number; body: unknown };

interface ProviderError {
  message?: unknown;
  error_user_msg?: unknown;
  error_user_title?: unknown;
  code?: unknown;
  error_subcode?: unknown;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null);
const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Meta's (and 360dialog's) error object turned into a TemplateApiError of the right kind. */
function errorOf(answer: Answer): TemplateApiError {
  const body = record(answer.body);
  const raw = body.error;
  const error: ProviderError = typeof raw === 'string' ? { message: raw } : record(raw);
  const message =
    text(error.error_user_msg) ?? text(error.message) ?? text(body.message) ?? text(body.detail) ?? `The provider answered HTTP ${answer.status}`;
  const details = { status: answer.status, code: integer(error.code), subcode: integer(error.error_subcode) };
  return new TemplateApiError(answer.status >= 400 && answer.status < 500 ? 'refused' : 'unavailable', message, details);
}

function listedOf(raw: unknown): MetaTemplateListed | null {
  const row = record(raw);
  const id = text(row.id) ?? (typeof row.id === 'number' ? String(row.id) : null);
  const name = text(row.name);
  if (!id || !name) return null;
  const quality = record(row.quality_score).score;
  const reason = text(row.rejected_reason);
  return {
    id,
    name,
    language: text(row.language) ?? '',
    status: (text(row.status) ?? 'UNKNOWN').toUpperCase(),
    category: (text(row.category) ?? '').toUpperCase(),
    quality: text(quality)?.toUpperCase() ?? null,
    components: Array.isArray(row.components) ? (row.components as unknown[]) : [],
    rejectedReason: reason && reason !== 'NONE' ? reason : null,
  };
}

/**
 * Calls the template APIs. One kept-alive connection pool for every provider; `close()` ends it.
 * Requests time out after `timeoutMs` (default 30 s: a media sample upload is a few megabytes).
 */
export class TemplateApi {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(settings: { timeoutMs?: number } = {}) {
    this.timeoutMs = settings.timeoutMs ?? 30_000;
    this.agent = new Agent({
      connections: 8,
      keepAliveTimeout: 10_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
    });
  }

  /** Creates the template: Meta's `POST /{waba}/message_templates`, 360dialog's `POST /v1/configs/templates`. */
  async create(account: TemplateAccount, body: MetaTemplateCreateBody): Promise<MetaTemplateCreated> {
    const answer = await this.call(account, 'POST', account.kind === 'channel' ? '/v1/configs/templates' : this.templatesPath(account), { json: body });
    const created = record(answer.body);
    const id = text(created.id) ?? (typeof created.id === 'number' ? String(created.id) : null);
    if (!id) throw new TemplateApiError('unavailable', 'The provider created the template but answered no id', { status: answer.status, code: null, subcode: null });
    return { id, status: (text(created.status) ?? 'PENDING').toUpperCase(), category: text(created.category)?.toUpperCase() ?? null };
  }

  /**
   * Submits a template Meta has already (rejected, say) again with new content: Meta's edit,
   * `POST /{template-id}` with the category and components, after which Meta reviews it again.
   * 360dialog documents no edit: there the template is created again.
   */
  async edit(account: TemplateAccount, providerTemplateId: string, body: MetaTemplateCreateBody): Promise<MetaTemplateCreated> {
    if (account.kind === 'channel') return this.create(account, body);
    const edit: Record<string, unknown> = { category: body.category, components: body.components };
    if (body.parameter_format) edit.parameter_format = body.parameter_format;
    await this.call(account, 'POST', `/${account.version}/${encodeURIComponent(providerTemplateId)}`, { json: edit });
    return { id: providerTemplateId, status: 'PENDING', category: body.category };
  }

  /**
   * Uploads a media header's sample through the resumable upload and answers its handle (the
   * `header_handle` of the create): a session for the file's length and type, then the bytes from
   * offset 0. Meta's Cloud API opens the session on the app (`/{app-id}/uploads`, WHATSAPP_APP_ID);
   * 360dialog on the account its API key names (`/uploads`).
   */
  async uploadHeaderSample(account: TemplateAccount, file: { path: string; mime: string; size: number }): Promise<string> {
    const query = `file_length=${file.size}&file_type=${encodeURIComponent(file.mime)}`;
    let startPath: string;
    if (account.kind === 'channel') startPath = `/uploads?${query}`;
    else {
      if (!account.appId) throw new TemplateApiError('unavailable', messages.templates.metaAppIdMissing);
      startPath = `/${account.version}/${encodeURIComponent(account.appId)}/uploads?${query}`;
    }
    const session = text(record((await this.call(account, 'POST', startPath, {})).body).id);
    if (!session) throw new TemplateApiError('unavailable', 'The provider opened no upload session', { status: null, code: null, subcode: null });
    const sessionPath = account.kind === 'channel' ? `/${session}` : `/${account.version}/${session}`;
    const bytes = await fs.promises.readFile(file.path);
    const answer = await this.call(account, 'POST', sessionPath, { bytes, headers: { file_offset: '0' }, oauth: true });
    const handle = text(record(answer.body).h);
    if (!handle) throw new TemplateApiError('unavailable', 'The upload ended without a file handle', { status: answer.status, code: null, subcode: null });
    return handle;
  }

  /** One page of the account's templates and the cursor of the next (null: the last page). */
  async listPage(account: TemplateAccount, after: string | null): Promise<{ templates: MetaTemplateListed[]; next: string | null }> {
    if (account.kind === 'channel') {
      const offset = after ? Number(after) || 0 : 0;
      const answer = await this.call(account, 'GET', `/v1/configs/templates?limit=${CHANNEL_PAGE}&offset=${offset}`, {});
      const body = record(answer.body);
      const rows = Array.isArray(body.waba_templates) ? (body.waba_templates as unknown[]) : [];
      const total = integer(body.total);
      const reached = offset + rows.length;
      const next = rows.length > 0 && (total === null ? rows.length >= CHANNEL_PAGE : reached < total) ? String(reached) : null;
      return { templates: rows.map(listedOf).filter((t): t is MetaTemplateListed => t !== null), next };
    }
    const params = new URLSearchParams({ fields: LIST_FIELDS, limit: String(META_PAGE) });
    if (after) params.set('after', after);
    const answer = await this.call(account, 'GET', `${this.templatesPath(account)}?${params.toString()}`, {});
    const body = record(answer.body);
    const rows = Array.isArray(body.data) ? (body.data as unknown[]) : [];
    const paging = record(body.paging);
    // Meta gives `paging.next` only when there is a next page; its `after` cursor is what to ask with.
    const next = text(paging.next) ? text(record(paging.cursors).after) : null;
    return { templates: rows.map(listedOf).filter((t): t is MetaTemplateListed => t !== null), next };
  }

  /**
   * Deletes the template in every language: Meta's `DELETE ...?name=`, 360dialog's `DELETE
   * /v1/configs/templates/{name}`. With Meta's id (`hsm_id`, Meta's API only) just that language goes.
   */
  async deleteByName(account: TemplateAccount, name: string, hsmId?: string): Promise<void> {
    const one = hsmId ? `&hsm_id=${encodeURIComponent(hsmId)}` : '';
    const path = account.kind === 'channel' ? `/v1/configs/templates/${encodeURIComponent(name)}` : `${this.templatesPath(account)}?name=${encodeURIComponent(name)}${one}`;
    await this.call(account, 'DELETE', path, {});
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private templatesPath(account: Exclude<TemplateAccount, { kind: 'channel' }>): string {
    return `/${account.version}/${encodeURIComponent(account.wabaId)}/message_templates`;
  }

  /**
   * One request, answered 2xx or thrown as a TemplateApiError. Meta takes `Authorization: Bearer`
   * (and `OAuth` for the upload session, as its resumable upload guide shows); 360dialog its
   * `D360-API-KEY` header.
   */
  private async call(
    account: TemplateAccount,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { json?: unknown; bytes?: Buffer; headers?: Record<string, string>; oauth?: boolean },
  ): Promise<Answer> {
    if (!account.base) throw new TemplateApiError('unavailable', 'The template API address is not known yet');
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (account.kind === 'channel') headers['d360-api-key'] = account.apiKey;
    else headers.authorization = `${options.oauth ? 'OAuth' : 'Bearer'} ${account.accessToken}`;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.bytes) {
      headers['content-type'] = 'application/octet-stream';
      body = options.bytes;
    }
    let answer: Answer;
    try {
      const response = await request(account.base.replace(/\/+$/, '') + path, {
        method,
        headers,
        body: body ?? null,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const raw = await response.body.text();
      let parsed: unknown = null;
      try {
        parsed = raw ? JSON.parse(raw) : null;
      } catch {
        parsed = { message: raw.slice(0, 500) };
      }
      answer = { status: response.statusCode, body: parsed };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TemplateApiError('unavailable', `The template API could not be reached: ${reason}`);
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw errorOf(answer);
  }
}
