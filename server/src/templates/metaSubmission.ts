/**
 * The second part of a template's review: once the administrator approves it, the template is
 * created where its owner's templates live (Meta's Cloud API, the channel provider, the
 * simulator) and stays PENDING ("In review at Meta") until Meta's answer. A synchronous refusal
 * (4xx) rejects it with Meta's words; a try that does not reach Meta (5xx, network, no account
 * yet) is recorded and tried again by a background loop, with a growing pause. With several
 * instances, each try is claimed first by a conditional update, so only one instance submits a
 * given template. See docs/templates.md and docs/decisions/2026-12-07-templates-submitted-to-meta.md.
 */
import type { Knex } from 'knex';
import { fillMessage, messages } from '@shared/messages';
import { OutageLog } from '../db/outage';
import type { Logger } from '../logger';
import { Template } from '../models';
import { PollingWorker } from '../pollingWorker';
import { buildMetaTemplateBody, type MetaTemplateCreateBody } from './metaTemplateBody';
import type { TemplateMediaStore } from './media';
import { TemplateApiError, type TemplateAccount, type TemplateAccounts, type TemplateApi } from './templateApi';

/** PENDING after the administrator's approval: Meta's review is the part left. */
export function isInMetaReview(template: Pick<Template, 'status' | 'reviewedAt' | 'rejectionReason'>): boolean {
  return template.status === 'PENDING' && template.reviewedAt !== null && template.rejectionReason === null;
}

export interface MetaSubmissionSettings {
  /** The pause before the first retry; it doubles with each failed try up to `maxRetryMs`. */
  retryMs: number;
  maxRetryMs: number;
  /** How long one instance holds a template it is submitting (a crashed instance lets go after it). */
  claimMs: number;
}

/** How one try ended. */
export type SubmissionOutcome = 'submitted' | 'refused' | 'retry' | 'skipped';

const ERROR_MAX = 500;
/** Templates one loop turn tries at most. */
const BATCH = 20;

export class MetaSubmissions extends PollingWorker {
  private readonly failures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      accounts: Pick<TemplateAccounts, 'forUser'>;
      api: Pick<TemplateApi, 'create' | 'edit' | 'uploadHeaderSample'>;
      media: Pick<TemplateMediaStore, 'resolve'>;
      log: Logger;
      settings: MetaSubmissionSettings;
      /** Meta's own answer moved a template (approved at once, or refused). */
      onSettled?: (template: Template) => void;
      now?: () => Date;
    },
  ) {
    super(Math.max(20, Math.min(30_000, deps.settings.retryMs)));
    this.failures = new OutageLog(deps.log, 'submitting templates to Meta');
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Wakes the loop (a template was approved on another path). */
  notify(): void {
    this.pause.interrupt();
  }

  /**
   * Tries to submit one template now (right after the administrator's approval). Never throws for
   * Meta's answers: a refusal rejects the template, a failure leaves it for the loop.
   */
  async submitNow(templateId: number): Promise<SubmissionOutcome> {
    const claimed = await this.claim(templateId);
    if (!claimed) return 'skipped';
    return this.attempt(claimed);
  }

  protected async run(): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        more = await this.turn();
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(this.failures.failed(error));
        continue;
      }
      if (!more) await this.pause.wait();
    }
  }

  /** One turn: the templates whose try is due. Answers whether a full batch was found. */
  async turn(): Promise<boolean> {
    const now = this.now().toISOString();
    const due = (await this.deps
      .db('templates')
      .where({ status: 'PENDING' })
      .whereNotNull('metaSubmitDueAt')
      .where('metaSubmitDueAt', '<=', now)
      .where((q) => q.whereNull('metaSubmitClaimedUntil').orWhere('metaSubmitClaimedUntil', '<', now))
      .orderBy('metaSubmitDueAt')
      .limit(BATCH)
      .select('id')) as { id: number }[];
    for (const { id } of due) {
      if (!this.running) break;
      await this.submitNow(Number(id));
    }
    return due.length === BATCH;
  }

  /**
   * Takes the template for one try: conditional on it still waiting for Meta (PENDING, approved
   * by the administrator, not yet taken by Meta) and held by no other instance.
   */
  private async claim(templateId: number): Promise<Template | null> {
    const now = this.now();
    const changed = await this.deps
      .db('templates')
      .where({ id: templateId, status: 'PENDING' })
      .whereNotNull('reviewedAt')
      .whereNull('rejectionReason')
      .whereNull('metaSubmittedAt')
      .whereNotNull('metaSubmitDueAt')
      .where((q) => q.whereNull('metaSubmitClaimedUntil').orWhere('metaSubmitClaimedUntil', '<', now.toISOString()))
      .update({
        metaSubmitClaimedUntil: new Date(now.getTime() + this.deps.settings.claimMs).toISOString(),
        metaSubmitAttempts: this.deps.db.raw('?? + 1', ['meta_submit_attempts']),
      });
    if (changed === 0) return null;
    return (await Template.query(this.deps.db).findById(templateId)) ?? null;
  }

  private async attempt(template: Template): Promise<SubmissionOutcome> {
    let account: TemplateAccount | null;
    try {
      account = await this.deps.accounts.forUser(template.userId);
    } catch (error) {
      return this.retryLater(template, error instanceof Error ? error.message : String(error));
    }
    if (!account) return this.retryLater(template, messages.templates.metaNoAccount);
    try {
      const headerHandle =
        template.headerMediaPath && template.headerMediaMime
          ? await this.deps.api.uploadHeaderSample(account, {
              path: this.deps.media.resolve(template.headerMediaPath),
              mime: template.headerMediaMime,
              size: template.headerMediaSize ?? 0,
            })
          : null;
      const body = buildMetaTemplateBody(template, { headerHandle });
      // A template Meta has already (it rejected it) is edited there: creating it again would be a duplicate.
      const created = template.providerTemplateId ? await this.editOrCreate(account, template.providerTemplateId, body) : await this.deps.api.create(account, body);
      return await this.submitted(template, created);
    } catch (error) {
      if (error instanceof TemplateApiError && error.kind === 'refused') return this.refused(template, error.message);
      const reason = error instanceof Error ? error.message : String(error);
      return this.retryLater(template, reason);
    }
  }

  /** An edit of a template Meta no longer has (deleted there; the simulator restarted) becomes a create. */
  private async editOrCreate(account: TemplateAccount, providerTemplateId: string, body: MetaTemplateCreateBody): Promise<{ id: string; status: string }> {
    try {
      return await this.deps.api.edit(account, providerTemplateId, body);
    } catch (error) {
      if (error instanceof TemplateApiError && error.details.status === 404) return this.deps.api.create(account, body);
      throw error;
    }
  }

  /** Meta took it: its id and the time are kept; an answer of APPROVED (or REJECTED) settles it at once. */
  private async submitted(template: Template, created: { id: string; status: string }): Promise<SubmissionOutcome> {
    const now = this.now().toISOString();
    // The review webhook may have come first and named the template already: the id is the same.
    await this.deps
      .db('templates')
      .where({ id: template.id })
      .update({
        providerTemplateId: created.id.slice(0, 100),
        metaSubmittedAt: now,
        metaSubmitError: null,
        metaSubmitDueAt: null,
        metaSubmitClaimedUntil: null,
        updatedAt: now,
      });
    if (created.status === 'APPROVED' || created.status === 'REJECTED') {
      const move =
        created.status === 'APPROVED'
          ? { status: 'APPROVED' }
          : { status: 'REJECTED', rejectionReason: fillMessage(messages.templates.metaRejected, { reason: messages.templates.metaNoReason }) };
      const changed = await this.deps.db('templates').where({ id: template.id, status: 'PENDING' }).update({ ...move, updatedAt: now });
      if (changed > 0) this.settled(template.id);
    }
    this.deps.log.info({ templateId: template.id, providerTemplateId: created.id, status: created.status }, 'template submitted to Meta');
    return 'submitted';
  }

  /** Meta refused the request itself: the template is rejected with Meta's words. */
  private async refused(template: Template, reason: string): Promise<SubmissionOutcome> {
    const now = this.now().toISOString();
    const rejectionReason = fillMessage(messages.templates.metaRefused, { reason }).slice(0, ERROR_MAX);
    const changed = await this.deps
      .db('templates')
      .where({ id: template.id, status: 'PENDING' })
      .update({ status: 'REJECTED', rejectionReason, metaSubmitError: null, metaSubmitDueAt: null, metaSubmitClaimedUntil: null, updatedAt: now });
    this.deps.log.info({ templateId: template.id, reason }, 'Meta refused the template');
    if (changed > 0) this.settled(template.id);
    return 'refused';
  }

  /** The try did not reach Meta: recorded, and tried again after a pause that grows with each try. */
  private async retryLater(template: Template, reason: string): Promise<SubmissionOutcome> {
    const { retryMs, maxRetryMs } = this.deps.settings;
    const attempts = Math.max(1, Number(template.metaSubmitAttempts) || 1);
    const pause = Math.min(maxRetryMs, retryMs * 2 ** Math.min(attempts - 1, 20));
    const now = this.now();
    await this.deps
      .db('templates')
      .where({ id: template.id, status: 'PENDING' })
      .update({
        metaSubmitError: reason.slice(0, ERROR_MAX),
        metaSubmitDueAt: new Date(now.getTime() + pause).toISOString(),
        metaSubmitClaimedUntil: null,
        updatedAt: now.toISOString(),
      });
    this.deps.log.warn({ templateId: template.id, attempts, retryInMs: pause, reason }, 'template not submitted to Meta; will try again');
    return 'retry';
  }

  private settled(templateId: number): void {
    const onSettled = this.deps.onSettled;
    if (!onSettled) return;
    void Template.query(this.deps.db)
      .findById(templateId)
      .then((template) => template && onSettled(template))
      .catch((error: unknown) => this.deps.log.warn({ err: error, templateId }, 'template outcome not announced'));
  }
}
