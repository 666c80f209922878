import { AlertCircle, RefreshCw } from 'lucide-react';
import { messages } from '@shared/messages';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

/** A failed load with a Retry button (spec 001 "Admin dashboard"). */
export function ErrorCard({
  title = messages.admin.fetchDataFailed,
  detail,
  onRetry,
  isRetrying = false,
}: {
  title?: string;
  detail?: string;
  onRetry: () => void;
  isRetrying?: boolean;
}) {
  return (
    <Card className="border-red-200 dark:border-red-500/30">
      <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-red-100 text-red-600 dark:bg-red-500/15 dark:text-red-400">
          <AlertCircle className="size-6" aria-hidden="true" />
        </span>
        <h2 className="text-lg font-semibold" role="alert">
          {title}
        </h2>
        {detail && detail !== title ? <p className="text-sm text-slate-500 dark:text-slate-400">{detail}</p> : null}
        <Button variant="outline" onClick={onRetry} disabled={isRetrying}>
          <RefreshCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
          Retry
        </Button>
      </CardContent>
    </Card>
  );
}
