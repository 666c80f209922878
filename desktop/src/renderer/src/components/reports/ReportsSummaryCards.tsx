import { CheckCheck, CircleX, Eye, MessageSquare } from 'lucide-react';
import { fillMessage, messages } from '@shared/messages';
import type { TReportsSummary } from '@shared/schemas/reports';
import { formatCount, formatRate } from '../../lib/reports';
import { StatGrid, statTints, type Stat } from '../admin/StatCards';

const red = 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300';

function summaryStats(summary: TReportsSummary | undefined): Stat[] {
  const count = (value: number | undefined) => (summary ? formatCount(value) : '—');
  return [
    {
      label: 'Total Messages',
      caption: messages.reportsScreen.totalMessagesCaption,
      value: count(summary?.total),
      icon: MessageSquare,
      tint: statTints.sky,
      hint: summary && summary.pending > 0 ? `${formatCount(summary.pending)} still on their way` : undefined,
    },
    {
      label: 'Delivered',
      value: count(summary?.delivered),
      icon: CheckCheck,
      tint: statTints.emerald,
      hint: summary ? `Delivery rate ${formatRate(summary.deliveryRate)}` : undefined,
    },
    {
      label: 'Read',
      value: count(summary?.read),
      icon: Eye,
      tint: statTints.violet,
      hint: summary ? `Read rate ${formatRate(summary.readRate)}` : undefined,
    },
    {
      label: 'Failed',
      value: count(summary?.failed),
      icon: CircleX,
      tint: red,
      hint: summary
        ? [summary.cancelled > 0 ? `${formatCount(summary.cancelled)} cancelled (not failures)` : '', summary.duplicate > 0 ? fillMessage(messages.counts.duplicatesBlocked, { count: formatCount(summary.duplicate) }) : '']
            .filter(Boolean)
            .join(' · ') || undefined
        : undefined,
    },
  ];
}

/** The report summary (GET /api/whatsapp/reports/summary) above the table. */
export function ReportsSummaryCards({ summary, isLoading }: { summary: TReportsSummary | undefined; isLoading: boolean }) {
  return <StatGrid stats={summaryStats(summary)} isLoading={isLoading} />;
}
