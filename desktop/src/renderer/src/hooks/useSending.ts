import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { GATEWAY_LOADING_KEY } from '../components/layout/AuthenticatedLayout';
import { useUIStore } from '../stores/uiStore';
import type { TPriceSet } from '@shared/pricing';
import { STREAM_EVENTS } from '@shared/schemas/notifications';
import type { TCampaign } from '@shared/schemas/sending';
import { sendingApi, sendingKeys, type SendPreviewRequest } from '../api/sending';
import { laterCampaignReading, shouldFollowCampaign } from '../lib/sending/campaign';
import { FALLBACK_PRICES, SEND_SCREEN } from '../lib/sending/setup';
import { useLiveEvent, useLiveStreamConnected } from './useLiveStream';

/**
 * The user's sender numbers; every user has at least the sandbox one. Their first load is the send
 * screens' connection to the provider, so the layout's 'Connecting to SMS Gateway...' overlay
 * (spec 000 §2.6) shows meanwhile.
 */
export function useSenderNumbers() {
  const query = useQuery({ queryKey: sendingKeys.numbers, queryFn: async () => (await sendingApi.numbers()).data, staleTime: 60_000 });
  const setLoading = useUIStore((state) => state.setLoading);
  const connecting = query.isPending && query.fetchStatus === 'fetching';
  useEffect(() => {
    setLoading(GATEWAY_LOADING_KEY, connecting);
    return () => setLoading(GATEWAY_LOADING_KEY, false);
  }, [connecting, setLoading]);
  return query;
}

export function useSendLanguages() {
  return useQuery({ queryKey: sendingKeys.languages, queryFn: async () => (await sendingApi.languages()).data, staleTime: Infinity });
}

/** Usable (approved or active) non-authentication templates of one language. */
export function useSendTemplates(language: string) {
  return useQuery({
    queryKey: sendingKeys.templates(language),
    queryFn: async () => (await sendingApi.templates(language)).data,
    enabled: language !== '',
  });
}

export function useTemplateDetails(templateName: string, language: string) {
  return useQuery({
    queryKey: sendingKeys.templateDetails(templateName, language),
    queryFn: async () => (await sendingApi.templateDetails(templateName, language)).data,
    enabled: templateName !== '' && language !== '',
  });
}

/**
 * Per-message prices: the user's effective ones, else the global defaults, else the spec's
 * 0.80/0.15/0.15. Failures fall back silently (spec §8), so this query never errors.
 */
export function useSendPricing(): TPriceSet {
  const query = useQuery({
    queryKey: sendingKeys.pricing,
    queryFn: async (): Promise<TPriceSet> => {
      try {
        const { effective } = await sendingApi.myPricing();
        return { marketing: effective.marketing, utility: effective.utility, authentication: effective.authentication, service: effective.service ?? FALLBACK_PRICES.service };
      } catch {
        try {
          const defaults = await sendingApi.priceDefaults();
          return { marketing: defaults.marketing, utility: defaults.utility, authentication: defaults.authentication, service: defaults.service ?? FALLBACK_PRICES.service };
        } catch {
          return FALLBACK_PRICES;
        }
      }
    },
    staleTime: 60_000,
    retry: false,
  });
  return query.data ?? FALLBACK_PRICES;
}

/** The server's cost preview for the open cost modal; re-asked each time the modal opens. */
export function useCostPreview(request: SendPreviewRequest | null, enabled: boolean) {
  return useQuery({
    queryKey: sendingKeys.costPreview(request),
    queryFn: async () => {
      if (!request) throw new Error('No send to price');
      return (await sendingApi.sendPreview(request)).preview;
    },
    enabled: enabled && request !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/**
 * An accepted campaign's live counts while `enabled` (its dialog is open), until it is completed or
 * cancelled and its delivery reports are in: from the tab's event stream (`campaign_progress`) as
 * they change, with a slow re-read meanwhile; every 1.5 s where there is no stream (the desktop app).
 */
export function useCampaignProgress(campaignId: number | null, enabled: boolean) {
  const queryClient = useQueryClient();
  const live = useLiveStreamConnected();
  const following = enabled && campaignId !== null;
  useLiveEvent<TCampaign>(
    STREAM_EVENTS.campaignProgress,
    (campaign) => {
      if (campaignId === null || campaign.id !== campaignId) return;
      queryClient.setQueryData<TCampaign>(sendingKeys.campaign(campaignId), (current) => laterCampaignReading(current, campaign));
    },
    following,
  );
  return useQuery({
    queryKey: sendingKeys.campaign(campaignId),
    queryFn: async () => (await sendingApi.campaign(campaignId ?? 0)).data,
    enabled: following,
    refetchInterval: (query) => {
      const campaign = query.state.data;
      if (campaign && !shouldFollowCampaign(campaign)) return false;
      return live ? SEND_SCREEN.campaignStreamPollMs : SEND_SCREEN.campaignPollMs;
    },
    // A poll answer older than an event that came meanwhile does not move the counts back.
    structuralSharing: (current, incoming) => laterCampaignReading(current as TCampaign | undefined, incoming as TCampaign),
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
  });
}
