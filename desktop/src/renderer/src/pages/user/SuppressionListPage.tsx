import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Trash2, Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { formatPhone } from '@shared/phone';
import type { TSuppressionsPage } from '@shared/schemas/suppressions';
import { useBoundInput } from '../../components/form/fields';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { errorText } from '../../api/errors';
import { suppressionKeys, suppressionsApi } from '../../api/suppressions';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FieldError, Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { SimpleTable } from '../../components/ui/simple-table';
import { Textarea } from '../../components/ui/textarea';
import { formatDateTime } from '../../lib/dates';
import { ZAddSuppressionForm, ZOptOutKeywordsForm } from '../../lib/suppressionForms';
import { saveFile } from '../../platform/files';
import { useSettled } from '../../hooks/useSettled';

const s = messages.suppressions;


function AddCard() {
  const queryClient = useQueryClient();
  const phoneId = useId();
  const reasonId = useId();
  const form = useSchemaForm(ZAddSuppressionForm, { phone: '', reason: '' });
  const phone = useBoundInput({ control: form.control, name: 'phone' });
  const reason = useBoundInput({ control: form.control, name: 'reason' });
  const add = useMutation({
    mutationFn: (input: { phone: string; reason?: string }) => suppressionsApi.add(input.phone, input.reason ?? ''),
    onSuccess: (entry) => {
      toast.success(fillMessage(s.added, { phone: formatPhone(entry.phone) }));
      form.reset();
      void queryClient.invalidateQueries({ queryKey: suppressionKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const handleSubmit = form.handleSubmit((input) => add.mutate(input));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{s.addTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end" onSubmit={(event) => void handleSubmit(event)}>
          <div className="grid gap-1.5">
            <Label htmlFor={phoneId}>{s.phoneLabel}</Label>
            <Input
              id={phoneId}
              inputMode="tel"
              {...phone.input}
              invalid={Boolean(phone.error)}
              aria-describedby={phone.error ? `${phoneId}-error` : undefined}
              required
            />
            <FieldError id={`${phoneId}-error`} message={phone.error} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={reasonId}>{s.reasonLabel}</Label>
            <Input
              id={reasonId}
              maxLength={200}
              {...reason.input}
              invalid={Boolean(reason.error)}
              aria-describedby={reason.error ? `${reasonId}-error` : undefined}
            />
            <FieldError id={`${reasonId}-error`} message={reason.error} />
          </div>
          <Button type="submit" disabled={add.isPending || phone.input.value.trim() === ''}>
            {s.add}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function KeywordsCard() {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const keywords = useQuery({ queryKey: suppressionKeys.keywords, queryFn: suppressionsApi.keywords });
  const form = useSchemaForm(ZOptOutKeywordsForm, { keywords: '' });
  const box = useBoundInput({ control: form.control, name: 'keywords' });
  const { reset, formState } = form;
  const saved = keywords.data?.keywords.join('\n');
  useEffect(() => {
    // The list as stored fills the box until the person edits it; a refetch does not undo an edit.
    if (saved !== undefined && !formState.isDirty) reset({ keywords: saved });
  }, [saved, formState.isDirty, reset]);
  const save = useMutation({
    mutationFn: (list: string[] | null) => suppressionsApi.setKeywords(list),
    onSuccess: (stored) => {
      queryClient.setQueryData(suppressionKeys.keywords, stored);
      reset({ keywords: stored.keywords.join('\n') });
      toast.success(s.keywordsSaved);
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const handleSubmit = form.handleSubmit((request) => save.mutate(request.keywords));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{s.keywordsTitle}</CardTitle>
        <CardDescription>{s.keywordsHint}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3" onSubmit={(event) => void handleSubmit(event)}>
          <Label htmlFor={fieldId}>{s.keywordsLabel}</Label>
          <Textarea
            id={fieldId}
            rows={6}
            {...box.input}
            invalid={Boolean(box.error)}
            aria-describedby={box.error ? `${fieldId}-error` : undefined}
          />
          <FieldError id={`${fieldId}-error`} message={box.error} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {s.keywordsSave}
            </Button>
            {keywords.data?.custom ? (
              <Button type="button" variant="outline" disabled={save.isPending} onClick={() => save.mutate(null)}>
                {s.keywordsReset}
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function FlagsCard() {
  const queryClient = useQueryClient();
  const flags = useQuery({ queryKey: suppressionKeys.flags, queryFn: suppressionsApi.flags });
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'suppress' | 'dismiss' }) => suppressionsApi.decide(id, decision),
    onSuccess: () => {
      toast.success(s.flagDecided);
      void queryClient.invalidateQueries({ queryKey: suppressionKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const rows = flags.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{s.flagsTitle}</CardTitle>
        <CardDescription>{s.flagsHint}</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{s.flagsEmpty}</p>
        ) : (
          <SimpleTable
            label={s.flagsTitle}
            head={[s.columns.phone, s.columns.reason, s.columns.at, '']}
            rows={rows.map((flag) => [
              formatPhone(flag.phone),
              flag.text,
              formatDateTime(flag.received_at),
              <div key="actions" className="flex gap-2">
                <Button size="sm" variant="destructive" disabled={decide.isPending} onClick={() => decide.mutate({ id: flag.id, decision: 'suppress' })}>
                  {s.flagSuppress}
                </Button>
                <Button size="sm" variant="outline" disabled={decide.isPending} onClick={() => decide.mutate({ id: flag.id, decision: 'dismiss' })}>
                  {s.flagDismiss}
                </Button>
              </div>,
            ])}
          />
        )}
      </CardContent>
    </Card>
  );
}

/** /user/suppression-list: numbers that get none of the account's messages, and how they came. */
export function SuppressionListPage() {
  const queryClient = useQueryClient();
  const searchId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [search, setSearch] = useState('');
  const q = useSettled(search.trim());
  const list = useInfiniteQuery({
    queryKey: suppressionKeys.list(q),
    queryFn: ({ pageParam }) => suppressionsApi.list(q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TSuppressionsPage) => last.next_cursor,
  });
  const remove = useMutation({
    mutationFn: (phone: string) => suppressionsApi.remove(phone),
    onSuccess: (_answer, phone) => {
      toast.success(fillMessage(s.removed, { phone: formatPhone(phone) }));
      void queryClient.invalidateQueries({ queryKey: suppressionKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const importCsv = useMutation({
    mutationFn: (csv: string) => suppressionsApi.importCsv(csv),
    onSuccess: (result) => {
      toast.success(fillMessage(s.imported, { added: formatIndianNumber(result.added), skipped: formatIndianNumber(result.skipped), invalid: formatIndianNumber(result.invalid) }));
      void queryClient.invalidateQueries({ queryKey: suppressionKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) importCsv.mutate(await file.text());
  };
  const handleExport = async () => {
    try {
      saveFile(await suppressionsApi.exportCsv(), 'suppression-list.csv');
    } catch (error) {
      toast.error(errorText(error, messages.common.unknownError));
    }
  };
  const entries = list.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{s.title}</h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{s.intro}</p>
      </div>

      <AddCard />

      <Card>
        <CardHeader className="gap-3">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div className="grid min-w-60 flex-1 gap-1.5">
              <Label htmlFor={searchId}>{s.searchLabel}</Label>
              <Input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
            <div className="flex flex-wrap gap-2">
              <input ref={fileInput} type="file" accept=".csv,text/csv" className="sr-only" tabIndex={-1} aria-label={s.importCsv} onChange={(e) => void handleFile(e)} />
              <Button type="button" variant="outline" disabled={importCsv.isPending} onClick={() => fileInput.current?.click()} title={s.importHint}>
                <Upload aria-hidden="true" />
                {s.importCsv}
              </Button>
              <Button type="button" variant="outline" onClick={() => void handleExport()}>
                <Download aria-hidden="true" />
                {s.exportCsv}
              </Button>
            </div>
          </div>
          <CardDescription>{s.importHint}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {list.isPending ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>
          ) : entries.length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{q ? s.noMatch : s.empty}</p>
          ) : (
            <SimpleTable
              label={s.title}
              head={[s.columns.phone, s.columns.source, s.columns.reason, s.columns.at, '']}
              rows={entries.map((entry) => [
                formatPhone(entry.phone),
                s.sources[entry.source],
                entry.reason,
                formatDateTime(entry.created_at),
                <Button key="remove" size="sm" variant="ghost" aria-label={fillMessage(s.removeLabel, { phone: formatPhone(entry.phone) })} disabled={remove.isPending} onClick={() => remove.mutate(entry.phone)}>
                  <Trash2 aria-hidden="true" />
                  {s.remove}
                </Button>,
              ])}
            />
          )}
          {list.hasNextPage ? (
            <Button type="button" variant="outline" className="justify-self-start" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {s.loadMore}
            </Button>
          ) : null}
        </CardContent>
      </Card>

      <FlagsCard />

      <KeywordsCard />
    </div>
  );
}
