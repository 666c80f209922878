import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAdminTemplateQueueQuery, TTemplateStatusRequest } from '@shared/schemas/templates';
import { adminTemplateKeys, adminTemplatesApi } from '../api/adminTemplates';
import { toApiError } from '../api/client';
import { META_REVIEW_REFRESH_MS } from './useTemplates';

/** A user's templates and their counts; an unknown user (404) is not worth a retry. */
export function useUserTemplates(userId: number) {
  return useQuery({
    queryKey: adminTemplateKeys.user(userId),
    queryFn: () => adminTemplatesApi.userTemplates(userId),
    enabled: Number.isInteger(userId) && userId > 0,
    retry: (failures, error) => failures < 1 && toApiError(error).status !== 404,
    // While Meta reviews one of them, its answer comes in the background: the page follows it.
    refetchInterval: (current) => (current.state.data?.templates.some((template) => template.inMetaReview) ? META_REVIEW_REFRESH_MS : false),
  });
}

/** The review queue across users; the last page stays on screen while the next filters load. */
export function useTemplateQueue(query: TAdminTemplateQueueQuery) {
  return useQuery({
    queryKey: adminTemplateKeys.queue(query),
    queryFn: () => adminTemplatesApi.queue(query),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.templates.some((template) => template.inMetaReview) ? META_REVIEW_REFRESH_MS : false),
  });
}

/** Templates waiting for review, for the sidebar badge: re-read every minute and after each review. */
export function usePendingTemplateCount(enabled: boolean) {
  return useQuery({
    queryKey: adminTemplateKeys.pendingCount,
    queryFn: adminTemplatesApi.pendingCount,
    enabled,
    refetchInterval: 60_000,
    select: (data) => data.pending,
  });
}

/**
 * Approve or reject. The list is re-read whatever the answer: a refusal such as "Only pending
 * templates can be approved or rejected" means another admin acted first and the row is stale.
 */
export function useSetTemplateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, body }: { templateId: number; body: TTemplateStatusRequest }) =>
      adminTemplatesApi.setStatus(templateId, body),
    // Every admin template view (this user's list, the queue, the badge) may show the row.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminTemplateKeys.all }),
  });
}

/** An administrator's Sync from Meta for a user; every admin template view is re-read after it. */
export function useSyncUserTemplates(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => adminTemplatesApi.syncUserTemplates(userId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminTemplateKeys.all }),
  });
}
