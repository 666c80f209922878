import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { toast } from 'sonner';
import { formatIstTime } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import { campaignKeys } from '../../api/campaigns';
import { sendingApi, sendingKeys } from '../../api/sending';
import { toApiError } from '../../api/client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';

/**
 * A sender number Meta refused to send for (an expired token, a policy block, ...): since when and
 * why, and "Resume sending" once the cause is fixed (its paused campaigns send the rest).
 */
export function StoppedNumberNotice({ number }: { number: TSenderNumber }) {
  const queryClient = useQueryClient();
  const resume = useMutation({
    mutationFn: () => sendingApi.resumeNumber(number.id),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: sendingKeys.numbers });
      void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
    onError: (error) => toast.error(toApiError(error).message),
  });
  const stopped = number.sending_stopped;
  if (!stopped) return null;
  const reason = stopped.code === null ? stopped.reason : `${stopped.code}: ${stopped.reason}`;
  return (
    <Alert tone="warning" data-testid="number-sending-stopped">
      <p>
        {number.label} ({number.display_number}) — {fillMessage(messages.senderStops.stoppedState, { date: formatIstTime(stopped.since), reason })}
      </p>
      <Button variant="outline" size="sm" className="mt-2" onClick={() => resume.mutate()} disabled={resume.isPending}>
        <Play aria-hidden="true" />
        {messages.senderStops.resume}
      </Button>
    </Alert>
  );
}
