import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignKeys, campaignsApi, TIMELINE_DAYS, type CampaignListQuery, type SendAgainChoice } from '../api/campaigns';
import { reportKeys } from '../api/reports';
import { campaignListPollMs, type CampaignAction } from '../lib/reports';
import { useInvalidateCredits } from './useCreditBalance';

/** How often the list is re-read while one of its campaigns is still sending. */
const LIVE_POLL_MS = 3_000;

/** One page of campaigns, re-read every few seconds while any of them runs, and when a scheduled one is due. */
export function useCampaignList(query: CampaignListQuery) {
  return useQuery({
    queryKey: campaignKeys.list(query),
    queryFn: async () => (await campaignsApi.list(query)).data,
    placeholderData: keepPreviousData,
    refetchInterval: (current) => campaignListPollMs(current.state.data?.campaigns, LIVE_POLL_MS),
  });
}

export function useCampaignTimeline(days: number = TIMELINE_DAYS) {
  return useQuery({ queryKey: campaignKeys.timeline(days), queryFn: async () => (await campaignsApi.timeline(days)).data });
}

/**
 * After a campaign changed: its lists, the message report built from it, the dashboards' figures
 * and the wallet (a cancel refunds, a resend charges) are all re-read.
 */
function useInvalidateCampaignData() {
  const queryClient = useQueryClient();
  const invalidateCredits = useInvalidateCredits();
  return () => {
    void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    void queryClient.invalidateQueries({ queryKey: reportKeys.all });
    invalidateCredits();
  };
}

export function useCampaignAction() {
  const invalidate = useInvalidateCampaignData();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CampaignAction }) => campaignsApi.act(id, action),
    // A refusal (409) means the row on screen is stale, so it is re-read either way.
    onSettled: () => invalidate(),
  });
}

/** A scheduled campaign's new time; re-read either way, as a refusal (409) means it already started. */
export function useRescheduleCampaign() {
  const invalidate = useInvalidateCampaignData();
  return useMutation({
    mutationFn: ({ id, scheduledAt }: { id: number; scheduledAt: string }) => campaignsApi.reschedule(id, scheduledAt),
    onSettled: () => invalidate(),
  });
}

/** The cost of resending a campaign's failed messages, asked afresh each time the dialog opens. */
export function useSendAgainPreview(campaignId: number | null, choice: SendAgainChoice | null) {
  return useQuery({
    queryKey: campaignKeys.sendAgainPreview(campaignId, choice),
    queryFn: async () => (await campaignsApi.sendAgainPreview(campaignId ?? 0, choice ?? { audience: 'replied' })).preview,
    enabled: campaignId !== null && choice !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function useSendAgain() {
  const invalidate = useInvalidateCampaignData();
  return useMutation({
    mutationFn: ({ id, choice }: { id: number; choice: SendAgainChoice }) => campaignsApi.sendAgain(id, choice),
    onSettled: () => invalidate(),
  });
}

/** Replies, the reply rate and taps per button of one campaign (asked only when it has replies). */
export function useCampaignReplies(campaignId: number, enabled: boolean) {
  return useQuery({
    queryKey: campaignKeys.replies(campaignId),
    queryFn: async () => (await campaignsApi.replies(campaignId)).data,
    enabled,
  });
}
