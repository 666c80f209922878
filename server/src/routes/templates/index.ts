import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { fillMessage, messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import {
  ZAdminTemplateQueueQuery,
  ZAuthenticationTemplateRequest,
  ZTemplateDetailsRequest,
  ZTemplateListQuery,
  ZTemplateRequest,
  ZTemplateStatusRequest,
} from '@shared/schemas/templates';
import { HEADER_MEDIA_MAX_BYTES, TEMPLATE_LANGUAGES, templateApiFields } from '@shared/templates';
import type { TAdminPendingTemplatesResponse, TAdminTemplateQueueResponse, TTemplateListResponse } from '@shared/types';
import { AppError, NotFoundError } from '../../errors';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { singleFileUpload, uploadedFile } from '../../middleware/upload';
import { validate } from '../../middleware/validate';
import { presentTemplate, presentTemplateSync } from '../../presenters/template';
import type { Services } from '../../container';
import type { Template } from '../../models';
import { templateVariableDefinitions } from '../../templates/service';
import type { AppState } from '../../types';

const LARGEST_MEDIA = Math.max(...Object.values(HEADER_MEDIA_MAX_BYTES));

/** multipart/form-data with at most one header file; JSON bodies pass through untouched. */
function headerUpload(): Middleware<AppState> {
  return singleFileUpload({
    field: 'headerMedia',
    maxBytes: LARGEST_MEDIA,
    maxFields: 40,
    maxFieldBytes: 64 * 1024,
    tooLarge: fillMessage(messages.templates.fileTooLarge, { size: LARGEST_MEDIA / 1024 / 1024 }),
    otherLimit: messages.templates.fileTypeInvalid,
  });
}

export function templateRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const templates = services.templates;

  router.get('/api/templates', async (ctx) => {
    const { user } = requireAuth(ctx);
    const query = validate(ZTemplateListQuery, ctx.query);
    const { templates: rows, total } = await templates.list(user.id, query);
    const totalPages = Math.max(1, Math.ceil(total / query.limit));
    const body: TTemplateListResponse = {
      success: true,
      data: rows.map(presentTemplate),
      pagination: { currentPage: query.page, totalPages, totalTemplates: total, hasPrev: query.page > 1, hasNext: query.page < totalPages },
    };
    ctx.body = body;
  });

  router.post('/api/templates/sync', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = presentTemplateSync(await services.templateSync.syncUser(user.id));
  });

  router.post('/api/templates/authentication', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZAuthenticationTemplateRequest, ctx.request.body);
    const template = await templates.createAuthentication(user, input);
    await services.team.recordActor('template', template.id, user.id, actor.id);
    ctx.status = 201;
    ctx.body = { success: true, message: messages.templates.submitted, data: presentTemplate(template) };
  });

  router.post('/api/templates', headerUpload(), async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZTemplateRequest, ctx.request.body);
    const template = await templates.create(user, input, uploadedFile(ctx));
    await services.team.recordActor('template', template.id, user.id, actor.id);
    void services.notifications.templateSubmitted(template);
    ctx.status = 201;
    ctx.body = { success: true, message: input.submit_to_whatsapp ? messages.templates.submitted : messages.templates.savedDraft, data: presentTemplate(template) };
  });

  router.get('/api/templates/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    const template = await templates.get(user.id, validate(ZIdParam, ctx.params.id));
    ctx.body = { success: true, data: presentTemplate(template) };
  });

  router.put('/api/templates/:id', headerUpload(), async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZTemplateRequest, ctx.request.body);
    const template = await templates.update(user, id, input, uploadedFile(ctx));
    await services.team.recordActor('template', template.id, user.id, actor.id);
    void services.notifications.templateSubmitted(template);
    ctx.body = { success: true, message: input.submit_to_whatsapp ? messages.templates.submitted : messages.templates.updated, data: presentTemplate(template) };
  });

  router.post('/api/templates/:id/submit', async (ctx) => {
    const { user } = requireAuth(ctx);
    const template = await templates.submit(user, validate(ZIdParam, ctx.params.id));
    void services.notifications.templateSubmitted(template);
    ctx.body = { success: true, message: messages.templates.submitted, data: presentTemplate(template) };
  });

  router.delete('/api/templates/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    await templates.delete(user, validate(ZIdParam, ctx.params.id));
    ctx.body = { success: true, message: messages.templates.deleted };
  });

  router.get('/api/templates/:id/media', async (ctx) => {
    const { user } = requireAuth(ctx);
    const template = await templates.getForViewer(user, validate(ZIdParam, ctx.params.id));
    if (!template.headerMediaPath) throw NotFoundError(messages.templates.notFound, 'media_not_found');
    const file = templates.media.resolve(template.headerMediaPath);
    const info = await stat(file).catch(() => null);
    if (!info) throw NotFoundError(messages.templates.notFound, 'media_not_found');
    ctx.set('Cache-Control', 'private, max-age=300');
    ctx.set('Content-Disposition', `inline; filename="${(template.headerMediaName ?? 'header').replace(/"/g, '')}"`);
    ctx.type = template.headerMediaMime ?? 'application/octet-stream';
    ctx.length = info.size;
    ctx.body = createReadStream(file);
  });

  router.get('/api/whatsapp/languages', (ctx) => {
    requireAuth(ctx);
    ctx.body = { success: true, data: TEMPLATE_LANGUAGES };
  });

  router.get('/api/whatsapp/templates', async (ctx) => {
    const { user } = requireAuth(ctx);
    const language = typeof ctx.query.language === 'string' && ctx.query.language ? ctx.query.language : undefined;
    const rows = await templates.usable(user.id, { language, excludeAuthentication: ctx.query.exclude_auth === 'true' });
    ctx.body = { success: true, data: rows.map(presentTemplate) };
  });

  router.post('/api/whatsapp/template-details', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZTemplateDetailsRequest, ctx.request.body);
    const template = await templates.findUsable(user.id, input.template_name, input.language);
    ctx.body = { success: true, data: templates.details(template) };
  });

  router.get('/api/send/template-info/:username/:templatename', async (ctx) => {
    const { user } = requireAuth(ctx);
    const owner = await services.users.findActiveByUsername(ctx.params.username ?? '');
    // Integrators see their own templates; administrators anyone's.
    if (!owner || (owner.id !== user.id && user.role !== 'admin')) throw NotFoundError(messages.templates.notFound, 'template_not_found');
    const template = await templates.findUsable(owner.id, ctx.params.templatename ?? '');
    const variables = templateVariableDefinitions(template);
    const header = template.components.find((c) => c.type === 'HEADER');
    const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    ctx.body = {
      success: true,
      // Added beside the spec's `requirements`: the template's state and Meta's quality rating.
      template: {
        name: template.name,
        language: template.language,
        category: template.category,
        status: template.status,
        quality_rating: template.qualityRating ?? null,
        quality_updated_at: template.qualityUpdatedAt?.toISOString() ?? null,
      },
      requirements: {
        has_header: Boolean(header),
        header_type: header?.format ?? null,
        variable_count: variables.length,
        has_buttons: buttons.length > 0,
        button_types: buttons.map((button, index) => ({ type: button.type, text: button.text, index })),
        // One field per variable of each component: var1.. (body), header_var1.., button_{i}_url.
        optional_params: templateApiFields(variables).map(({ variable, field }) => ({
          name: field,
          example: template.variableExamples[variable.key] ?? (variable.component === 'button' ? 'order-123' : (template.variableExamples[variable.name] ?? '')),
          description: variable.component === 'button' ? `Dynamic part of the URL of button ${(variable.buttonIndex ?? 0) + 1}` : `Value for ${variable.label}`,
          required: true,
        })),
      },
    };
  });

  router.get('/api/admin/users/:id/templates', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    if (!(await services.users.findById(id))) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    const { templates: rows, stats } = await templates.forAdmin(id);
    ctx.body = { success: true, templates: rows.map(presentTemplate), stats };
  });

  router.post('/api/admin/users/:id/templates/sync', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    if (!(await services.users.findById(id))) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    ctx.body = presentTemplateSync(await services.templateSync.syncUser(id, { admin, ip: ctx.ip }));
  });

  router.get('/api/admin/templates', async (ctx) => {
    requireAdmin(ctx);
    const filters = validate(ZAdminTemplateQueueQuery, ctx.query);
    const { templates: rows, total } = await templates.reviewQueue(filters);
    const body: TAdminTemplateQueueResponse = {
      success: true,
      templates: rows.map(({ template, owner }) => ({ ...presentTemplate(template), owner })),
      pagination: { page: filters.page, limit: filters.limit, total, totalPages: Math.max(1, Math.ceil(total / filters.limit)) },
    };
    ctx.body = body;
  });

  router.get('/api/admin/templates/pending-count', async (ctx) => {
    requireAdmin(ctx);
    ctx.set('Cache-Control', 'no-store');
    const body: TAdminPendingTemplatesResponse = { success: true, pending: await templates.pendingCount() };
    ctx.body = body;
  });

  router.put('/api/admin/templates/:templateId/status', async (ctx) => {
    // The spec's client reads this call's errors from `message`, so they carry both keys.
    try {
      const { user } = requireAdmin(ctx);
      const id = validate(ZIdParam, ctx.params.templateId);
      const decision = validate(ZTemplateStatusRequest, ctx.request.body);
      if (decision.status === 'DISABLED') {
        const disabled = await templates.disable(user, id, decision.reason ?? '', ctx.ip);
        ctx.body = { success: true, message: messages.templates.disabledByAdmin, data: presentTemplate(disabled) };
        return;
      }
      const template = await templates.review(user, id, { status: decision.status, reason: decision.reason }, ctx.ip);
      // An approval's outcome at Meta (approved or refused at once) is told by the submission
      // itself (container.ts); an administrator's rejection here.
      if (decision.status === 'REJECTED') {
        void services.notifications.templateReviewed(template.userId, { name: template.name, status: decision.status, reason: decision.reason });
        void services.integrations.webhooks.ownerEvent(template.userId, 'template.rejected', {
          template_id: template.id,
          name: template.name,
          language: template.language,
          reason: decision.reason ?? null,
        });
      }
      ctx.body = {
        success: true,
        message: reviewMessage(decision.status, template),
        data: presentTemplate(template),
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.status = error.status;
      ctx.body = { error: error.message, message: error.message, code: error.code, ...(error.field ? { field: error.field } : {}), ...(error.details ? { details: error.details } : {}) };
    }
  });

  return router;
}

/** What the administrator is told after a decision: for an approval, where Meta's part stands. */
function reviewMessage(decision: 'APPROVED' | 'REJECTED', template: Template): string {
  if (decision === 'REJECTED') return messages.templates.rejected;
  if (template.status === 'APPROVED') return messages.templates.approvedByMetaAtOnce;
  if (template.status === 'REJECTED') return template.rejectionReason ?? fillMessage(messages.templates.refusedByMeta, { reason: messages.templates.metaNoReason });
  return template.metaSubmittedAt ? messages.templates.approvedSentToMeta : messages.templates.approvedAwaitingMeta;
}
