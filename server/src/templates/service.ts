import { formatIndianNumber } from '@shared/money';
import type { Knex } from 'knex';
import { STORAGE_LIMITS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import {
  EDITABLE_TEMPLATE_STATUSES,
  USABLE_TEMPLATE_STATUSES,
  componentValues,
  renderTemplateText,
  templateStatusLabel,
  sampleExampleFor,
  type HeaderType,
  type MediaHeaderType,
  type TemplateCategory,
  templateVariableList,
  type TemplateVariable,
} from '@shared/templates';
import type { TTemplateComponent, TTemplateDetails, TTemplateStats } from '@shared/types';
import type { z } from 'zod';
import type { ZAuthenticationTemplateRequest, ZTemplateRequest } from '@shared/schemas/templates';
import { isUniqueViolation } from '../db/knex';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { Template, type User } from '../models';
import type { AuditService } from '../audit/service';
import type { TemplateStatusMove } from './templateEvents';
import type { TemplateMediaStore, UploadedFile } from './media';
import type { MetaSubmissions } from './metaSubmission';

export type TemplateInput = z.output<typeof ZTemplateRequest>;
export type AuthenticationTemplateInput = z.output<typeof ZAuthenticationTemplateRequest>;

type StoredMediaRef = { relativePath: string; mime: string; name: string; size: number };

const MEDIA_FORMATS: Record<MediaHeaderType, 'IMAGE' | 'VIDEO' | 'DOCUMENT'> = { image: 'IMAGE', video: 'VIDEO', document: 'DOCUMENT' };

/**
 * A template submitted again starts both reviews afresh: the administrator's (no review yet) and
 * Meta's (no submission). Meta's id stays: a template Meta rejected is edited there, not created again.
 */
const FRESH_REVIEW = { reviewedAt: null, reviewedBy: null, metaSubmittedAt: null, metaSubmitError: null, metaSubmitAttempts: 0, metaSubmitDueAt: null, metaSubmitClaimedUntil: null } as const;

export function isMediaHeader(type: HeaderType): type is MediaHeaderType {
  return type === 'image' || type === 'video' || type === 'document';
}

function buildComponents(input: TemplateInput, headerType: HeaderType): TTemplateComponent[] {
  const components: TTemplateComponent[] = [];
  if (headerType === 'text') components.push({ type: 'HEADER', format: 'TEXT', text: input.headerText.trim() });
  if (isMediaHeader(headerType)) components.push({ type: 'HEADER', format: MEDIA_FORMATS[headerType] });
  components.push({ type: 'BODY', text: input.bodyText.trim() });
  if (input.footerText.trim()) components.push({ type: 'FOOTER', text: input.footerText.trim() });
  if (input.buttons.length > 0) {
    components.push({
      type: 'BUTTONS',
      buttons: input.buttons.map((button) => ({
        type: button.type,
        text: button.text.trim(),
        ...(button.type === 'URL' ? { url: button.url?.trim() ?? '' } : {}),
        ...(button.type === 'PHONE_NUMBER' ? { phone_number: button.phone_number?.trim() ?? '' } : {}),
        // Our own mark: a tap on this quick reply opts the sender out (suppressions/optOutRule.ts).
        ...(button.type === 'QUICK_REPLY' && button.opt_out ? { opt_out: true } : {}),
      })),
    });
  }
  return components;
}

/** Authentication templates have fixed, provider-defined text; these are the shapes and the preview. */
function authenticationComponents(input: AuthenticationTemplateInput): TTemplateComponent[] {
  return [
    {
      type: 'BODY',
      text: `{{1}} is your verification code.${input.add_security_recommendation ? ' For your security, do not share this code.' : ''}`,
      add_security_recommendation: input.add_security_recommendation,
    },
    { type: 'FOOTER', text: `This code expires in ${input.code_expiration_minutes} minutes.`, code_expiration_minutes: input.code_expiration_minutes },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: input.otp_type, text: input.otp_button_text }] },
  ];
}

export function componentText(template: Pick<Template, 'components'>, type: TTemplateComponent['type']): string {
  return template.components.find((c) => c.type === type)?.text ?? '';
}

/** The template's variables keyed by component (shared/templates.ts): body "1", header "header_1", button "button_0_url". */
export function templateVariableDefinitions(template: Pick<Template, 'components'>): TemplateVariable[] {
  return templateVariableList({
    headerText: template.components.find((c) => c.type === 'HEADER' && c.format === 'TEXT')?.text,
    bodyText: componentText(template, 'BODY'),
    buttons: template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [],
  });
}

export function templateVariables(template: Pick<Template, 'components'>): string[] {
  return templateVariableDefinitions(template).map((variable) => variable.key);
}

/**
 * Templates and their review: the owner builds and submits; an administrator approves or
 * rejects PENDING ones. Another user's template answers 404 as if it did not exist.
 */
export class TemplateService {
  constructor(
    private readonly deps: {
      db: Knex;
      media: TemplateMediaStore;
      audit: AuditService;
      /** Deletes the template where Meta has it first; throwing keeps it here (templates/sync.ts). */
      beforeDelete?: (template: Template) => Promise<void>;
      /** Creates approved templates at Meta; without it the administrator's approval is the whole review. */
      submissions?: Pick<MetaSubmissions, 'submitNow'>;
    },
  ) {}

  get media(): TemplateMediaStore {
    return this.deps.media;
  }

  async list(userId: number, query: { page: number; limit: number; status?: string; category?: string }): Promise<{ templates: Template[]; total: number }> {
    const base = Template.query(this.deps.db).where({ userId });
    if (query.status && query.status !== 'ALL') base.where({ status: query.status });
    if (query.category && query.category !== 'ALL') base.where({ category: query.category });
    const [templates, total] = await Promise.all([
      base.clone().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(query.limit).offset((query.page - 1) * query.limit),
      base.clone().resultSize(),
    ]);
    return { templates, total };
  }

  async get(userId: number, id: number): Promise<Template> {
    const template = await Template.query(this.deps.db).findOne({ id, userId });
    if (!template) throw NotFoundError(messages.templates.notFound, 'template_not_found');
    return template;
  }

  /** For a header file: its owner or any administrator. */
  async getForViewer(viewer: User, id: number): Promise<Template> {
    const template = viewer.role === 'admin' ? await Template.query(this.deps.db).findById(id) : await Template.query(this.deps.db).findOne({ id, userId: viewer.id });
    if (!template) throw NotFoundError(messages.templates.notFound, 'template_not_found');
    return template;
  }

  /** Examples by variable key; a builder that still names them by the shared name is read too. */
  private examplesFor(input: TemplateInput, components: TTemplateComponent[]): Record<string, string> {
    return Object.fromEntries(
      templateVariableDefinitions({ components }).map((v) => [v.key, input.variableExamples[v.key]?.trim() || input.variableExamples[v.name]?.trim() || sampleExampleFor(v.name)]),
    );
  }

  private async resolveHeader(
    user: User,
    input: TemplateInput,
    file: UploadedFile | undefined,
    existing: Template | null,
  ): Promise<{ headerType: HeaderType; media: StoredMediaRef | null; replaced: string | null }> {
    const headerType: HeaderType = input.headerType ?? (input.headerText.trim() ? 'text' : file ? 'image' : 'none');
    if (!isMediaHeader(headerType)) return { headerType, media: null, replaced: existing?.headerMediaPath ?? null };
    if (file) {
      await this.requireMediaRoom(user.id, file.size, existing);
      const media = await this.deps.media.save(user.id, file, headerType);
      return { headerType, media, replaced: existing?.headerMediaPath ?? null };
    }
    if (existing?.headerMediaPath && existing.headerType === headerType) {
      return {
        headerType,
        media: { relativePath: existing.headerMediaPath, mime: existing.headerMediaMime ?? '', name: existing.headerMediaName ?? '', size: existing.headerMediaSize ?? 0 },
        replaced: null,
      };
    }
    throw ValidationError('headerMedia', messages.templates.headerMediaRequired);
  }

  /**
   * Template header files stay on disk until their template goes, so one user's total is capped
   * (the file being replaced by an edit does not count). Concurrent uploads may overshoot by one
   * file each: the bound is against steady growth, not a race.
   */
  private async requireMediaRoom(userId: number, incomingBytes: number, replacing: Template | null): Promise<void> {
    const query = Template.query(this.deps.db).where({ userId }).whereNotNull('headerMediaPath');
    if (replacing) query.whereNot('id', replacing.id);
    const row = (await query.sum('headerMediaSize as used').first()) as unknown as { used: number | string | null } | undefined;
    const usedBytes = Number(row?.used ?? 0);
    const limitBytes = STORAGE_LIMITS.templateMediaPerUserMb * 1024 * 1024;
    if (usedBytes + incomingBytes > limitBytes) {
      throw new AppError(413, 'media_storage_full', fillMessage(messages.templates.mediaStorageFull, {
        used: (usedBytes / 1024 / 1024).toLocaleString('en-IN', { maximumFractionDigits: 1 }),
        limit: formatIndianNumber(STORAGE_LIMITS.templateMediaPerUserMb),
      }), 'headerMedia');
    }
  }

  /** Drafts cost nothing to keep, so their number is capped per user. */
  private async requireDraftRoom(userId: number): Promise<void> {
    const row = (await Template.query(this.deps.db).where({ userId, status: 'DRAFT' }).count('id as drafts').first()) as unknown as { drafts: number | string } | undefined;
    if (Number(row?.drafts ?? 0) >= STORAGE_LIMITS.draftTemplatesPerUser) {
      throw new AppError(422, 'draft_limit_reached', fillMessage(messages.templates.draftLimitReached, { max: formatIndianNumber(STORAGE_LIMITS.draftTemplatesPerUser) }));
    }
  }

  /** The columns the builder decides, for a new row or an edit. */
  private builderFields(input: TemplateInput, headerType: HeaderType, media: StoredMediaRef | null) {
    const components = buildComponents(input, headerType);
    return {
      name: input.name,
      language: input.language,
      category: input.category as TemplateCategory,
      status: input.submit_to_whatsapp ? 'PENDING' : 'DRAFT',
      headerType,
      components,
      variableExamples: this.examplesFor(input, components),
      headerMediaPath: media?.relativePath ?? null,
      headerMediaMime: media?.mime ?? null,
      headerMediaName: media?.name ?? null,
      headerMediaSize: media?.size ?? null,
    };
  }

  async create(user: User, input: TemplateInput, file: UploadedFile | undefined): Promise<Template> {
    if (!input.submit_to_whatsapp) await this.requireDraftRoom(user.id);
    const { headerType, media } = await this.resolveHeader(user, input, file, null);
    const now = new Date();
    try {
      return await Template.query(this.deps.db).insertAndFetch({
        userId: user.id,
        ...this.builderFields(input, headerType, media),
        rejectionReason: null,
        qualityRating: null,
        providerTemplateId: null,
        submittedAt: input.submit_to_whatsapp ? now : null,
        reviewedAt: null,
        reviewedBy: null,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      await this.deps.media.remove(media?.relativePath ?? null);
      if (isUniqueViolation(error)) throw ConflictError('template_name_taken', messages.templates.nameTaken, 'name');
      throw error;
    }
  }

  async createAuthentication(user: User, input: AuthenticationTemplateInput): Promise<Template> {
    const now = new Date();
    try {
      return await Template.query(this.deps.db).insertAndFetch({
        userId: user.id,
        name: input.name,
        language: input.language,
        category: 'AUTHENTICATION',
        status: 'PENDING',
        headerType: 'none',
        components: authenticationComponents(input),
        variableExamples: { '1': '123456' },
        headerMediaPath: null,
        headerMediaMime: null,
        headerMediaName: null,
        headerMediaSize: null,
        rejectionReason: null,
        qualityRating: null,
        providerTemplateId: null,
        submittedAt: now,
        reviewedAt: null,
        reviewedBy: null,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw ConflictError('template_name_taken', messages.templates.nameTaken, 'name');
      throw error;
    }
  }

  /** Edits a DRAFT or REJECTED template; a rejected one goes back to DRAFT (or to review when submitted). */
  async update(user: User, id: number, input: TemplateInput, file: UploadedFile | undefined): Promise<Template> {
    const existing = await this.get(user.id, id);
    if (!EDITABLE_TEMPLATE_STATUSES.includes(existing.status as never)) throw new AppError(409, 'template_not_editable', messages.templates.notEditable);
    if (existing.category === 'AUTHENTICATION' || input.category === 'AUTHENTICATION') {
      throw ValidationError('category', messages.templates.authenticationEndpoint);
    }
    const { headerType, media, replaced } = await this.resolveHeader(user, input, file, existing);
    const now = new Date();
    try {
      const updated = await Template.query(this.deps.db).patchAndFetchById(id, {
        ...this.builderFields(input, headerType, media),
        submittedAt: input.submit_to_whatsapp ? now : existing.submittedAt,
        ...(input.submit_to_whatsapp ? FRESH_REVIEW : {}),
        updatedAt: now,
      });
      if (replaced && replaced !== media?.relativePath) await this.deps.media.remove(replaced);
      return updated;
    } catch (error) {
      if (media && media.relativePath !== existing.headerMediaPath) await this.deps.media.remove(media.relativePath);
      if (isUniqueViolation(error)) throw ConflictError('template_name_taken', messages.templates.nameTaken, 'name');
      throw error;
    }
  }

  async submit(user: User, id: number): Promise<Template> {
    const existing = await this.get(user.id, id);
    if (!EDITABLE_TEMPLATE_STATUSES.includes(existing.status as never)) throw new AppError(409, 'template_not_submittable', messages.templates.notSubmittable);
    // Conditional on the status read, so two submits (or a submit racing an edit) apply once.
    const now = new Date();
    const changed = await Template.query(this.deps.db)
      .patch({ status: 'PENDING', submittedAt: now, ...FRESH_REVIEW, updatedAt: now })
      .where({ id, userId: user.id })
      .whereIn('status', [...EDITABLE_TEMPLATE_STATUSES]);
    if (changed === 0) throw new AppError(409, 'template_not_submittable', messages.templates.notSubmittable);
    return this.get(user.id, id);
  }

  async delete(user: User, id: number): Promise<void> {
    const existing = await this.get(user.id, id);
    await this.deps.beforeDelete?.(existing);
    await Template.query(this.deps.db).deleteById(existing.id);
    await this.deps.media.remove(existing.headerMediaPath);
  }

  /** Templates a user can send: APPROVED or ACTIVE, optionally one language, optionally no authentication. */
  async usable(userId: number, options: { language?: string; excludeAuthentication?: boolean }): Promise<Template[]> {
    const query = Template.query(this.deps.db).where({ userId }).whereIn('status', [...USABLE_TEMPLATE_STATUSES]);
    if (options.language) query.where({ language: options.language });
    if (options.excludeAuthentication) query.whereNot({ category: 'AUTHENTICATION' });
    return query.orderBy('name').orderBy('language');
  }

  async findUsable(userId: number, name: string, language?: string): Promise<Template> {
    const query = Template.query(this.deps.db).where({ userId, name }).whereIn('status', [...USABLE_TEMPLATE_STATUSES]);
    if (language) query.where({ language });
    const template = await query.orderBy('language').first();
    if (template) return template;
    // A template the user has but cannot send now (paused or disabled by Meta, in review) is named
    // with its state, so the sender knows why and what to wait for.
    const held = Template.query(this.deps.db).where({ userId, name }).whereNot({ status: 'DRAFT' });
    if (language) held.where({ language });
    const unusable = await held.orderBy('language').first();
    if (unusable) {
      throw new AppError(404, 'template_not_usable', fillMessage(messages.templates.notUsable, { name: unusable.name, status: templateStatusLabel(unusable.status) }));
    }
    throw NotFoundError(messages.templates.notFound, 'template_not_found');
  }

  /** What the sending screens need to fill a template in (spec 002 template detail). */
  details(template: Template): TTemplateDetails {
    const variables = templateVariableDefinitions(template);
    const buttons = (template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? []).map((button, index) => ({ ...button, index }));
    const header = template.components.find((c) => c.type === 'HEADER');
    const example = (v: TemplateVariable) => template.variableExamples[v.key] ?? template.variableExamples[v.name];
    const values = Object.fromEntries(variables.map((v) => [v.key, example(v) ?? sampleExampleFor(v.name)]));
    const preview = [
      header?.format === 'TEXT' && header.text ? renderTemplateText(header.text, componentValues(values, 'header')) : null,
      componentText(template, 'BODY') ? renderTemplateText(componentText(template, 'BODY'), values) : null,
      componentText(template, 'FOOTER') || null,
    ]
      .filter((part): part is string => Boolean(part))
      .join('\n\n');
    return {
      // `index` is the key values are sent under; `placeholder` names it for the screens.
      variables: variables.map((v) => ({ index: v.key, placeholder: v.label, required: true, value: example(v) ?? '' })),
      buttons,
      hasVariables: variables.length > 0,
      hasButtons: buttons.length > 0,
      preview,
      category: template.category,
      templateTypeInfo: { hasStaticImage: header?.format === 'IMAGE', headerType: template.headerType },
    };
  }

  async forAdmin(userId: number): Promise<{ templates: Template[]; stats: TTemplateStats }> {
    const templates = await Template.query(this.deps.db).where({ userId }).orderBy('createdAt', 'desc').orderBy('id', 'desc');
    return {
      templates,
      stats: {
        total: templates.length,
        pending: templates.filter((t) => t.status === 'PENDING').length,
        approved: templates.filter((t) => t.status === 'APPROVED' || t.status === 'ACTIVE').length,
        rejected: templates.filter((t) => t.status === 'REJECTED').length,
      },
    };
  }

  /**
   * The review queue across users (GET /api/admin/templates). Pending templates come oldest
   * submission first, as a queue is worked; other statuses most recently changed first. Templates
   * of deleted accounts are left out: nobody could send with them.
   */
  async reviewQueue(filters: {
    status: string;
    category?: string | undefined;
    search?: string | undefined;
    userId?: number | undefined;
    page: number;
    limit: number;
  }): Promise<{ templates: { template: Template; owner: { id: number; name: string; username: string } }[]; total: number }> {
    const query = Template.query(this.deps.db).select('templates.*').join('users', 'users.id', 'templates.userId').whereNull('users.deletedAt');
    if (filters.status !== 'ALL') query.where('templates.status', filters.status);
    // The queue of PENDING templates is an administrator's work: those approved already and in
    // review at Meta are under ALL, shown as such.
    if (filters.status === 'PENDING') query.where((q) => q.whereNull('templates.reviewedAt').orWhereNotNull('templates.rejectionReason'));
    if (filters.category) query.where('templates.category', filters.category);
    if (filters.userId) query.where('templates.userId', filters.userId);
    if (filters.search) {
      // lower() on both sides: LIKE is case-insensitive on SQLite but not on PostgreSQL.
      const pattern = `%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.where((where) =>
        where
          .whereRaw("lower(templates.name) like ? escape '\\'", [pattern])
          .orWhereRaw("lower(users.name) like ? escape '\\'", [pattern])
          .orWhereRaw("lower(users.username) like ? escape '\\'", [pattern]),
      );
    }
    const total = await query.clone().resultSize();
    if (filters.status === 'PENDING') query.orderBy('templates.submittedAt', 'asc').orderBy('templates.id', 'asc');
    else query.orderBy('templates.updatedAt', 'desc').orderBy('templates.id', 'desc');
    const rows = await query.limit(filters.limit).offset((filters.page - 1) * filters.limit);
    const ownerIds = [...new Set(rows.map((row) => row.userId))];
    const owners = ownerIds.length
      ? ((await this.deps.db('users').whereIn('id', ownerIds).select('id', 'name', 'username')) as { id: number; name: string; username: string }[])
      : [];
    const byId = new Map(owners.map((owner) => [Number(owner.id), owner]));
    return {
      templates: rows.map((template) => {
        const owner = byId.get(template.userId);
        return { template, owner: { id: template.userId, name: owner?.name ?? '', username: owner?.username ?? '' } };
      }),
      total,
    };
  }

  /** Templates waiting for an administrator's review across active accounts: the admin sidebar's badge. */
  async pendingCount(): Promise<number> {
    const row = (await this.deps.db('templates')
      .join('users', 'users.id', 'templates.userId')
      .whereNull('users.deletedAt')
      .where('templates.status', 'PENDING')
      // Approved by an administrator and in review at Meta: nothing left for an administrator to do.
      .where((q) => q.whereNull('templates.reviewedAt').orWhereNotNull('templates.rejectionReason'))
      .count({ count: '*' })
      .first()) as { count: number | string } | undefined;
    return Number(row?.count ?? 0);
  }

  /**
   * Approve or reject a PENDING template; the decision is audited. A rejection is final. An
   * approval is our review's half: the template stays PENDING and, once this transaction is
   * committed, is created at Meta (templates/metaSubmission.ts); the answer shows where that
   * stands (in review at Meta, approved or refused by Meta at once, or waiting for a retry).
   */
  async review(admin: User, templateId: number, decision: { status: 'APPROVED' | 'REJECTED'; reason?: string | undefined }, ip: string | null): Promise<Template> {
    const submissions = this.deps.submissions;
    const reviewed = await this.deps.db.transaction(async (trx) => {
      const template = await Template.query(trx).findById(templateId);
      if (!template) throw NotFoundError(messages.templates.notFound, 'template_not_found');
      const now = new Date();
      const approval = submissions
        ? { status: 'PENDING', metaSubmittedAt: null, metaSubmitError: null, metaSubmitAttempts: 0, metaSubmitDueAt: now, metaSubmitClaimedUntil: null }
        : { status: 'APPROVED' };
      const changed = await Template.query(trx)
        .patch({
          ...(decision.status === 'APPROVED' ? approval : { status: 'REJECTED', metaSubmitDueAt: null }),
          rejectionReason: decision.status === 'REJECTED' ? (decision.reason ?? null) : null,
          reviewedAt: now,
          reviewedBy: admin.id,
          updatedAt: now,
        })
        .where({ id: templateId, status: 'PENDING' })
        // A template already approved by the administrator and in review at Meta is not reviewed twice.
        .where((q) => q.whereNull('reviewedAt').orWhereNotNull('rejectionReason'));
      if (changed === 0) throw new AppError(409, 'template_not_pending', messages.templates.notPending);
      await this.deps.audit.record(
        {
          actorUserId: admin.id,
          action: decision.status === 'APPROVED' ? 'template.approve' : 'template.reject',
          targetType: 'template',
          targetId: templateId,
          details: { owner: template.userId, name: template.name, language: template.language, reason: decision.reason ?? null },
          ip,
        },
        trx,
      );
      return (await Template.query(trx).findById(templateId)) as Template;
    });
    if (decision.status !== 'APPROVED' || !submissions) return reviewed;
    await submissions.submitNow(templateId);
    return (await Template.query(this.deps.db).findById(templateId)) ?? reviewed;
  }

  /** Campaigns follow a template an administrator disabled (templateHolds.ts, wired in container.ts). */
  onStatusMoved?: (templateId: number, move: TemplateStatusMove) => Promise<void>;

  /**
   * An administrator takes an approved (or Meta-held) template out of use, with a reason the
   * owner sees, whoever approved it: our review or Meta's (an imported template). The reason also
   * keeps Meta's later approval or reinstatement from putting it back (metaTemplateStatusMove).
   * Its campaigns stop and their unsent messages are refunded, as when Meta disables one.
   */
  async disable(admin: User, templateId: number, reason: string, ip: string | null): Promise<Template> {
    const { template, now } = await this.deps.db.transaction(async (trx) => {
      const found = await Template.query(trx).findById(templateId);
      if (!found) throw NotFoundError(messages.templates.notFound, 'template_not_found');
      const at = new Date();
      const changed = await Template.query(trx)
        .patch({ status: 'DISABLED', rejectionReason: reason, metaSubmitDueAt: null, updatedAt: at })
        .where({ id: templateId, status: found.status })
        .whereIn('status', [...DISABLEABLE_STATUSES]);
      if (changed === 0) throw new AppError(409, 'template_not_disableable', messages.templates.notDisableable);
      await this.deps.audit.record(
        {
          actorUserId: admin.id,
          action: 'template.disable',
          targetType: 'template',
          targetId: templateId,
          details: { owner: found.userId, name: found.name, language: found.language, from: found.status, reason },
          ip,
        },
        trx,
      );
      return { template: found, now: at };
    });
    await this.onStatusMoved?.(templateId, {
      templateId,
      userId: template.userId,
      name: template.name,
      language: template.language,
      from: template.status,
      to: 'DISABLED',
      metaEvent: 'ADMIN_DISABLED',
      reason,
      at: now,
      byAdmin: true,
    });
    return (await Template.query(this.deps.db).findById(templateId)) as Template;
  }
}

/** What an administrator may disable: templates in use, or held by Meta for now. */
const DISABLEABLE_STATUSES = ['APPROVED', 'ACTIVE', 'PAUSED', 'APPEAL_REQUESTED'] as const;
