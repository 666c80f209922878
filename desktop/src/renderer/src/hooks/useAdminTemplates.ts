import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TTemplateStatusRequest } from '@shared/schemas/templates';
import { adminTemplateKeys, adminTemplatesApi } from '../api/adminTemplates';
import { toApiError } from '../api/client';

/** A user's templates and their counts; an unknown user (404) is not worth a retry. */
export function useUserTemplates(userId: number) {
  return useQuery({
    queryKey: adminTemplateKeys.user(userId),
    queryFn: () => adminTemplatesApi.userTemplates(userId),
    enabled: Number.isInteger(userId) && userId > 0,
    retry: (failures, error) => failures < 1 && toApiError(error).status !== 404,
  });
}

/**
 * Approve or reject. The list is re-read whatever the answer: a refusal such as "Only pending
 * templates can be approved or rejected" means another admin acted first and the row is stale.
 */
export function useSetTemplateStatus(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, body }: { templateId: number; body: TTemplateStatusRequest }) =>
      adminTemplatesApi.setStatus(templateId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminTemplateKeys.user(userId) }),
  });
}
