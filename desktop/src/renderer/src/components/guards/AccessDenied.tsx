import { ShieldAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROLE_HOME } from '@shared/constants';
import { messages } from '@shared/messages';
import { Card, CardContent } from '../ui/card';
import { Spinner } from '../ui/spinner';

/** How long a non-admin reads the message before being taken to their dashboard. */
const REDIRECT_DELAY_MS = 2_000;

export function AccessDenied() {
  const navigate = useNavigate();

  useEffect(() => {
    const timer = setTimeout(() => navigate(ROLE_HOME.user, { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <div className="flex min-h-[60vh] items-center justify-center p-4">
      <Card className="w-full max-w-md text-center">
        <CardContent className="flex flex-col items-center gap-4 p-8">
          <span className="flex size-14 items-center justify-center rounded-full bg-red-100 text-red-600 dark:bg-red-500/15 dark:text-red-400">
            <ShieldAlert className="size-7" aria-hidden="true" />
          </span>
          <h2 className="text-2xl font-bold">{messages.common.accessDenied}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{messages.common.accessDeniedBody}</p>
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Spinner />
            {messages.common.accessDeniedRedirect}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
