import { Check, CheckCheck, Clock, Paperclip, Send, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TConversation, TConversationMessage } from '@shared/schemas/conversations';
import { STREAM_EVENTS } from '@shared/schemas/notifications';
import { errorText } from '../../api/client';
import { campaignsApi } from '../../api/campaigns';
import { conversationKeys, conversationsApi } from '../../api/conversations';
import { useBoundInput } from '../../components/form/fields';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { useLiveEvent } from '../../hooks/useLiveStream';
import { cn } from '../../lib/cn';
import { ZReplyForm } from '../../lib/replyForm';
import { mediaPreview, quickSendHref, replyEffectLabel } from '../../lib/replies';

const t = messages.conversations;
/** The list is read again this often besides the live stream (another instance's messages). */
const LIST_REFRESH_MS = 60_000;

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });
}

function StatusTick({ status }: { status: TConversationMessage['status'] }) {
  if (status === 'read') return <CheckCheck aria-label="Read" className="size-4 text-sky-500" />;
  if (status === 'delivered') return <CheckCheck aria-label="Delivered" className="size-4 text-slate-400" />;
  if (status === 'sent' || status === 'accepted') return <Check aria-label="Sent" className="size-4 text-slate-400" />;
  if (status === 'failed') return <XCircle aria-label="Failed" className="size-4 text-red-500" />;
  return <Clock aria-label="Sending" className="size-4 text-slate-400" />;
}

function MessageBubble({ message }: { message: TConversationMessage }) {
  const mine = message.direction === 'out';
  const kindLabel = t.kinds[message.kind] ?? message.kind;
  const preview = mediaPreview(message.media);
  const effect = replyEffectLabel(message.reply_effect);
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')} data-testid="conversation-message">
      <div className={cn('max-w-[80%] rounded-lg px-3 py-2 text-sm shadow-sm', mine ? 'bg-emerald-100 text-slate-900 dark:bg-emerald-900/60 dark:text-white' : 'bg-white text-slate-900 dark:bg-slate-800 dark:text-white')}>
        {message.answers && (
          <p className="mb-1 border-l-2 border-emerald-500 pl-2 text-xs text-slate-500 dark:text-slate-300">
            {fillMessage(t.answers, { campaign: message.answers.campaign_name ?? `#${message.answers.campaign_id}`, template: message.answers.template ?? '' })}
          </p>
        )}
        {message.kind !== 'text' && <p className="text-xs font-medium text-slate-500 dark:text-slate-300">{kindLabel}</p>}
        {preview === 'image' && <img src={message.media?.url ?? undefined} alt={message.text ?? kindLabel} className="my-1 max-h-60 rounded" />}
        {preview === 'video' && <video src={message.media?.url ?? undefined} controls preload="metadata" className="my-1 max-h-60 rounded" aria-label={message.text ?? kindLabel} />}
        {preview === 'audio' && <audio src={message.media?.url ?? undefined} controls preload="metadata" className="my-1 max-w-full" aria-label={message.text ?? kindLabel} />}
        {preview === 'file' && (
          <a href={message.media?.url ?? undefined} target="_blank" rel="noreferrer" className="text-emerald-700 underline dark:text-emerald-300">
            {t.openFile}
          </a>
        )}
        {message.media?.state === 'pending' && <p className="text-xs italic">{t.mediaPending}</p>}
        {message.media && (message.media.state === 'failed' || message.media.state === 'refused') && message.direction === 'in' && <p className="text-xs italic">{t.mediaFailed}</p>}
        {message.text && <p className="whitespace-pre-wrap break-words">{message.text}</p>}
        {effect && (
          <span
            data-testid="reply-effect"
            className={cn(
              'mt-1 inline-block rounded-full px-2 py-0.5 text-[11px] font-medium',
              message.reply_effect === 'flagged' ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100' : 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
            )}
          >
            {effect}
          </span>
        )}
        <p className="mt-1 flex items-center justify-end gap-1 text-[11px] text-slate-500 dark:text-slate-400">
          {formatWhen(message.at)}
          {mine && <StatusTick status={message.status} />}
        </p>
        {message.error?.title && <p className="text-xs text-red-600 dark:text-red-400">{message.error.title}</p>}
      </div>
    </li>
  );
}

function ConversationRow({ conversation, selected, onSelect }: { conversation: TConversation; selected: boolean; onSelect(): void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? 'true' : undefined}
        data-testid="conversation-row"
        className={cn('w-full border-b border-slate-100 px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:border-slate-800 dark:hover:bg-slate-800/50', selected && 'bg-emerald-50 dark:bg-emerald-900/30')}
      >
        <span className="flex items-center justify-between gap-2">
          <span className="truncate font-medium text-slate-900 dark:text-white">{conversation.profile_name ?? `+${conversation.phone}`}</span>
          {conversation.unread > 0 && (
            <span className="rounded-full bg-emerald-600 px-2 text-xs text-white" aria-label={fillMessage(t.unread, { count: formatIndianNumber(conversation.unread) })}>
              {formatIndianNumber(conversation.unread)}
            </span>
          )}
        </span>
        <span className="block truncate text-xs text-slate-500 dark:text-slate-400">+{conversation.phone}</span>
        <span className="block truncate text-sm text-slate-600 dark:text-slate-300">{conversation.last_message.text}</span>
      </button>
    </li>
  );
}

function Thread({ phone }: { phone: string }) {
  const queryClient = useQueryClient();
  const composer = useSchemaForm(ZReplyForm, { text: '' });
  const draft = useBoundInput({ control: composer.control, name: 'text' });
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pages = useInfiniteQuery({
    queryKey: conversationKeys.thread(phone),
    queryFn: ({ pageParam }) => conversationsApi.thread(phone, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const thread = { isLoading: pages.isLoading, data: pages.data?.pages[0] };
  const conversation = thread.data?.conversation;
  useEffect(() => {
    if (conversation && conversation.unread > 0) {
      void conversationsApi.read(phone).then(() => queryClient.invalidateQueries({ queryKey: ['conversations', 'list'] }));
    }
  }, [conversation, phone, queryClient]);
  const send = useMutation({
    mutationFn: async (input: { text?: string; file?: File }) => {
      if (input.file) {
        const uploaded = await conversationsApi.uploadMedia(input.file);
        return conversationsApi.reply(phone, { media_upload_id: uploaded.media_upload_id, ...(input.text ? { caption: input.text } : {}) });
      }
      return conversationsApi.reply(phone, { text: input.text ?? '' });
    },
    onSuccess: (answer) => {
      composer.reset();
      setError(answer.data.status === 'failed' ? fillMessage(t.sendFailed, { reason: answer.data.error?.title ?? '' }) : null);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
    },
    onError: (failure) => setError(errorText(failure, fillMessage(t.sendFailed, { reason: '' }))),
  });
  const handleSubmit = composer.handleSubmit((reply) => send.mutate({ text: reply.text }));
  // The composer's own check speaks where a failed send does, under the thread.
  const shownError = composer.formState.errors.text?.message ?? error;
  if (thread.isLoading || !thread.data || !conversation) return <Spinner />;
  const ordered = (pages.data?.pages ?? []).flatMap((page) => page.data).reverse();
  return (
    <section className="flex h-full flex-col" aria-label={conversation.profile_name ?? conversation.phone}>
      <header className="border-b border-slate-200 px-4 py-3 dark:border-slate-700">
        <h2 className="font-semibold text-slate-900 dark:text-white">{conversation.profile_name ?? `+${conversation.phone}`}</h2>
        <p className="text-xs text-slate-500 dark:text-slate-400">+{conversation.phone}</p>
      </header>
      {thread.data.campaign_messages.length > 0 && (
        <details className="border-b border-slate-200 px-4 py-2 text-xs dark:border-slate-700">
          <summary className="cursor-pointer text-slate-600 dark:text-slate-300">{t.campaignMessages}</summary>
          <ul className="mt-1 space-y-1">
            {thread.data.campaign_messages.map((m) => (
              <li key={m.message_id} className="flex items-center gap-2 text-slate-600 dark:text-slate-300">
                <StatusTick status={(['sent', 'delivered', 'read', 'failed'] as const).find((s) => s === m.status) ?? 'queued'} />
                {m.campaign_name} · {m.template} · {formatWhen(m.at)}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ol className="flex-1 space-y-2 overflow-y-auto bg-slate-50 p-4 dark:bg-slate-900" data-testid="conversation-thread">
        {pages.hasNextPage ? (
          <li className="flex justify-center">
            <Button variant="outline" size="sm" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
              {t.loadOlder}
            </Button>
          </li>
        ) : null}
        {ordered.map((message) => (
          <MessageBubble key={message.id} message={message} />
        ))}
      </ol>
      {conversation.service_window_open ? (
        <form onSubmit={(event) => void handleSubmit(event)} className="flex items-end gap-2 border-t border-slate-200 p-3 dark:border-slate-700">
          <label htmlFor="reply-text" className="sr-only">
            {t.composerPlaceholder}
          </label>
          <Textarea
            id="reply-text"
            rows={2}
            {...draft.input}
            invalid={Boolean(composer.formState.errors.text)}
            placeholder={t.composerPlaceholder}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) void handleSubmit(event);
            }}
          />
          <input
            ref={fileInput}
            type="file"
            className="sr-only"
            aria-label={t.attach}
            accept="image/jpeg,image/png,video/mp4,audio/*,application/pdf"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) send.mutate({ text: composer.getValues('text').trim(), file });
              event.target.value = '';
            }}
          />
          <Button type="button" variant="outline" onClick={() => fileInput.current?.click()} aria-label={t.attach} disabled={send.isPending}>
            <Paperclip className="size-4" />
          </Button>
          <Button type="submit" disabled={send.isPending} aria-label={t.send}>
            {send.isPending ? <Spinner /> : <Send className="size-4" />}
          </Button>
        </form>
      ) : (
        <div className="border-t border-slate-200 p-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300" role="status">
          <p>{t.windowClosed}</p>
          <Link to={quickSendHref(phone)} className="text-emerald-700 underline dark:text-emerald-300">
            {t.sendTemplate}
          </Link>
        </div>
      )}
      {shownError && (
        <p role="alert" className="px-3 pb-2 text-sm text-red-600 dark:text-red-400">
          {shownError}
        </p>
      )}
    </section>
  );
}

/** /user/replies: conversations per contact, newest first, a thread and a composer inside the 24-hour window. */
export function RepliesPage() {
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [unread, setUnread] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const campaignId = Number(searchParams.get('campaign')) || null;
  const [selected, setSelected] = useState<string | null>(null);
  const filters = { q, unread, campaignId };
  const list = useInfiniteQuery({
    queryKey: conversationKeys.list(filters),
    queryFn: ({ pageParam }) => conversationsApi.list({ q, unread, ...(campaignId ? { campaign_id: campaignId } : {}), ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: LIST_REFRESH_MS,
  });
  // The most recent campaigns to filter by (a campaign card's link names any other).
  const campaigns = useQuery({ queryKey: ['campaigns', 'list', 'replies-filter'], queryFn: () => campaignsApi.list({ page: 1, status: 'all' }) });
  const campaignOptions = campaigns.data?.data.campaigns ?? [];
  useLiveEvent<{ contact: string }>(STREAM_EVENTS.conversation, (change) => {
    void queryClient.invalidateQueries({ queryKey: ['conversations', 'list'] });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.thread(change.contact) });
  });
  const conversations = (list.data?.pages ?? []).flatMap((page) => page.data);
  return (
    <Card>
      <CardContent className="grid h-[70vh] grid-cols-1 gap-0 p-0 md:grid-cols-[320px_1fr]">
        <div className="flex min-h-0 flex-col border-r border-slate-200 dark:border-slate-700">
          <div className="space-y-2 border-b border-slate-200 p-3 dark:border-slate-700">
            <label htmlFor="replies-search" className="sr-only">
              {t.searchPlaceholder}
            </label>
            <Input id="replies-search" type="search" placeholder={t.searchPlaceholder} value={q} onChange={(event) => setQ(event.target.value)} />
            <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <input type="checkbox" checked={unread} onChange={(event) => setUnread(event.target.checked)} />
              {t.filterUnread}
            </label>
            <label htmlFor="replies-campaign" className="sr-only">
              {t.filterCampaign}
            </label>
            <NativeSelect
              id="replies-campaign"
              value={campaignId ? String(campaignId) : ''}
              onChange={(event) => setSearchParams(event.target.value ? { campaign: event.target.value } : {})}
            >
              <option value="">{t.allCampaigns}</option>
              {campaignId && !campaignOptions.some((c) => c.id === campaignId) ? <option value={String(campaignId)}>#{campaignId}</option> : null}
              {campaignOptions.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          {list.isLoading ? (
            <Spinner />
          ) : conversations.length === 0 ? (
            <p className="p-4 text-sm text-slate-500 dark:text-slate-400">{q || unread || campaignId ? t.emptyFiltered : t.empty}</p>
          ) : (
            <ul className="min-h-0 flex-1 overflow-y-auto" aria-label={t.title}>
              {conversations.map((conversation) => (
                <ConversationRow key={conversation.phone} conversation={conversation} selected={conversation.phone === selected} onSelect={() => setSelected(conversation.phone)} />
              ))}
              {list.hasNextPage ? (
                <li className="flex justify-center p-2">
                  <Button variant="outline" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                    {t.loadMore}
                  </Button>
                </li>
              ) : null}
            </ul>
          )}
        </div>
        <div className="min-h-0">{selected ? <Thread phone={selected} /> : <p className="p-6 text-sm text-slate-500 dark:text-slate-400">{t.pickOne}</p>}</div>
      </CardContent>
    </Card>
  );
}
