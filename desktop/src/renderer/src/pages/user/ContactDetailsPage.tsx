import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { formatPhone } from '@shared/phone';
import type { TContactHistory } from '@shared/schemas/contacts';
import { errorText } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { ContactForm } from '../../components/contacts/ContactForm';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SimpleTable } from '../../components/ui/simple-table';
import { formatDateTime } from '../../lib/dates';

const s = messages.contactScreens;
const muted = 'text-sm text-slate-500 dark:text-slate-400';

/** /user/contacts/:phone: one contact, its attributes, tags, opt-in and opt-out, counts and history. */
export function ContactDetailsPage() {
  const { phone = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const contact = useQuery({ queryKey: contactKeys.one(phone), queryFn: () => contactsApi.get(phone) });
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const history = useInfiniteQuery({
    queryKey: contactKeys.history(phone),
    queryFn: ({ pageParam }) => contactsApi.history(phone, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TContactHistory) => last.next_cursor,
  });
  const update = useMutation({
    mutationFn: (patch: Parameters<typeof contactsApi.update>[1]) => contactsApi.update(phone, patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(contactKeys.one(phone), saved);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      setEditing(false);
      toast.success(s.saved);
    },
  });
  const remove = useMutation({
    mutationFn: () => contactsApi.remove(phone),
    onSuccess: () => {
      toast.success(s.deleted);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      void navigate('/user/contacts');
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });

  if (contact.isPending) return <p className={muted}>{messages.common.loading}</p>;
  if (contact.isError) return <p className={muted}>{errorText(contact.error, messages.common.unknownError)}</p>;
  const c = contact.data;
  const entries = history.data?.pages.flatMap((page) => page.data) ?? [];
  const attributeEntries = Object.entries(c.attributes);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Link to="/user/contacts" className="inline-flex items-center gap-1 text-sm text-emerald-700 hover:underline dark:text-emerald-400">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {s.back}
          </Link>
          <h2 className="mt-2 text-2xl font-bold tracking-tight">{c.name ?? formatPhone(c.phone)}</h2>
          <p className={muted}>{formatPhone(c.phone)}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={() => setEditing(true)} disabled={editing}>
            <Pencil aria-hidden="true" />
            {s.edit}
          </Button>
          <Button type="button" variant="destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            {s.deleteContact}
          </Button>
        </div>
      </div>

      {editing ? (
        <Card>
          <CardHeader>
            <CardTitle>{s.editTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            <ContactForm
              contact={c}
              attributes={attributes.data ?? []}
              busy={update.isPending}
              onSubmit={async (_input, patch) => {
                await update.mutateAsync(patch);
              }}
              onCancel={() => setEditing(false)}
            />
          </CardContent>
        </Card>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{s.attributesTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            {attributeEntries.length === 0 ? (
              <p className={muted}>{s.noAttributes}</p>
            ) : (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {attributeEntries.map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="font-medium text-slate-600 dark:text-slate-300">{name}</dt>
                    <dd>{typeof value === 'number' ? formatIndianNumber(value, Number.isInteger(value) ? 0 : 2) : value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{s.tagsTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            {c.tags.length === 0 ? (
              <p className={muted}>{s.noTags}</p>
            ) : (
              <ul className="flex flex-wrap gap-1" aria-label={s.tagsTitle}>
                {c.tags.map((tag) => (
                  <li key={tag}>
                    <Link to={`/user/contacts?tag=${encodeURIComponent(tag)}`}>
                      <Badge variant="secondary">{tag}</Badge>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{s.optInTitle}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2 text-sm">
            {c.opt_in ? (
              <>
                <p>{fillMessage(s.optInRecorded, { at: formatDateTime(c.opt_in.at), source: c.opt_in.source })}</p>
                {c.opt_in.evidence ? <p className="whitespace-pre-wrap text-slate-600 dark:text-slate-300">{c.opt_in.evidence}</p> : null}
              </>
            ) : (
              <p className={muted}>{s.noOptIn}</p>
            )}
            <h3 className="mt-2 font-semibold">{s.optOutTitle}</h3>
            {c.opted_out ? (
              <p>
                <Badge variant="destructive">{s.optedOutBadge}</Badge> {fillMessage(s.optedOutAt, { at: formatDateTime(c.opted_out_at) })}{' '}
                <Link to="/user/suppression-list" className="text-emerald-700 underline dark:text-emerald-400">
                  {s.suppressionLink}
                </Link>
              </p>
            ) : (
              <p className={muted}>{s.notOptedOut}</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{s.countsTitle}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            <dl className="grid grid-cols-4 gap-2 text-center">
              {(['sent', 'delivered', 'read', 'replied'] as const).map((key) => (
                <div key={key} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{s.counts[key]}</dt>
                  <dd className="text-lg font-semibold">{formatIndianNumber(c.counts[key])}</dd>
                </div>
              ))}
            </dl>
            {c.last_message_at ? <p className={muted}>{fillMessage(s.lastMessage, { at: formatDateTime(c.last_message_at) })}</p> : null}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{s.historyTitle}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          {history.isPending ? (
            <p className={muted}>{messages.common.loading}</p>
          ) : entries.length === 0 ? (
            <p className={muted}>{s.historyEmpty}</p>
          ) : (
            <SimpleTable
              label={s.historyTitle}
              head={[s.historyColumns.at, s.historyColumns.kind, s.historyColumns.status, s.historyColumns.detail]}
              rows={entries.map((entry) => [
                formatDateTime(entry.at),
                s.historyKinds[entry.kind],
                entry.status ?? '',
                entry.kind === 'campaign' ? fillMessage(s.historyCampaign, { campaign: entry.campaign_name ?? '', template: entry.template_name ?? '' }) : (entry.text ?? ''),
              ])}
            />
          )}
          {history.hasNextPage ? (
            <Button type="button" variant="outline" className="justify-self-start" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
              {s.loadMore}
            </Button>
          ) : null}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming}
        title={s.deleteConfirmTitle}
        description={s.deleteConfirmBody}
        confirmLabel={s.deleteContact}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
