/**
 * How Meta's template status events move a template's status (the spec's statuses, which the app
 * shows and sends by). The table and its reasons: docs/decisions/2026-12-07-template-events-from-meta.md.
 */
import { fillMessage, messages } from '@shared/messages';
import type { TemplateStatus } from '@shared/templates';

/**
 * The simulator's business accounts. Each sandbox user has one of their own, as each business has
 * its own at Meta, so two users' templates of one name never meet; the bare id belongs to no
 * customer (the platform's number, events posted by hand).
 */
export const SIMULATOR_WABA_ID = 'SIMULATOR_WABA';

export function simulatorWabaId(userId: number): string {
  return `${SIMULATOR_WABA_ID}_${userId}`;
}

/** The sandbox user a simulator business account belongs to: null for the bare id, undefined for an account not the simulator's. */
export function simulatorWabaOwner(wabaId: string): number | null | undefined {
  if (wabaId === SIMULATOR_WABA_ID) return null;
  const match = /^SIMULATOR_WABA_([1-9]\d{0,15})$/.exec(wabaId);
  return match ? Number(match[1]) : undefined;
}

/** What a template must be for an event to move it. */
export interface TemplateStatusSubject {
  status: string;
  /** Set by an administrator's review. */
  reviewedAt: string | Date | null;
  /** Set by a rejection (an administrator's or Meta's); an approval clears it. */
  rejectionReason: string | null;
}

/** Meta's events that take a template out of use, and the status each shows as. */
const CLOSING: Readonly<Record<string, TemplateStatus>> = {
  REJECTED: 'REJECTED',
  LIMIT_EXCEEDED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  PENDING_DELETION: 'DISABLED',
  ARCHIVED: 'DISABLED',
  IN_APPEAL: 'APPEAL_REQUESTED',
};

/** Meta's events that put a template back in use. */
const RESTORING: ReadonlySet<string> = new Set(['APPROVED', 'REINSTATED', 'UNPAUSED', 'UNARCHIVED']);

/**
 * The status an event moves a template to, or null when it stays as it is. A draft never moves
 * (Meta never saw it). Meta's approval never skips the administrator's review: it approves only a
 * template the administrator approved (reviewed, not rejected), one in review at Meta (PENDING) or
 * one Meta had since taken out of use. FLAGGED, PENDING and events we do not know leave the status
 * alone.
 */
export function metaTemplateStatusMove(event: string, template: TemplateStatusSubject): TemplateStatus | null {
  if (template.status === 'DRAFT') return null;
  const closing = CLOSING[event];
  if (closing) return closing === template.status ? null : closing;
  if (RESTORING.has(event)) {
    const adminApproved = template.reviewedAt !== null && template.rejectionReason === null;
    const outOfUse = template.status === 'PAUSED' || template.status === 'DISABLED' || template.status === 'APPEAL_REQUESTED';
    const inMetaReview = template.status === 'PENDING';
    return adminApproved && (outOfUse || inMetaReview) ? 'APPROVED' : null;
  }
  return null;
}

/**
 * Meta's rejection reason in the words the app shows: its known reason codes (INVALID_FORMAT,
 * TAG_CONTENT_MISMATCH, ...) read out, anything else as Meta wrote it.
 */
export function metaRejectionText(reason: string | null): string {
  const code = reason?.trim() ?? '';
  const words = code && code !== 'NONE' ? (messages.templates.metaRejectionReasons[code] ?? code) : messages.templates.metaNoReason;
  return fillMessage(messages.templates.metaRejected, { reason: words }).slice(0, 500);
}
/** Template statuses Meta holds a template in for a while: its campaigns wait (templateHolds.ts). */
export const HELD_TEMPLATE_STATUSES: ReadonlySet<string> = new Set(['PAUSED', 'APPEAL_REQUESTED']);
/** Template statuses that end a template's campaigns: it will not be sent again as it is. */
export const ENDED_TEMPLATE_STATUSES: ReadonlySet<string> = new Set(['DISABLED', 'REJECTED']);

/** A template's status as Meta moved it (an event, or a sync that found a missed one), or an administrator disabled it; the update that made the move committed. */
export interface TemplateStatusMove {
  templateId: number;
  userId: number;
  name: string;
  language: string;
  from: string;
  to: string;
  /** Meta's event (PAUSED, REINSTATED, ...) and its reason; ADMIN_DISABLED when an administrator disabled it. */
  metaEvent: string;
  reason: string | null;
  at: Date;
  /** An administrator of the platform disabled it (not Meta). */
  byAdmin?: boolean;
}

/** A template's category as Meta moved it (`template_category_update`, or a sync). */
export interface TemplateCategoryMove {
  templateId: number;
  userId: number;
  name: string;
  from: string;
  to: string;
  at: Date;
}
