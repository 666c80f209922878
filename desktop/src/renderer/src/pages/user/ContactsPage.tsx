import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Filter, ListPlus, Send, SlidersHorizontal, Upload, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { formatPhone } from '@shared/phone';
import type { TContactsPage } from '@shared/schemas/contacts';
import { contactKeys, contactsApi } from '../../api/contacts';
import { ContactForm } from '../../components/contacts/ContactForm';
import { Badge } from '../../components/ui/badge';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { SimpleTable } from '../../components/ui/simple-table';
import { formatDateTime } from '../../lib/dates';
import { useSettled } from '../../hooks/useSettled';

const s = messages.contactScreens;


/** /user/contacts: the contact book, searched and narrowed by a tag or a segment, a page at a time. */
export function ContactsPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const searchId = useId();
  const tagId = useId();
  const segmentId = useId();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const q = useSettled(search.trim());
  const tag = params.get('tag') ?? '';
  const segment = Number(params.get('segment') ?? '') || null;
  const query = { q, tag, segmentId: segment };
  const tags = useQuery({ queryKey: contactKeys.tags, queryFn: contactsApi.tags });
  const segments = useQuery({ queryKey: contactKeys.segments, queryFn: contactsApi.segments });
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const list = useInfiniteQuery({
    queryKey: contactKeys.list(query),
    queryFn: ({ pageParam }) => contactsApi.list(query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TContactsPage) => last.next_cursor,
  });
  const create = useMutation({
    mutationFn: contactsApi.create,
    onSuccess: (contact) => {
      toast.success(fillMessage(s.created, { phone: formatPhone(contact.phone) }));
      setAdding(false);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
  const setFilter = (key: 'tag' | 'segment', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = q !== '' || tag !== '' || segment !== null;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">{s.title}</h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{s.intro}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => setAdding(true)} disabled={adding}>
            <UserPlus aria-hidden="true" />
            {s.addContact}
          </Button>
          <Link to="/user/contacts/import" className={buttonVariants({ variant: 'outline' })}>
            <Upload aria-hidden="true" />
            {s.importContacts}
          </Link>
          <Link to="/user/contacts/attributes" className={buttonVariants({ variant: 'outline' })}>
            <SlidersHorizontal aria-hidden="true" />
            {s.manageAttributes}
          </Link>
          <Link to="/user/segments" className={buttonVariants({ variant: 'outline' })}>
            <Filter aria-hidden="true" />
            {s.segments}
          </Link>
          <Link to="/user/whatsapp-bulk?source=contacts" className={buttonVariants({ variant: 'outline' })}>
            <Send aria-hidden="true" />
            {s.sendToContacts}
          </Link>
        </div>
      </div>

      {adding ? (
        <Card>
          <CardHeader>
            <CardTitle>{s.addTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            <ContactForm
              attributes={attributes.data ?? []}
              busy={create.isPending}
              onSubmit={async (input) => {
                await create.mutateAsync(input);
              }}
              onCancel={() => setAdding(false)}
            />
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
            <div className="grid gap-1.5">
              <Label htmlFor={searchId}>{s.searchLabel}</Label>
              <Input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={tagId}>{s.tagFilterLabel}</Label>
              <NativeSelect id={tagId} value={tag} onChange={(e) => setFilter('tag', e.target.value)}>
                <option value="">{s.anyTag}</option>
                {(tags.data ?? []).map((t) => (
                  <option key={t.tag} value={t.tag}>
                    {`${t.tag} (${formatIndianNumber(t.contacts)})`}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={segmentId}>{s.segmentFilterLabel}</Label>
              <NativeSelect id={segmentId} value={segment ?? ''} onChange={(e) => setFilter('segment', e.target.value)}>
                <option value="">{s.anySegment}</option>
                {(segments.data ?? []).map((seg) => (
                  <option key={seg.id} value={seg.id}>
                    {seg.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
        </CardHeader>
        <CardContent className="grid gap-3">
          {list.isPending ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>
          ) : rows.length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{filtered ? s.noMatch : s.empty}</p>
          ) : (
            <>
              <SimpleTable
                label={s.title}
                head={[s.columns.name, s.columns.phone, s.columns.tags, s.columns.sent, s.columns.lastMessage, s.columns.status]}
                rows={rows.map((row) => [
                  <Link key="name" to={`/user/contacts/${row.phone}`} className="font-medium text-emerald-700 underline-offset-2 hover:underline dark:text-emerald-400">
                    {row.name ?? formatPhone(row.phone)}
                  </Link>,
                  formatPhone(row.phone),
                  <div key="tags" className="flex flex-wrap gap-1">
                    {row.tags.map((t) => (
                      <Badge key={t} variant="secondary">
                        {t}
                      </Badge>
                    ))}
                  </div>,
                  formatIndianNumber(row.counts.sent),
                  row.last_message_at ? formatDateTime(row.last_message_at) : '',
                  row.opted_out ? (
                    <Badge key="status" variant="destructive">
                      {s.optedOutBadge}
                    </Badge>
                  ) : row.opt_in ? (
                    <Badge key="status">{s.optedInBadge}</Badge>
                  ) : null,
                ])}
              />
              <p className="text-xs text-slate-500 dark:text-slate-400">{fillMessage(s.shown, { count: formatIndianNumber(rows.length) })}</p>
            </>
          )}
          {list.hasNextPage ? (
            <Button type="button" variant="outline" className="justify-self-start" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              <ListPlus aria-hidden="true" />
              {s.loadMore}
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
