import { useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAdminChangePasswordRequest, TCreditAdjustmentRequest, TUpdateUserRequest } from '@shared/schemas/admin';
import type { TAdminUserDetails } from '@shared/types';
import { adminApi, adminKeys } from '../api/admin';
import { toApiError } from '../api/client';
import { pricingKeys } from '../api/adminPricing';
import { useSessionStore } from '../stores/sessionStore';

/** One user as the admin screens show them; a 404 is not worth a retry. */
export function useAdminUserDetails(id: number) {
  return useQuery({
    queryKey: adminKeys.userDetails(id),
    queryFn: async () => (await adminApi.userDetails(id)).user,
    enabled: Number.isInteger(id) && id > 0,
    retry: (failures, error) => failures < 1 && toApiError(error).status !== 404,
  });
}

/**
 * After a change to a user, every admin view of them is re-read; and when the admin changed
 * their own account, the session copy too (header name, credit badge).
 */
function useRefreshAfterUserChange() {
  const queryClient = useQueryClient();
  return (id: number) => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.userDetails(id) });
    void queryClient.invalidateQueries({ queryKey: adminKeys.users });
    void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    if (useSessionStore.getState().user?.id === id) void useSessionStore.getState().refreshUser({ fresh: true });
  };
}

/** 128 random bits as hex; crypto.randomUUID is missing on plain-http origins other than localhost. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function useAdjustCredits(id: number) {
  const refresh = useRefreshAfterUserChange();
  const queryClient = useQueryClient();
  // Sending the same adjustment again after a failure (a timeout the server may have completed)
  // reuses its key, so the money moves once; a changed or successful adjustment gets a new key.
  const pending = useRef<{ key: string; fingerprint: string } | null>(null);
  return useMutation({
    mutationFn: (body: TCreditAdjustmentRequest) => {
      const fingerprint = JSON.stringify(body);
      if (pending.current?.fingerprint !== fingerprint) pending.current = { key: newIdempotencyKey(), fingerprint };
      return adminApi.adjustCredits(id, body, pending.current.key);
    },
    onSuccess: (response) => {
      pending.current = null;
      // The server's balance shows at once; the re-read that follows confirms it.
      queryClient.setQueryData<TAdminUserDetails['user']>(adminKeys.userDetails(id), (user) =>
        user ? { ...user, creditBalance: response.creditBalance } : user,
      );
      refresh(id);
    },
  });
}

export function useUpdateUser(id: number) {
  const refresh = useRefreshAfterUserChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateUserRequest) => adminApi.updateUser(id, body),
    onSuccess: () => {
      refresh(id);
      // A role change moves the user in or out of the pricing figures.
      void queryClient.invalidateQueries({ queryKey: pricingKeys.stats });
    },
  });
}

export function useChangeUserPassword(id: number) {
  return useMutation({ mutationFn: (body: TAdminChangePasswordRequest) => adminApi.changePassword(id, body) });
}

/** The user's held refunds: count and total of all, and the first few hundred messages. */
export function useHeldRefunds(id: number) {
  return useQuery({
    queryKey: adminKeys.heldRefunds(id),
    queryFn: () => adminApi.heldRefunds(id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useReleaseHeldRefunds(id: number) {
  const refresh = useRefreshAfterUserChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => adminApi.releaseHeldRefunds(id),
    onSuccess: (response) => {
      queryClient.setQueryData<TAdminUserDetails['user']>(adminKeys.userDetails(id), (user) =>
        user ? { ...user, creditBalance: response.creditBalance } : user,
      );
      refresh(id);
    },
    // After a failure too: another administrator may have released them meanwhile.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.heldRefunds(id) }),
  });
}
