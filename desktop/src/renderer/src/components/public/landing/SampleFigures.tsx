import { cn } from '../../../lib/cn';
import { DEMO, IllustrativeTag, sectionShell } from './common';

export function SampleFigures(): React.JSX.Element {
  return (
    <section aria-labelledby="figures-heading" className={cn(sectionShell, 'pb-8')}>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="figures-heading" className="text-sm font-semibold text-slate-900 dark:text-white">
            A sample campaign at a glance
          </h2>
          <IllustrativeTag />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-6 md:grid-cols-4">
          {DEMO.figures.map((figure) => (
            <div key={figure.label}>
              <dt className="text-sm text-slate-500 dark:text-slate-400">{figure.label}</dt>
              <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900 dark:text-white">{figure.value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
          Example numbers to show what reports look like, not a promise of results. Delivery depends on WhatsApp and on
          your recipients.
        </p>
      </div>
    </section>
  );
}
