import { ChevronLeft, ChevronRight, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { UNKNOWN_WEBHOOK_EVENTS_PAGE_SIZE, type TUnknownWebhookEvent } from '@shared/schemas/webhookEvents';
import { errorText } from '../../api/client';
import { webhookEventsApi, webhookEventsKeys } from '../../api/webhookEvents';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';

const text = messages.unknownWebhookEvents;

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The stored body, indented when it is JSON (it may be cut at its size limit, then shown as is). */
function readableBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function EventRow({ event }: { event: TUnknownWebhookEvent }) {
  const [open, setOpen] = useState(false);
  const bodyId = `webhook-event-body-${event.id}`;
  return (
    <>
      <tr className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30" data-testid="unknown-webhook-event">
        <th scope="row" className="px-6 py-3 text-left font-mono font-medium break-all text-slate-900 dark:text-white">
          {event.field}
        </th>
        <td className="px-4 py-3 font-mono break-all text-slate-600 dark:text-slate-300">{event.wabaId ?? '—'}</td>
        <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{formatWhen(event.receivedAt)}</td>
        <td className="px-4 py-3 text-right">
          <Button variant="outline" size="sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((value) => !value)}>
            {open ? text.hide : text.view}
            <span className="sr-only"> {event.field}</span>
          </Button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={4} className="px-6 pb-4">
            <pre
              id={bodyId}
              aria-label={`${text.body}: ${event.field}`}
              tabIndex={0}
              className="max-h-96 overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
            >
              {readableBody(event.body)}
            </pre>
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** /admin/webhook-events: signed webhook changes of fields the server does not act on, newest first. */
export function AdminWebhookEventsPage() {
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: webhookEventsKeys.unknown(page),
    queryFn: () => webhookEventsApi.unknown(page, UNKNOWN_WEBHOOK_EVENTS_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: 1,
    refetchOnWindowFocus: false,
  });
  const events = query.data?.events ?? [];
  const totalPages = query.data?.totalPages ?? 1;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">{text.title}</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">{text.description}</p>
        </div>
        <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
          <RefreshCw className={cn(query.isFetching && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
          {messages.reportsScreen.refresh}
        </Button>
      </div>
      {query.error ? (
        <ErrorCard title={text.loadFailed} detail={errorText(query.error, text.loadFailed)} onRetry={() => void query.refetch()} isRetrying={query.isFetching} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{text.received}</CardTitle>
            <CardDescription aria-live="polite">{query.data ? fillMessage(text.count, { count: formatIndianNumber(query.data.total) }) : messages.common.loading}</CardDescription>
          </CardHeader>
          <CardContent className="p-0 pb-2">
            <div className="overflow-x-auto">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <caption className="sr-only">{text.title}</caption>
                <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="px-6 py-3 font-medium">{text.field}</th>
                    <th scope="col" className="px-4 py-3 font-medium">{text.wabaId}</th>
                    <th scope="col" className="px-4 py-3 font-medium">{text.receivedAt}</th>
                    <th scope="col" className="px-4 py-3 text-right font-medium">
                      <span className="sr-only">{text.body}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {query.isLoading ? (
                    <tr>
                      <td colSpan={4} className="px-6 py-10 text-center">
                        <Spinner />
                      </td>
                    </tr>
                  ) : (
                    events.map((event) => <EventRow key={event.id} event={event} />)
                  )}
                  {!query.isLoading && events.length === 0 ? (
                    <tr>
                      <td colSpan={4} className="px-6 py-10 text-center text-slate-500 dark:text-slate-400">
                        {text.empty}
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
            </div>
            {totalPages > 1 ? (
              <nav className="flex items-center justify-end gap-2 px-6 pt-3" aria-label={text.title}>
                <span className="text-sm text-slate-600 dark:text-slate-400">{fillMessage(text.page, { page, pages: totalPages })}</span>
                <Button variant="outline" size="sm" disabled={page <= 1 || query.isFetching} onClick={() => setPage((value) => value - 1)}>
                  <ChevronLeft aria-hidden="true" />
                  {text.previous}
                </Button>
                <Button variant="outline" size="sm" disabled={page >= totalPages || query.isFetching} onClick={() => setPage((value) => value + 1)}>
                  {text.next}
                  <ChevronRight aria-hidden="true" />
                </Button>
              </nav>
            ) : null}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
