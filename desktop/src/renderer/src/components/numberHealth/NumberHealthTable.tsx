import { RefreshCw } from 'lucide-react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TNumberHealth } from '@shared/schemas/numberHealth';
import { Button } from '../ui/button';
import { cn } from '../../lib/cn';

const text = messages.numberHealth;

export interface NumberHealthRow {
  id: number;
  label: string;
  displayNumber: string;
  messagesPerSecond: number;
  health: TNumberHealth;
  /** The account it belongs to (the admin's view). */
  owner?: string;
}

const QUALITY_TONE: Record<string, string> = {
  GREEN: 'text-emerald-700 dark:text-emerald-400',
  YELLOW: 'text-amber-700 dark:text-amber-400',
  RED: 'text-red-700 dark:text-red-400',
};

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' }) : text.neverChecked;
}

/**
 * Cloud API numbers with their health at Meta: quality, messaging limit, throughput (and the rate
 * it sets), display name status, when it was read and why the last read failed; each can be read
 * again now.
 */
export function NumberHealthTable({ rows, onRefresh, refreshingId }: { rows: readonly NumberHealthRow[]; onRefresh: (id: number) => void; refreshingId: number | null }) {
  if (rows.length === 0) return <p className="px-6 py-6 text-sm text-slate-500 dark:text-slate-400">{text.empty}</p>;
  const showOwner = rows.some((row) => row.owner !== undefined);
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[48rem] text-left text-sm" data-testid="number-health-table">
        <caption className="sr-only">{text.title}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-6 py-3 font-medium">{text.number}</th>
            {showOwner ? <th scope="col" className="px-4 py-3 font-medium">{text.owner}</th> : null}
            <th scope="col" className="px-4 py-3 font-medium">{text.quality}</th>
            <th scope="col" className="px-4 py-3 font-medium">{text.messagingLimit}</th>
            <th scope="col" className="px-4 py-3 font-medium">{text.throughput}</th>
            <th scope="col" className="px-4 py-3 font-medium">{text.nameStatus}</th>
            <th scope="col" className="px-4 py-3 font-medium">{text.checkedAt}</th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              <span className="sr-only">{text.refresh}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => {
            const { health } = row;
            const limit = health.messaging_limit_tier ? `${health.messaging_limit_tier}${health.messaging_limit !== null ? ` (${formatIndianNumber(health.messaging_limit)})` : ''}` : '—';
            return (
              <tr key={row.id} className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
                <th scope="row" className="px-6 py-3 font-medium text-slate-900 dark:text-white">
                  <span className="block">{row.label}</span>
                  <span className="block font-mono text-xs text-slate-500 dark:text-slate-400">{row.displayNumber}</span>
                </th>
                {showOwner ? <td className="px-4 py-3 break-all text-slate-600 dark:text-slate-300">{row.owner}</td> : null}
                <td className={cn('px-4 py-3 font-medium', QUALITY_TONE[health.quality_rating ?? ''] ?? 'text-slate-600 dark:text-slate-300')}>{health.quality_rating ?? '—'}</td>
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{limit}</td>
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">
                  <span className="block">{health.throughput_level ?? '—'}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{fillMessage(text.rateValue, { rate: formatIndianNumber(row.messagesPerSecond) })}</span>
                </td>
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{health.name_status ?? '—'}</td>
                <td className="px-4 py-3 text-slate-600 dark:text-slate-300">
                  <span className="block whitespace-nowrap">{when(health.updated_at)}</span>
                  {health.error ? <span className="block text-xs text-red-700 dark:text-red-400">{fillMessage(text.readFailed, { reason: health.error })}</span> : null}
                </td>
                <td className="px-4 py-3 text-right">
                  <Button variant="outline" size="sm" onClick={() => onRefresh(row.id)} disabled={refreshingId === row.id}>
                    <RefreshCw className={cn(refreshingId === row.id && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
                    {text.refresh}
                    <span className="sr-only"> {row.displayNumber}</span>
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
