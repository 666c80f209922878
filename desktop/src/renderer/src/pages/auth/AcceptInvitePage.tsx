import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { teamApi } from '../../api/team';
import { errorText } from '../../api/errors';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

const t = messages.team;

/** Opened from an invitation link by a signed-in person: joins the account and switches to it. */
export function AcceptInvitePage() {
  const { token = '' } = useParams();
  const accept = useMutation({
    mutationFn: async () => {
      const joined = await teamApi.accept(token);
      await teamApi.switchTo(joined.account.id);
      return joined;
    },
    onSuccess: (joined) => {
      toast.success(joined.message);
      // A full load: every screen's data (and the session's balance) belongs to the account just joined.
      window.location.assign('/user/dashboard');
    },
  });
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <CardTitle>{t.acceptTitle}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">{t.acceptBody}</p>
        {accept.isError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errorText(accept.error, messages.common.unknownError)}
          </p>
        ) : null}
        <Button type="button" onClick={() => accept.mutate()} disabled={accept.isPending}>
          {t.acceptButton}
        </Button>
      </CardContent>
    </Card>
  );
}
