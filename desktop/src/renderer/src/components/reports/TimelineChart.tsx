import { useId, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { fillMessage, messages } from '@shared/messages';
import type { TTimelinePoint } from '@shared/schemas/reports';
import { cn } from '../../lib/cn';
import {
  chartScale,
  fillTimeline,
  formatChartDay,
  formatCount,
  TIMELINE_SERIES,
  timelineTotals,
  type TimelineSeries,
} from '../../lib/reports';

const r = messages.reportsScreen;

const SERIES_STYLE: Record<TimelineSeries, { label: string; stroke: string; fill: string; swatch: string }> = {
  sent: { label: 'Sent', stroke: 'stroke-sky-500 dark:stroke-sky-400', fill: 'fill-sky-500 dark:fill-sky-400', swatch: 'bg-sky-500 dark:bg-sky-400' },
  delivered: {
    label: 'Delivered',
    stroke: 'stroke-emerald-500 dark:stroke-emerald-400',
    fill: 'fill-emerald-500 dark:fill-emerald-400',
    swatch: 'bg-emerald-500 dark:bg-emerald-400',
  },
  read: {
    label: 'Read',
    stroke: 'stroke-violet-500 dark:stroke-violet-400',
    fill: 'fill-violet-500 dark:fill-violet-400',
    swatch: 'bg-violet-500 dark:bg-violet-400',
  },
  failed: { label: 'Failed', stroke: 'stroke-red-500 dark:stroke-red-400', fill: 'fill-red-500 dark:fill-red-400', swatch: 'bg-red-500 dark:bg-red-400' },
};

// The drawing's own coordinates; the SVG scales to its box, keeping this shape.
const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 12, bottom: 28, left: 48 } as const;
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
/** About this many day labels fit under the axis. */
const X_LABELS = 6;

function describeDay(point: TTimelinePoint): string {
  return `${formatChartDay(point.date)}: ${TIMELINE_SERIES.map((series) => `${formatCount(point[series])} ${SERIES_STYLE[series].label.toLowerCase()}`).join(', ')}`;
}

/**
 * Messages per day by outcome (sent, delivered, read, failed) as lines. Pointer and arrow keys
 * pick a day, whose figures show beside the chart and are read out to screen readers.
 */
export function TimelineChart({ points, days, now }: { points: readonly TTimelinePoint[]; days: number; now: Date }) {
  const series = useMemo(() => fillTimeline(points, days, now), [points, days, now]);
  const totals = useMemo(() => timelineTotals(series), [series]);
  const scale = useMemo(() => chartScale(Math.max(0, ...series.flatMap((point) => TIMELINE_SERIES.map((key) => point[key])))), [series]);
  const [active, setActive] = useState<number | null>(null);
  const descriptionId = useId();

  const x = (index: number) => PAD.left + (series.length <= 1 ? PLOT_W / 2 : (index / (series.length - 1)) * PLOT_W);
  const y = (value: number) => PAD.top + PLOT_H - (value / scale.max) * PLOT_H;
  const labelEvery = Math.max(1, Math.ceil(series.length / X_LABELS));
  const lastIndex = series.length - 1;
  // Every few days, and always the last one; a regular label too close to it gives way.
  const showDayLabel = (index: number) =>
    index === lastIndex || (index % labelEvery === 0 && lastIndex - index >= Math.ceil(labelEvery * 0.6));
  const empty = TIMELINE_SERIES.every((key) => totals[key] === 0);
  const activePoint = active !== null ? series[active] : undefined;

  const handlePointer = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0) return;
    const drawingX = ((event.clientX - box.left) / box.width) * WIDTH;
    const share = (drawingX - PAD.left) / PLOT_W;
    setActive(Math.min(series.length - 1, Math.max(0, Math.round(share * (series.length - 1)))));
  };

  const handleKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = series.length - 1;
    const current = active ?? last;
    const next =
      event.key === 'ArrowLeft' ? current - 1 : event.key === 'ArrowRight' ? current + 1 : event.key === 'Home' ? 0 : event.key === 'End' ? last : null;
    if (next === null) return;
    event.preventDefault();
    setActive(Math.min(last, Math.max(0, next)));
  };

  return (
    <div className="flex flex-col gap-3" data-testid="timeline-chart">
      <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-label={`Totals over the last ${days} days`}>
        {TIMELINE_SERIES.map((key) => (
          <li key={key} className="flex items-center gap-2">
            <span className={cn('size-2.5 rounded-full', SERIES_STYLE[key].swatch)} aria-hidden="true" />
            <span className="text-slate-600 dark:text-slate-300">{SERIES_STYLE[key].label}</span>
            <span className="font-semibold tabular-nums" data-testid={`timeline-total-${key}`}>
              {formatCount(totals[key])}
            </span>
          </li>
        ))}
      </ul>

      <div
        className="relative rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500"
        tabIndex={0}
        role="group"
        aria-label={`Messages per day over the last ${days} days`}
        aria-describedby={descriptionId}
        onKeyDown={handleKey}
        onFocus={() => setActive((current) => current ?? series.length - 1)}
        onBlur={() => setActive(null)}
      >
        <p id={descriptionId} className="sr-only">
          Use the left and right arrow keys to read each day.
        </p>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="h-auto w-full select-none"
          aria-hidden="true"
          onMouseMove={handlePointer}
          onMouseLeave={() => setActive(null)}
        >
          {scale.ticks.map((tick) => (
            <g key={tick}>
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-slate-200 dark:stroke-slate-800" strokeWidth={1} />
              <text x={PAD.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle" className="fill-slate-500 text-[11px] dark:fill-slate-400">
                {formatCount(tick)}
              </text>
            </g>
          ))}
          {series.map((point, index) =>
            showDayLabel(index) ? (
              <text
                key={point.date}
                x={x(index)}
                y={HEIGHT - 8}
                textAnchor={index === lastIndex && index > 0 ? 'end' : 'middle'}
                className="fill-slate-500 text-[11px] dark:fill-slate-400"
              >
                {formatChartDay(point.date)}
              </text>
            ) : null,
          )}
          {activePoint && active !== null ? (
            <line x1={x(active)} x2={x(active)} y1={PAD.top} y2={PAD.top + PLOT_H} className="stroke-slate-400 dark:stroke-slate-600" strokeDasharray="4 4" />
          ) : null}
          {TIMELINE_SERIES.map((key) => (
            <polyline
              key={key}
              points={series.map((point, index) => `${x(index)},${y(point[key])}`).join(' ')}
              fill="none"
              strokeWidth={2}
              strokeLinejoin="round"
              strokeLinecap="round"
              className={SERIES_STYLE[key].stroke}
            />
          ))}
          {activePoint && active !== null
            ? TIMELINE_SERIES.map((key) => <circle key={key} cx={x(active)} cy={y(activePoint[key])} r={4} className={SERIES_STYLE[key].fill} />)
            : null}
        </svg>

        {empty ? (
          <p className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-slate-500 dark:text-slate-400">
            {fillMessage(r.timelineEmpty, { days })}
          </p>
        ) : null}

        {activePoint && active !== null ? (
          <div
            className={cn(
              'pointer-events-none absolute top-2 rounded-lg border border-slate-200 bg-white/95 px-3 py-2 text-xs shadow-md dark:border-slate-700 dark:bg-slate-900/95',
              active > series.length / 2 ? '-translate-x-full' : '',
            )}
            style={{ left: `${(x(active) / WIDTH) * 100}%` }}
            data-testid="timeline-tooltip"
          >
            <p className="mb-1 font-semibold">{formatChartDay(activePoint.date)}</p>
            <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5">
              {TIMELINE_SERIES.map((key) => (
                <div key={key} className="contents">
                  <dt className="flex items-center gap-1.5 text-slate-600 dark:text-slate-300">
                    <span className={cn('size-2 rounded-full', SERIES_STYLE[key].swatch)} aria-hidden="true" />
                    {SERIES_STYLE[key].label}
                  </dt>
                  <dd className="text-right font-medium tabular-nums">{formatCount(activePoint[key])}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        <p className="sr-only" aria-live="polite">
          {activePoint ? describeDay(activePoint) : ''}
        </p>
      </div>
    </div>
  );
}
