import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { errorText } from '../../api/client';
import { numberHealthApi, numberHealthKeys } from '../../api/numberHealth';
import { sendingApi, sendingKeys } from '../../api/sending';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Spinner } from '../ui/spinner';
import { NumberHealthTable, type NumberHealthRow } from './NumberHealthTable';

const text = messages.numberHealth;

/**
 * Cloud API numbers' health at Meta. `scope` "own": the signed-in owner's numbers; "admin": every
 * number, or one account's when `userId` is given (the admin's provider tab).
 */
export function NumberHealthCard({ scope, userId }: { scope: 'own' | 'admin'; userId?: number }) {
  const queryClient = useQueryClient();
  const [refreshingId, setRefreshingId] = useState<number | null>(null);
  const admin = useQuery({ queryKey: numberHealthKeys.adminNumbers(), queryFn: numberHealthApi.adminNumbers, enabled: scope === 'admin', retry: 1, refetchOnWindowFocus: false });
  const own = useQuery({ queryKey: sendingKeys.numbers, queryFn: sendingApi.numbers, enabled: scope === 'own', retry: 1, refetchOnWindowFocus: false });
  const refresh = useMutation({
    mutationFn: (id: number) => (scope === 'admin' ? numberHealthApi.adminRefresh(id) : numberHealthApi.ownRefresh(id)),
    onMutate: (id) => setRefreshingId(id),
    onSuccess: async (response) => {
      toast.success(response.message);
      await queryClient.invalidateQueries({ queryKey: scope === 'admin' ? numberHealthKeys.adminNumbers() : sendingKeys.numbers });
    },
    onError: (error) => toast.error(errorText(error, text.notFound)),
    onSettled: () => setRefreshingId(null),
  });
  const rows: NumberHealthRow[] =
    scope === 'admin'
      ? (admin.data?.numbers ?? [])
          .filter((n) => userId === undefined || n.user_id === userId)
          .map((n) => ({ id: n.id, label: n.label, displayNumber: n.display_number, messagesPerSecond: n.messages_per_second, health: n.health, ...(userId === undefined ? { owner: n.email } : {}) }))
      : (own.data?.data ?? []).flatMap((n) => (n.provider === 'cloud_api' && n.health ? [{ id: n.id, label: n.label, displayNumber: n.display_number, messagesPerSecond: n.messages_per_second, health: n.health }] : []));
  const loading = scope === 'admin' ? admin.isLoading : own.isLoading;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{text.title}</CardTitle>
        <CardDescription>{text.notCloudApi}</CardDescription>
      </CardHeader>
      <CardContent className="p-0 pb-2">{loading ? <Spinner className="m-6" /> : <NumberHealthTable rows={rows} onRefresh={(id) => refresh.mutate(id)} refreshingId={refreshingId} />}</CardContent>
    </Card>
  );
}
