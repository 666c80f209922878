import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { formatIstTimeLabelled } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TWalletEntryKind, TWalletHistoryEntry } from '@shared/walletHistory';
import { errorText } from '../../api/client';
import { EMPTY_WALLET_FILTERS, walletApi, walletKeys, type WalletHistoryFilters } from '../../api/wallet';
import { useFileDownload } from '../../hooks/useFileDownload';
import { cn } from '../../lib/cn';
import { errorToast, successToast, TOAST_IDS } from '../../lib/toasts';
import { walletHistoryCsv, walletHistoryFilename } from '../../lib/walletHistory';
import { saveFile } from '../../platform/files';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell } from '../ui/form-field';
import { Input } from '../ui/input';
import { NativeSelect } from '../ui/native-select';
import { Spinner } from '../ui/spinner';

const wh = messages.walletHistory;

const KIND_OPTIONS: ReadonlyArray<{ value: TWalletEntryKind | 'all'; label: string }> = [
  { value: 'all', label: wh.kindAll },
  { value: 'topup', label: wh.kindTopup },
  { value: 'send', label: wh.kindSend },
  { value: 'refund', label: wh.kindRefund },
  { value: 'adjustment', label: wh.kindAdjustment },
];

function EntryRow({ entry, onReceipt, receiptBusy }: { entry: TWalletHistoryEntry; onReceipt: (entry: TWalletHistoryEntry) => void; receiptBusy: boolean }) {
  const credit = entry.amount >= 0;
  return (
    <tr data-testid="wallet-history-entry">
      <td className="px-3 py-2 align-top whitespace-nowrap text-slate-600 dark:text-slate-300">{formatIstTimeLabelled(entry.createdAt)}</td>
      <td className="px-3 py-2 align-top">
        <p className="font-medium text-slate-900 dark:text-white">{entry.title}</p>
        {entry.description ? <p className="text-xs text-slate-600 dark:text-slate-400">{entry.description}</p> : null}
      </td>
      <td className={cn('px-3 py-2 text-right align-top font-semibold tabular-nums whitespace-nowrap', credit ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400')}>
        {entry.amountText}
      </td>
      <td className="px-3 py-2 text-right align-top tabular-nums whitespace-nowrap">{entry.balanceAfterText}</td>
      <td className="px-3 py-2 align-top">
        {entry.receiptUrl ? (
          <Button variant="outline" size="sm" disabled={receiptBusy} onClick={() => onReceipt(entry)} aria-label={`${wh.receipt} (PDF), ${entry.title} ${entry.amountText}`}>
            <FileText aria-hidden="true" />
            {wh.receipt}
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

/** The Wallet page's own history: filters, running balance, CSV export and receipts. */
export function WalletHistoryCard() {
  const [filters, setFilters] = useState<WalletHistoryFilters>(EMPTY_WALLET_FILTERS);
  const [exporting, setExporting] = useState(false);
  const receipts = useFileDownload(TOAST_IDS.walletReceipt, wh.receiptFailed);
  const rangeInvalid = Boolean(filters.from && filters.to && filters.from > filters.to);

  const history = useInfiniteQuery({
    queryKey: walletKeys.history(filters),
    queryFn: ({ pageParam }) => walletApi.history(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    enabled: !rangeInvalid,
  });
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? [];

  const handleFilter = <K extends keyof WalletHistoryFilters>(key: K, value: WalletHistoryFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
  };

  const handleExport = async () => {
    setExporting(true);
    try {
      const all = await walletApi.allEntries(filters);
      saveFile(new Blob([walletHistoryCsv(all)], { type: 'text/csv;charset=utf-8' }), walletHistoryFilename());
      successToast(TOAST_IDS.walletHistory, fillMessage(wh.exported, { count: formatIndianNumber(all.length) }));
    } catch (caught) {
      errorToast(TOAST_IDS.walletHistory, errorText(caught, wh.exportFailed));
    } finally {
      setExporting(false);
    }
  };

  const handleReceipt = (entry: TWalletHistoryEntry) => {
    const receiptUrl = entry.receiptUrl;
    if (receiptUrl) return receipts.download(entry.id, () => walletApi.receipt(receiptUrl));
  };

  let body: React.ReactNode;
  if (rangeInvalid) body = <Alert tone="error">{wh.dateRangeInvalid}</Alert>;
  else if (history.isPending) body = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>;
  else if (history.isError && entries.length === 0) body = <Alert tone="error">{errorText(history.error, wh.loadFailed)}</Alert>;
  else if (entries.length === 0) body = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{wh.empty}</p>;
  // relative: the receipt column's screen-reader label is absolutely placed, and would otherwise widen the page.
  else
    body = (
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm" aria-label={wh.title}>
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">Date (IST)</th>
              <th scope="col" className="px-3 py-2 font-semibold">Entry</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">Amount</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">Balance After</th>
              <th scope="col" className="px-3 py-2 font-semibold"><span className="sr-only">{wh.receipt}</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} onReceipt={(chosen) => void handleReceipt(chosen)} receiptBusy={receipts.busy === entry.id} />
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle>{wh.title}</CardTitle>
          <CardDescription>{wh.description}</CardDescription>
        </div>
        <Button variant="outline" onClick={() => void handleExport()} disabled={exporting || rangeInvalid}>
          {exporting ? <Spinner className="text-current" /> : <Download aria-hidden="true" />}
          {wh.exportCsv}
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <FieldShell id="wallet-history-kind" label={wh.kindLabel}>
            <NativeSelect id="wallet-history-kind" value={filters.kind} onChange={(event) => handleFilter('kind', event.target.value as WalletHistoryFilters['kind'])}>
              {KIND_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </FieldShell>
          <FieldShell id="wallet-history-from" label={wh.fromLabel}>
            <Input id="wallet-history-from" type="date" value={filters.from} onChange={(event) => handleFilter('from', event.target.value)} />
          </FieldShell>
          <FieldShell id="wallet-history-to" label={wh.toLabel}>
            <Input id="wallet-history-to" type="date" value={filters.to} invalid={rangeInvalid} onChange={(event) => handleFilter('to', event.target.value)} />
          </FieldShell>
        </div>
        {body}
        {history.isError && entries.length > 0 ? <Alert tone="error">{errorText(history.error, wh.loadFailed)}</Alert> : null}
        {history.hasNextPage && !rangeInvalid ? (
          <Button variant="outline" size="sm" className="self-center" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? <Spinner className="text-current" /> : null}
            {history.isFetchingNextPage ? messages.common.loading : wh.loadMore}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
