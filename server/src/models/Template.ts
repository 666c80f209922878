import type { TTemplateComponent } from '@shared/types';
import type { HeaderType, TemplateCategory } from '@shared/templates';
import { BaseModel } from './BaseModel';

export class Template extends BaseModel {
  static override tableName = 'templates';
  static override timestampAttributes = ['createdAt', 'updatedAt', 'submittedAt', 'reviewedAt', 'metaStatusAt', 'qualityUpdatedAt', 'metaSubmittedAt', 'metaSubmitDueAt', 'metaSubmitClaimedUntil', 'importedAt'] as const;
  static override get jsonAttributes(): string[] {
    return ['components', 'variableExamples'];
  }

  id!: number;
  userId!: number;
  name!: string;
  language!: string;
  category!: TemplateCategory;
  status!: string;
  headerType!: HeaderType;
  components!: TTemplateComponent[];
  variableExamples!: Record<string, string>;
  headerMediaPath!: string | null;
  headerMediaMime!: string | null;
  headerMediaName!: string | null;
  headerMediaSize!: number | null;
  rejectionReason!: string | null;
  qualityRating!: string | null;
  providerTemplateId!: string | null;
  /** Meta's own status event as sent (APPROVED, PAUSED, FLAGGED, ...), its reason and time. */
  metaStatus!: string | null;
  metaStatusReason!: string | null;
  metaStatusAt!: Date | null;
  /** Meta's `other_info` on a pause. */
  pauseTitle!: string | null;
  pauseDescription!: string | null;
  qualityUpdatedAt!: Date | null;
  /** Set when a sync from Meta brought it in (approved at Meta, never built here). */
  importedAt!: Date | null;
  /** When Meta took the template (after the administrator's approval); null until then. */
  metaSubmittedAt!: Date | null;
  /** Why the last try to submit it did not reach Meta (it is tried again). */
  metaSubmitError!: string | null;
  metaSubmitAttempts!: number;
  /** When the next try to submit it is due; null when none is. */
  metaSubmitDueAt!: Date | null;
  /** Until when one instance holds its submission. */
  metaSubmitClaimedUntil!: Date | null;
  submittedAt!: Date | null;
  reviewedAt!: Date | null;
  reviewedBy!: number | null;
  createdAt!: Date;
  updatedAt!: Date;
}
