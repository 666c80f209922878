import type { TTemplate } from '@shared/types';
import type { Template } from '../models';
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
    reviewedAt: template.reviewedAt?.toISOString() ?? null,
    qualityUpdatedAt: template.qualityUpdatedAt?.toISOString() ?? null,
    metaStatus: template.metaStatus ?? null,
    metaStatusReason: template.metaStatusReason ?? null,
    metaStatusAt: template.metaStatusAt?.toISOString() ?? null,
    pauseTitle: template.pauseTitle ?? null,
    pauseDescription: template.pauseDescription ?? null,
  };
}
