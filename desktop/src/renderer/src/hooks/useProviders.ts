import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBusinessInfoRequest, TProviderSettingsRequest } from '@shared/schemas/providers';
import type { TProviderSettings } from '@shared/types';
import { adminKeys } from '../api/admin';
import { adminProvidersApi, providerKeys } from '../api/adminProviders';
import { toApiError } from '../api/client';
import { defaultProviderSettings } from '../lib/providerSettingsForm';

/** The WhatsApp Business tab's data; a 404 (unknown user) is not worth a retry. */
export function useProviderSettings(userId: number) {
  return useQuery({
    queryKey: providerKeys.settings(userId),
    queryFn: async (): Promise<TProviderSettings> => {
      const { success: _success, ...settings } = await adminProvidersApi.settings(userId);
      return settings;
    },
    retry: (failures, error) => failures < 1 && toApiError(error).status !== 404,
  });
}

/** Saves the channel settings; the answer goes straight into the cache, so the form reloads from it. */
export function useSaveProviderSettings(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TProviderSettingsRequest) => adminProvidersApi.saveSettings(userId, body),
    onSuccess: (response) => {
      const key = providerKeys.settings(userId);
      const loaded = queryClient.getQueryData<TProviderSettings>(key) !== undefined;
      queryClient.setQueryData<TProviderSettings>(key, (current) => ({
        ...(current ?? defaultProviderSettings(userId)),
        channelId: response.channelId,
        apiKeySet: response.apiKeySet,
        updatedAt: response.updatedAt,
      }));
      // Saved over a failed load: the business name and webhook URL are still unknown.
      if (!loaded) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** Saves business info; the user's Configured flag, the totals and the provider tab change with it. */
export function useSaveBusinessInfo(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBusinessInfoRequest) => adminProvidersApi.saveBusinessInfo(userId, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.userDetails(userId) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.users });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
      void queryClient.invalidateQueries({ queryKey: providerKeys.settings(userId) });
    },
  });
}
