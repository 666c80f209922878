import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import type { TTimelinePoint } from '@shared/schemas/reports';
import { chartAxisDays, formatChartDay, formatCount, reportStatusFilterLabel, TIMELINE_SERIES, type TimelineSeries } from '../../lib/reports';

export interface TimelineChartPlotProps {
  /** One point per day, the days the server left out already filled with zeros. */
  series: readonly TTimelinePoint[];
  /** A CSS colour per outcome; CSS variables keep them following the theme. */
  colours: Record<TimelineSeries, string>;
  height: number;
  /** The chart's accessible name and description (the SVG's title and desc). */
  title: string;
  description: string;
}

// Grid, axis and cursor colours are CSS variables that TimelineChart's wrapper sets per theme.
const AXIS_TICK = { fill: 'var(--chart-axis)', fontSize: 11 };

/**
 * The SVG is the chart's keyboard stop (recharts' accessibility layer: arrow keys move between
 * days, Enter hides or shows the day's figures). Recharts styles no focus, so the app's ring is
 * drawn here, for keyboard focus only.
 */
const FOCUS_RING =
  '[&_.recharts-surface]:rounded-lg [&_.recharts-surface:focus-visible]:outline-2 [&_.recharts-surface:focus-visible]:outline-offset-2 [&_.recharts-surface:focus-visible]:outline-emerald-500';

/**
 * The figures of the day under the pointer or the keyboard. It reads the day from the chart's own
 * data by index rather than from recharts' payload, so every outcome shows, zeros included. As
 * recharts' default content does, it is a live region while the accessibility layer is on, so
 * moving between days with the arrow keys reads each day out.
 */
function DayTooltip({
  active,
  activeIndex,
  accessibilityLayer,
  series,
  colours,
}: TooltipContentProps & Pick<TimelineChartPlotProps, 'series' | 'colours'>) {
  const day = active && activeIndex != null ? series[Number(activeIndex)] : undefined;
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white/95 px-3 py-2 text-xs text-slate-900 shadow-md dark:border-slate-700 dark:bg-slate-900/95 dark:text-slate-100"
      data-testid="timeline-tooltip"
      {...(accessibilityLayer ? { role: 'status', 'aria-live': 'polite' as const } : {})}
    >
      {day ? (
        <>
          <p className="mb-1 font-semibold">{formatChartDay(day.date)}</p>
          <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5">
            {TIMELINE_SERIES.map((key) => (
              <div key={key} className="contents">
                <dt className="flex items-center gap-1.5 text-slate-600 dark:text-slate-300">
                  <span className="size-2 shrink-0 rounded-full" style={{ backgroundColor: colours[key] }} aria-hidden="true" />
                  {reportStatusFilterLabel(key)}
                </dt>
                <dd className="text-right font-medium tabular-nums">{formatCount(day[key])}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </div>
  );
}

/**
 * The drawing of the activity chart: one line per outcome over the days, with a tooltip per day.
 * It lives apart from TimelineChart so that recharts loads only with the campaigns view.
 */
export function TimelineChartPlot({ series, colours, height, title, description }: TimelineChartPlotProps) {
  const axisDays = new Set(chartAxisDays(series.map((point) => point.date)));
  return (
    <LineChart
      className={FOCUS_RING}
      data={series}
      responsive
      style={{ width: '100%', height }}
      margin={{ top: 8, right: 24, bottom: 0, left: 0 }}
      accessibilityLayer
      title={title}
      desc={description}
    >
      <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
      <XAxis
        dataKey="date"
        tickFormatter={(value: string) => (axisDays.has(value) ? formatChartDay(value) : '')}
        tick={AXIS_TICK}
        tickLine={false}
        axisLine={{ stroke: 'var(--chart-grid)' }}
        // Every day keeps its tick, unlabelled but for a few: an explicit `ticks` list would also
        // limit the days the arrow keys reach to those few.
        interval={0}
        tickMargin={8}
      />
      <YAxis allowDecimals={false} tickFormatter={(value: number) => formatCount(value)} tick={AXIS_TICK} tickLine={false} axisLine={false} width="auto" />
      <Tooltip
        content={(props) => <DayTooltip {...props} series={series} colours={colours} />}
        cursor={{ stroke: 'var(--chart-cursor)', strokeDasharray: '4 4' }}
        isAnimationActive={false}
      />
      {TIMELINE_SERIES.map((key) => (
        <Line
          key={key}
          type="linear"
          dataKey={key}
          name={reportStatusFilterLabel(key)}
          stroke={colours[key]}
          strokeWidth={2}
          dot={false}
          activeDot={{ r: 4, strokeWidth: 0 }}
        />
      ))}
    </LineChart>
  );
}
