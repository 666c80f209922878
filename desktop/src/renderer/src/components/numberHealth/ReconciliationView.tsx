import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TReconciliationDay } from '@shared/schemas/numberHealth';
import { errorText } from '../../api/client';
import { numberHealthApi, numberHealthKeys } from '../../api/numberHealth';
import { Alert } from '../ui/alert';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';

const text = messages.reconciliation;
const DAY_MS = 86_400_000;
/** India's offset: the reconciliation's days are Indian days. */
const IST_MS = 330 * 60_000;

function istDay(at: number): string {
  return new Date(at + IST_MS).toISOString().slice(0, 10);
}

/** Category counts as one line: "MARKETING 1,20,000 · UTILITY 3". */
function byCategory(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '—' : entries.map(([category, n]) => `${category} ${formatIndianNumber(n)}`).join(' · ');
}

function addUp(days: readonly TReconciliationDay[]): TReconciliationDay | null {
  if (days.length === 0) return null;
  const sum: TReconciliationDay = { user_id: 0, email: '', day: '', charged: {}, billed_by_meta: {}, differ: 0, free: 0, awaiting_pricing: 0 };
  for (const day of days) {
    for (const [k, n] of Object.entries(day.charged)) sum.charged[k] = (sum.charged[k] ?? 0) + n;
    for (const [k, n] of Object.entries(day.billed_by_meta)) sum.billed_by_meta[k] = (sum.billed_by_meta[k] ?? 0) + n;
    sum.differ += day.differ;
    sum.free += day.free;
    sum.awaiting_pricing += day.awaiting_pricing;
  }
  return sum;
}

/**
 * What we charged beside what Meta billed, per day (and per account for the admin), for a range
 * of Indian days: a table that reads by keyboard and screen reader, counts in Indian grouping.
 */
export function ReconciliationView({ scope }: { scope: 'admin' | 'own' }) {
  const ids = useId();
  const [from, setFrom] = useState(() => istDay(Date.now() - 6 * DAY_MS));
  const [to, setTo] = useState(() => istDay(Date.now()));
  const [userId, setUserId] = useState('');
  const user = scope === 'admin' && /^\d+$/.test(userId) ? Number(userId) : undefined;
  const query = useQuery({
    queryKey: numberHealthKeys.reconciliation(scope, from, to, user),
    queryFn: () => (scope === 'admin' ? numberHealthApi.adminReconciliation({ from, to, userId: user }) : numberHealthApi.ownReconciliation({ from, to })),
    enabled: Boolean(from && to),
    placeholderData: keepPreviousData,
    retry: 1,
    refetchOnWindowFocus: false,
  });
  const days = query.data?.days ?? [];
  const totals = addUp(days);
  const columns = scope === 'admin' ? 7 : 6;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-500 dark:text-slate-400">{text.intro}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${ids}-from`}>{text.from}</Label>
          <Input id={`${ids}-from`} type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} className="w-44" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${ids}-to`}>{text.to}</Label>
          <Input id={`${ids}-to`} type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} className="w-44" />
        </div>
        {scope === 'admin' ? (
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${ids}-user`}>{text.userId}</Label>
            <Input id={`${ids}-user`} inputMode="numeric" value={userId} onChange={(e) => setUserId(e.target.value.replace(/\D+/g, ''))} className="w-44" />
          </div>
        ) : null}
      </div>
      {query.error ? <Alert tone="error">{errorText(query.error, text.rangeInvalid)}</Alert> : null}
      <div className="overflow-x-auto">
        <table className="w-full min-w-[44rem] text-left text-sm" data-testid="reconciliation-table">
          <caption className="sr-only">{scope === 'admin' ? text.adminTitle : text.title}</caption>
          <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">{text.day}</th>
              {scope === 'admin' ? <th scope="col" className="px-4 py-3 font-medium">{text.user}</th> : null}
              <th scope="col" className="px-4 py-3 font-medium">{text.charged}</th>
              <th scope="col" className="px-4 py-3 font-medium">{text.billedByMeta}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{text.differ}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{text.free}</th>
              <th scope="col" className="px-4 py-3 text-right font-medium">{text.awaiting}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {query.isLoading ? (
              <tr>
                <td colSpan={columns} className="px-4 py-8 text-center">
                  <Spinner />
                </td>
              </tr>
            ) : null}
            {!query.isLoading && days.length === 0 ? (
              <tr>
                <td colSpan={columns} className="px-4 py-8 text-center text-slate-500 dark:text-slate-400">
                  {text.empty}
                </td>
              </tr>
            ) : null}
            {days.map((day) => (
              <tr key={`${day.user_id}:${day.day}`} className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
                <th scope="row" className="px-4 py-3 font-medium whitespace-nowrap text-slate-900 dark:text-white">{day.day}</th>
                {scope === 'admin' ? <td className="px-4 py-3 break-all text-slate-600 dark:text-slate-300">{day.email}</td> : null}
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{byCategory(day.charged)}</td>
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{byCategory(day.billed_by_meta)}</td>
                <td className={`px-4 py-3 text-right font-medium ${day.differ > 0 ? 'text-amber-700 dark:text-amber-400' : 'text-slate-600 dark:text-slate-300'}`}>{formatIndianNumber(day.differ)}</td>
                <td className="px-4 py-3 text-right text-slate-600 dark:text-slate-300">{formatIndianNumber(day.free)}</td>
                <td className="px-4 py-3 text-right text-slate-600 dark:text-slate-300">{formatIndianNumber(day.awaiting_pricing)}</td>
              </tr>
            ))}
          </tbody>
          {totals && days.length > 1 ? (
            <tfoot className="border-t border-slate-200 font-medium dark:border-slate-700">
              <tr>
                <th scope="row" className="px-4 py-3 text-slate-900 dark:text-white">{text.totals}</th>
                {scope === 'admin' ? <td /> : null}
                <td className="px-4 py-3">{byCategory(totals.charged)}</td>
                <td className="px-4 py-3">{byCategory(totals.billed_by_meta)}</td>
                <td className="px-4 py-3 text-right">{formatIndianNumber(totals.differ)}</td>
                <td className="px-4 py-3 text-right">{formatIndianNumber(totals.free)}</td>
                <td className="px-4 py-3 text-right">{formatIndianNumber(totals.awaiting_pricing)}</td>
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </div>
  );
}
