import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateUserRequest } from '@shared/schemas/admin';
import type { TAdminUser } from '@shared/types';
import { adminApi, adminKeys } from '../api/admin';

export function useAdminUsers() {
  return useQuery({ queryKey: adminKeys.users, queryFn: async () => (await adminApi.users()).users });
}

export function useAdminStats() {
  return useQuery({ queryKey: adminKeys.stats, queryFn: async () => (await adminApi.stats()).stats });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateUserRequest) => adminApi.createUser(body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmBalance }: { id: number; confirmBalance?: number }) => adminApi.deleteUser(id, confirmBalance),
    onSuccess: (_response, { id }) => {
      // Spec 001 §4: the row goes locally; the totals are re-read since they changed too.
      queryClient.setQueryData<TAdminUser[]>(adminKeys.users, (users) => users?.filter((user) => user.id !== id));
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
