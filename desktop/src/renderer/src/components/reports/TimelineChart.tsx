import { lazy, Suspense, useMemo } from 'react';
import { fillMessage, messages } from '@shared/messages';
import type { TTimelinePoint } from '@shared/schemas/reports';
import { fillTimeline, formatCount, reportStatusFilterLabel, TIMELINE_SERIES, timelineTotals, type TimelineSeries } from '../../lib/reports';

const r = messages.reportsScreen;

// recharts and its d3 and redux helpers are several times the size of the rest of this screen:
// they load when the chart is first drawn, not with the app.
const TimelineChartPlot = lazy(async () => ({ default: (await import('./TimelineChartPlot')).TimelineChartPlot }));

/** The plot's height in pixels; its width follows the card. */
const CHART_HEIGHT = 240;

/**
 * Recharts takes colours as strings and writes them into SVG attributes and inline styles, where
 * Tailwind's `dark:` classes cannot reach. So the colours are CSS variables that these classes set
 * (light, then `dark:`), and the chart only names the variables: a theme switch repaints it
 * without a re-render.
 */
const CHART_PALETTE = [
  '[--chart-sent:var(--color-sky-500)] dark:[--chart-sent:var(--color-sky-400)]',
  '[--chart-delivered:var(--color-emerald-500)] dark:[--chart-delivered:var(--color-emerald-400)]',
  '[--chart-read:var(--color-violet-500)] dark:[--chart-read:var(--color-violet-400)]',
  '[--chart-failed:var(--color-red-500)] dark:[--chart-failed:var(--color-red-400)]',
  '[--chart-grid:var(--color-slate-200)] dark:[--chart-grid:var(--color-slate-800)]',
  '[--chart-axis:var(--color-slate-500)] dark:[--chart-axis:var(--color-slate-400)]',
  '[--chart-cursor:var(--color-slate-400)] dark:[--chart-cursor:var(--color-slate-600)]',
].join(' ');

const SERIES_COLOURS: Record<TimelineSeries, string> = {
  sent: 'var(--chart-sent)',
  delivered: 'var(--chart-delivered)',
  read: 'var(--chart-read)',
  failed: 'var(--chart-failed)',
};

/**
 * Messages per day by outcome (sent, delivered, read, failed) as lines, with each outcome's total
 * above the chart; the totals double as its legend. Pointer and arrow keys pick a day, whose
 * figures show in a tooltip that screen readers read out.
 */
export function TimelineChart({ points, days, now }: { points: readonly TTimelinePoint[]; days: number; now: Date }) {
  const series = useMemo(() => fillTimeline(points, days, now), [points, days, now]);
  const totals = useMemo(() => timelineTotals(series), [series]);
  const empty = TIMELINE_SERIES.every((key) => totals[key] === 0);

  return (
    <div className={`flex flex-col gap-3 ${CHART_PALETTE}`} data-testid="timeline-chart">
      <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-label={fillMessage(r.timelineTotals, { days })}>
        {TIMELINE_SERIES.map((key) => (
          <li key={key} className="flex items-center gap-2">
            <span className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: SERIES_COLOURS[key] }} aria-hidden="true" />
            <span className="text-slate-600 dark:text-slate-300">{reportStatusFilterLabel(key)}</span>
            <span className="font-semibold tabular-nums" data-testid={`timeline-total-${key}`}>
              {formatCount(totals[key])}
            </span>
          </li>
        ))}
      </ul>

      {empty ? (
        // Four flat lines at zero say nothing and would still take a keyboard stop: say it in words.
        <div
          className="flex items-center justify-center rounded-lg border border-dashed border-slate-200 px-4 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400"
          style={{ height: CHART_HEIGHT }}
          data-testid="timeline-empty"
        >
          {fillMessage(r.timelineEmpty, { days })}
        </div>
      ) : (
        <Suspense fallback={<div className="animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800/60" style={{ height: CHART_HEIGHT }} aria-hidden="true" />}>
          <TimelineChartPlot
            series={series}
            colours={SERIES_COLOURS}
            height={CHART_HEIGHT}
            title={fillMessage(r.timelineTitle, { days })}
            description={r.timelineKeys}
          />
        </Suspense>
      )}
    </div>
  );
}
