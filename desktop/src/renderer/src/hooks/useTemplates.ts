import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { templateKeys, templatesApi, type TemplateListQuery, type TTemplateMutationResponse } from '../api/templates';
import { toApiError } from '../api/client';
import { templateFormData, type TemplateSubmission } from '../lib/templatePayload';

/** How often a list showing a template in review at Meta is read again. */
export const META_REVIEW_REFRESH_MS = 3_000;

/** One page of the owner's templates; the previous page stays on screen while the next loads. */
export function useTemplateList(query: TemplateListQuery) {
  return useQuery({
    queryKey: templateKeys.list(query),
    queryFn: () => templatesApi.list(query),
    placeholderData: keepPreviousData,
    // While Meta reviews one of them, its answer comes in the background: the page follows it.
    refetchInterval: (current) => (current.state.data?.data.some((template) => template.inMetaReview) ? META_REVIEW_REFRESH_MS : false),
  });
}

/**
 * One template for the edit screen; a 404 (gone, or someone else's) is not worth a retry. The
 * builder copies it into its own state once, so a later refetch only updates the status check.
 */
export function useTemplate(id: number) {
  return useQuery({
    queryKey: templateKeys.detail(id),
    queryFn: async () => (await templatesApi.get(id)).data,
    enabled: Number.isInteger(id) && id > 0,
    retry: (failures, error) => failures < 1 && toApiError(error).status !== 404,
  });
}

function useInvalidateTemplates() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: templateKeys.all });
}

/** Create or update from the builder: multipart for marketing and utility, JSON for authentication. */
export function useSaveTemplate(templateId: number | null) {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (submission: TemplateSubmission): Promise<TTemplateMutationResponse> => {
      if (submission.kind === 'authentication') return templatesApi.createAuthentication(submission.request);
      const body = templateFormData(submission.request, submission.file);
      return templateId === null ? templatesApi.create(body) : templatesApi.update(templateId, body);
    },
    onSuccess: () => invalidate(),
  });
}

export function useSubmitTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (id: number) => templatesApi.submit(id),
    // Re-read whatever the answer: a refusal means the row on screen is stale.
    onSettled: () => invalidate(),
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (id: number) => templatesApi.remove(id),
    onSettled: () => invalidate(),
  });
}

/** Sync from Meta; every template list is re-read whatever the answer. */
export function useSyncTemplates() {
  const invalidate = useInvalidateTemplates();
  return useMutation({ mutationFn: () => templatesApi.sync(), onSettled: () => invalidate() });
}
