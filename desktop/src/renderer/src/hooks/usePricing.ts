import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPriceDefaultsRequest, TUserPricingRequest } from '@shared/schemas/pricing';
import type { TUserPricingResponse } from '@shared/types';
import { adminPricingApi, pricingKeys } from '../api/adminPricing';

export function usePriceDefaults() {
  return useQuery({ queryKey: pricingKeys.defaults, queryFn: adminPricingApi.defaults });
}

export function usePricingStats() {
  return useQuery({ queryKey: pricingKeys.stats, queryFn: async () => (await adminPricingApi.stats()).stats });
}

export function useUserPricing(userId: number) {
  return useQuery({
    queryKey: pricingKeys.user(userId),
    queryFn: () => adminPricingApi.userPricing(userId),
    enabled: Number.isInteger(userId) && userId > 0,
  });
}

export function useUpdatePriceDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TPriceDefaultsRequest) => adminPricingApi.updateDefaults(body),
    onSuccess: (response) => {
      queryClient.setQueryData(pricingKeys.defaults, response);
      // Averages and every default-priced user's effective prices follow the defaults.
      void queryClient.invalidateQueries({ queryKey: pricingKeys.stats });
      void queryClient.invalidateQueries({ queryKey: pricingKeys.users });
    },
  });
}

export function useUpdateUserPricing(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUserPricingRequest) => adminPricingApi.updateUserPricing(userId, body),
    onSuccess: (response) => {
      queryClient.setQueryData<TUserPricingResponse>(pricingKeys.user(userId), response);
      void queryClient.invalidateQueries({ queryKey: pricingKeys.stats });
    },
  });
}
