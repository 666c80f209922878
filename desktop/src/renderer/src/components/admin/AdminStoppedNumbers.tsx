import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { toast } from 'sonner';
import { formatIstTime } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import { apiGet, apiPost, toApiError } from '../../api/client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';

const numbersKey = (userId: number) => ['admin', 'users', userId, 'sender-numbers'] as const;

/**
 * The user's sender numbers Meta refused to send for (an expired token, a policy block, ...): why
 * and since when, and "Resume sending" once the credentials are fixed. Nothing when all send.
 */
export function AdminStoppedNumbers({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const numbers = useQuery({
    queryKey: numbersKey(userId),
    queryFn: async () => (await apiGet<{ success: true; data: TSenderNumber[] }>(`/api/admin/users/${userId}/sender-numbers`)).data,
  });
  const resume = useMutation({
    mutationFn: (numberId: number) => apiPost<{ message: string }>(`/api/admin/users/${userId}/sender-numbers/${numberId}/resume-sending`),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: numbersKey(userId) });
    },
    onError: (error) => toast.error(toApiError(error).message),
  });
  const stopped = (numbers.data ?? []).filter((number) => number.sending_stopped);
  if (stopped.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="admin-stopped-numbers">
      {stopped.map((number) => {
        const state = number.sending_stopped;
        if (!state) return null;
        const reason = state.code === null ? state.reason : `${state.code}: ${state.reason}`;
        return (
          <Alert key={number.id} tone="warning">
            <p>
              {number.label} ({number.display_number}) — {fillMessage(messages.senderStops.stoppedState, { date: formatIstTime(state.since), reason })}
            </p>
            <Button type="button" variant="outline" size="sm" className="mt-2" onClick={() => resume.mutate(number.id)} disabled={resume.isPending}>
              <Play aria-hidden="true" />
              {messages.senderStops.resume}
            </Button>
          </Alert>
        );
      })}
    </div>
  );
}
