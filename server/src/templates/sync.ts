/**
 * Templates as Meta has them, brought into Sandesh ("Sync from Meta", the daily sync) and deleted
 * there when deleted here. The rules and their reasons: docs/decisions/2026-12-07-template-sync-from-meta.md.
 *
 * - Every page of the account's list is read before anything is written, so a Meta error part way
 *   leaves Sandesh as it was and the caller gets one clear error.
 * - Templates are matched by Meta's id, then by name and language. Known ones take Meta's status
 *   (through the same mapping as Meta's status events), category, quality and id.
 * - Unknown ones approved at Meta are imported as APPROVED, marked imported; unknown ones in any
 *   other state are left out (counted unchanged): Sandesh could not send them, and one approved
 *   later comes in with the next sync.
 * - A template whose components Sandesh cannot represent is counted failed, with the reason logged.
 */
import type { Knex } from 'knex';
import { fillMessage, messages } from '@shared/messages';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '@shared/templates';
import type { TTemplateSyncResult } from '@shared/types';
import { isUniqueViolation } from '../db/knex';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { Template } from '../models';
import type { AuditService } from '../audit/service';
import { metaRejectionText, metaTemplateStatusMove, type TemplateCategoryMove, type TemplateStatusMove } from './templateEvents';
import { isInMetaReview } from './metaSubmission';
import { importMetaComponents } from './metaComponents';
import type { MetaTemplateListed } from './templateApi';

/** A template as the provider lists it. */
export type ListedTemplate = MetaTemplateListed;

/** Where a user's templates live, and the calls made there (templateApi.ts). */
export interface SyncAccounts<Account extends { kind: string }> {
  forUser(userId: number): Promise<Account | null>;
}

export interface SyncApi<Account> {
  listPage(account: Account, after: string | null): Promise<{ templates: ListedTemplate[]; next: string | null }>;
  /** Deletes by name; with Meta's id (`hsm_id`) only that language goes. */
  deleteByName(account: Account, name: string, hsmId?: string): Promise<void>;
}

/** templateApi.ts's TemplateApiError, read by its shape so this file needs nothing more of it. */
function providerFailure(error: unknown): { kind: 'refused' | 'unavailable'; message: string } | null {
  if (!(error instanceof Error) || !('kind' in error)) return null;
  const kind = (error as { kind: unknown }).kind;
  return kind === 'refused' || kind === 'unavailable' ? { kind, message: error.message } : null;
}

/** A listing can never be longer than this many pages (Meta's caps are far below it); a loop of cursors stops here. */
const MAX_PAGES = 1_000;

export class TemplateSync<Account extends { kind: string }> {
  /** Told when a sync ends a template's review at Meta (approved or rejected), as Meta's webhook would. */
  onTemplateReviewed?: (templateId: number) => void;
  /**
   * Told when a sync moved a template's status or category, as Meta's events tell theirs, so that
   * whatever follows a template's state (its campaigns, the owner's notices) follows a missed
   * webhook healed by a sync too.
   */
  onTemplateStatus?: (templateId: number, move: TemplateStatusMove) => Promise<void>;
  onTemplateCategory?: (move: TemplateCategoryMove) => Promise<void>;
  private readonly running = new Map<number, Promise<TTemplateSyncResult>>();

  constructor(
    private readonly deps: {
      db: Knex;
      accounts: SyncAccounts<Account>;
      api: SyncApi<Account>;
      audit: AuditService;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async accountOf(userId: number): Promise<Account> {
    const account = await this.deps.accounts.forUser(userId);
    if (!account) throw new AppError(409, 'template_account_missing', messages.templateSync.noAccount);
    return account;
  }

  /** Every template the account has at Meta, all pages; a provider error becomes a catalogue error. */
  private async listAll(account: Account): Promise<ListedTemplate[]> {
    const all: ListedTemplate[] = [];
    let after: string | null = null;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const result: { templates: ListedTemplate[]; next: string | null } = await this.deps.api.listPage(account, after);
        all.push(...result.templates);
        if (!result.next || result.next === after) break;
        after = result.next;
      }
    } catch (error) {
      const failure = providerFailure(error);
      if (!failure) throw error;
      this.deps.log.warn({ err: error, kind: account.kind }, 'reading templates from Meta failed');
      throw failure.kind === 'refused'
        ? new AppError(502, 'template_sync_refused', fillMessage(messages.templateSync.refused, { reason: failure.message }))
        : new AppError(503, 'template_sync_unavailable', messages.templateSync.unavailable);
    }
    return all;
  }

  /** Reads the user's templates from Meta and applies them; an administrator's sync is audited. */
  async syncUser(userId: number, by?: { admin: { id: number }; ip: string | null }): Promise<TTemplateSyncResult> {
    // A second click (or the administrator) while one runs waits for that one: one read of Meta's list.
    let running = this.running.get(userId);
    if (!running) {
      running = (async () => {
        const account = await this.accountOf(userId);
        return this.apply(userId, account, await this.listAll(account));
      })().finally(() => this.running.delete(userId));
      this.running.set(userId, running);
    }
    const result = await running;
    if (by) {
      await this.deps.audit.record({ actorUserId: by.admin.id, action: 'template.sync', targetType: 'user', targetId: userId, details: { ...result }, ip: by.ip });
    }
    return result;
  }

  private async apply(userId: number, account: Account, listed: ListedTemplate[]): Promise<TTemplateSyncResult> {
    const result: TTemplateSyncResult = { imported: 0, updated: 0, unchanged: 0, failed: 0 };
    const known = await Template.query(this.deps.db).where({ userId });
    const byId = new Map(known.filter((t) => t.providerTemplateId).map((t) => [t.providerTemplateId as string, t]));
    const byKey = new Map(known.map((t) => [`${t.name}\u0000${t.language}`, t]));
    for (const meta of listed) {
      const template = byId.get(meta.id) ?? byKey.get(`${meta.name}\u0000${meta.language}`);
      const outcome = template ? await this.update(template, meta) : await this.importOne(userId, meta);
      result[outcome] += 1;
    }
    return result;
  }

  /** Meta's status, category, quality and id on a template Sandesh knows. */
  private async update(template: Template, meta: ListedTemplate): Promise<'updated' | 'unchanged'> {
    // A draft of the same name is the owner's own work, which Meta never saw.
    if (template.status === 'DRAFT') return 'unchanged';
    const now = this.now();
    const patch: Partial<Template> = {};
    if (template.providerTemplateId !== meta.id) patch.providerTemplateId = meta.id;
    if (template.metaStatus !== meta.status) {
      patch.metaStatus = meta.status;
      patch.metaStatusAt = now;
      patch.metaStatusReason = meta.rejectedReason;
    }
    const move = metaTemplateStatusMove(meta.status, template);
    if (move) {
      // As Meta's status event does (sending/webhookIngest.ts): Meta's answer ends a submission.
      Object.assign(patch, { status: move, metaSubmitDueAt: null, metaSubmitClaimedUntil: null, metaSubmitError: null });
      if (move === 'REJECTED') patch.rejectionReason = metaRejectionText(meta.rejectedReason ?? meta.status);
      if (move === 'APPROVED') Object.assign(patch, { pauseTitle: null, pauseDescription: null });
    }
    if ((TEMPLATE_CATEGORIES as readonly string[]).includes(meta.category) && template.category !== meta.category) patch.category = meta.category as TemplateCategory;
    if (meta.quality && template.qualityRating !== meta.quality) {
      patch.qualityRating = meta.quality;
      patch.qualityUpdatedAt = now;
    }
    if (Object.keys(patch).length === 0) return 'unchanged';
    // Conditional on the status read, so a webhook applied meanwhile is not overwritten by an older read.
    const changed = await Template.query(this.deps.db)
      .patch({ ...patch, updatedAt: now })
      .where({ id: template.id, status: template.status });
    if (changed === 0) return 'unchanged';
    if ((move === 'APPROVED' || move === 'REJECTED') && isInMetaReview(template)) this.onTemplateReviewed?.(template.id);
    await this.tell(async () => {
      const base = { templateId: template.id, userId: Number(template.userId), name: template.name };
      if (move) await this.onTemplateStatus?.(template.id, { ...base, language: template.language, from: template.status, to: move, metaEvent: meta.status, reason: meta.rejectedReason, at: now });
      if (patch.category) await this.onTemplateCategory?.({ ...base, from: template.category, to: patch.category, at: now });
    });
    return 'updated';
  }

  /** A listener's failure is logged: the sync's own writes are done and stand. */
  private async tell(listeners: () => Promise<void>): Promise<void> {
    try {
      await listeners();
    } catch (error) {
      this.deps.log.error({ err: error }, 'a listener of a template synced from Meta failed');
    }
  }

  private async importOne(userId: number, meta: ListedTemplate): Promise<'imported' | 'unchanged' | 'failed'> {
    if (meta.status !== 'APPROVED') return 'unchanged';
    if (!(TEMPLATE_CATEGORIES as readonly string[]).includes(meta.category)) {
      this.deps.log.warn({ userId, template: meta.name, language: meta.language, category: meta.category }, 'template from Meta not imported: unknown category');
      return 'failed';
    }
    const read = importMetaComponents(meta.components, meta.category);
    if (!read.ok) {
      this.deps.log.warn({ userId, template: meta.name, language: meta.language, reason: read.reason }, 'template from Meta not imported: Sandesh cannot send it');
      return 'failed';
    }
    const now = this.now();
    try {
      await Template.query(this.deps.db).insert({
        userId,
        name: meta.name,
        language: meta.language,
        category: meta.category as TemplateCategory,
        // Reviewed by Meta: usable at once; the review time marks it reviewed for Meta's later
        // events (a pause and its reinstatement move it like any approved template).
        status: 'APPROVED',
        headerType: read.headerType,
        components: read.components,
        variableExamples: read.variableExamples,
        headerMediaPath: null,
        headerMediaMime: null,
        headerMediaName: null,
        headerMediaSize: null,
        rejectionReason: null,
        qualityRating: meta.quality,
        qualityUpdatedAt: meta.quality ? now : null,
        providerTemplateId: meta.id,
        metaStatus: meta.status,
        metaStatusAt: now,
        metaStatusReason: null,
        submittedAt: null,
        reviewedAt: now,
        reviewedBy: null,
        importedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return 'imported';
    } catch (error) {
      // Another sync (the daily one, an administrator's) imported it a moment ago.
      if (isUniqueViolation(error)) return 'unchanged';
      throw error;
    }
  }

  /**
   * Deletes a template at Meta before Sandesh deletes it, when Meta may have it (it has Meta's id,
   * or it left the draft state). Only that language goes: Meta's delete by name takes `hsm_id`,
   * found from the listing when not stored. A template Meta does not have is deleted here only. A
   * refusal or no answer keeps it here, with a catalogue error.
   */
  async deleteAtMeta(template: Template): Promise<void> {
    if (!template.providerTemplateId && template.status === 'DRAFT') return;
    const account = await this.deps.accounts.forUser(template.userId);
    // No business account now: nothing Sandesh could reach holds it.
    if (!account) return;
    const unavailable = () => new AppError(503, 'template_delete_unavailable', fillMessage(messages.templateSync.deleteUnavailable, { name: template.name }));
    const atMeta = async (): Promise<ListedTemplate | null> => {
      try {
        const listed = await this.listAll(account);
        const byId = listed.find((t) => t.id === template.providerTemplateId);
        if (byId) return byId;
        return listed.find((t) => t.name === template.name && t.language === template.language) ?? null;
      } catch (error) {
        if (error instanceof AppError) throw unavailable();
        throw error;
      }
    };
    if (account.kind === 'channel') {
      // The channel's delete takes a name only, and removes every language of it.
      const others = await Template.query(this.deps.db).where({ userId: template.userId, name: template.name }).whereNot({ id: template.id }).select('language');
      if (others.length > 0) {
        throw new AppError(409, 'template_delete_every_language', fillMessage(messages.templateSync.deleteEveryLanguage, { name: template.name, languages: others.map((o) => o.language).join(', ') }));
      }
    }
    const found = template.providerTemplateId ? { id: template.providerTemplateId } : await atMeta();
    if (!found) return;
    try {
      await this.deps.api.deleteByName(account, template.name, account.kind === 'channel' ? undefined : found.id);
    } catch (error) {
      const failure = providerFailure(error);
      if (!failure) throw error;
      if (failure.kind === 'unavailable') throw unavailable();
      // Meta refuses to delete what it does not have (never submitted, or deleted in WhatsApp
      // Manager): then Sandesh deletes its own copy.
      if ((await atMeta()) === null) return;
      this.deps.log.warn({ err: error, templateId: template.id }, 'Meta refused to delete a template');
      throw new AppError(409, 'template_delete_refused', fillMessage(messages.templateSync.deleteRefused, { name: template.name, reason: failure.message }));
    }
  }

  /** Users whose templates the daily sync reads: an active own business account or channel. */
  async dailyCandidates(): Promise<number[]> {
    const rows = (await this.deps.db('users')
      .whereNull('users.deletedAt')
      .where((where) =>
        where
          .whereExists((sub) => sub.select(this.deps.db.raw('1')).from('business_infos').whereRaw('business_infos.user_id = users.id').where('business_infos.isActive', true))
          .orWhereExists((sub) => sub.select(this.deps.db.raw('1')).from('provider_settings').whereRaw('provider_settings.user_id = users.id')),
      )
      .orderBy('users.id')
      .select('users.id')) as { id: number }[];
    return rows.map((row) => Number(row.id));
  }

  /**
   * The daily sync's work: every candidate's templates, one account at a time; an account Meta
   * refuses or does not answer for is counted and the next one read.
   */
  async syncAll(): Promise<TTemplateSyncResult & { accounts: number; accountsFailed: number }> {
    const total = { imported: 0, updated: 0, unchanged: 0, failed: 0, accounts: 0, accountsFailed: 0 };
    for (const userId of await this.dailyCandidates()) {
      const account = await this.deps.accounts.forUser(userId);
      // The simulator's templates live in memory and its reviews are posted as they happen.
      if (!account || account.kind === 'simulator') continue;
      total.accounts += 1;
      try {
        const result = await this.apply(userId, account, await this.listAll(account));
        total.imported += result.imported;
        total.updated += result.updated;
        total.unchanged += result.unchanged;
        total.failed += result.failed;
      } catch (error) {
        total.accountsFailed += 1;
        this.deps.log.warn({ err: error, userId }, 'daily template sync: an account could not be read');
      }
    }
    return total;
  }
}
