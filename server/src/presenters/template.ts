import { formatIndianNumber } from '@shared/money';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplate, TTemplateSyncResponse, TTemplateSyncResult } from '@shared/types';
import type { Template } from '../models';
import { isInMetaReview } from '../templates/metaSubmission';
import { templateVariables } from '../templates/service';

export function presentTemplate(template: Template): TTemplate {
  return {
    id: template.id,
    name: template.name,
    category: template.category,
    language: template.language,
    status: template.status,
    components: template.components,
    variables: templateVariables(template),
    variableExamples: template.variableExamples,
    headerType: template.headerType,
    headerMediaUrl: template.headerMediaPath ? `/api/templates/${template.id}/media` : null,
    headerMediaName: template.headerMediaName,
    qualityRating: template.qualityRating,
    rejectionReason: template.rejectionReason,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
    submittedAt: template.submittedAt?.toISOString() ?? null,
    inMetaReview: isInMetaReview(template),
    metaSubmittedAt: template.metaSubmittedAt?.toISOString() ?? null,
    metaSubmitError: template.metaSubmitError ?? null,
    importedAt: template.importedAt?.toISOString() ?? null,
    reviewedAt: template.reviewedAt?.toISOString() ?? null,
    qualityUpdatedAt: template.qualityUpdatedAt?.toISOString() ?? null,
    metaStatus: template.metaStatus ?? null,
    metaStatusReason: template.metaStatusReason ?? null,
    metaStatusAt: template.metaStatusAt?.toISOString() ?? null,
    pauseTitle: template.pauseTitle ?? null,
    pauseDescription: template.pauseDescription ?? null,
  };
}

/** A sync's counts, and the sentence the screens show for them. */
export function presentTemplateSync(result: TTemplateSyncResult): TTemplateSyncResponse {
  const counts = Object.fromEntries(Object.entries(result).map(([key, value]) => [key, formatIndianNumber(value)]));
  return { success: true, message: fillMessage(messages.templateSync.result, counts), data: { ...result } };
}
