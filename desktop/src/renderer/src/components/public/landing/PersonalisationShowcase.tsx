import { ChartColumn, FileSpreadsheet } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { DEMO, IllustrativeTag, sectionShell, SectionIntro } from './common';

export function PersonalisationShowcase(): React.JSX.Element {
  const [first] = DEMO.sheet.rows;
  return (
    <section aria-labelledby="showcase-heading" className="bg-white py-20 dark:bg-slate-900/40">
      <div className={sectionShell}>
        <SectionIntro id="showcase-heading" eyebrow="Personalise and track" title="Your spreadsheet in, personal messages out">
          Every column can fill a variable. Every message reports back.
        </SectionIntro>
        <div className="mt-12 grid gap-8 lg:grid-cols-2">
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6 dark:border-slate-800 dark:bg-slate-900">
            <h3 className="flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
              <FileSpreadsheet className="h-5 w-5 text-emerald-600" aria-hidden="true" />
              customers.xlsx
            </h3>
            <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-950">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Example spreadsheet rows</caption>
                <thead className="bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                  <tr>
                    {DEMO.sheet.columns.map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-mono text-xs font-semibold">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 text-slate-700 dark:divide-slate-800 dark:text-slate-300">
                  {DEMO.sheet.rows.map((row) => (
                    <tr key={row[2]}>
                      {row.map((cell) => (
                        <td key={cell} className="px-3 py-2 font-mono text-xs">
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
              <code className="font-mono text-emerald-700 dark:text-emerald-400">{'{{1}}'}</code> ← name ·{' '}
              <code className="font-mono text-emerald-700 dark:text-emerald-400">{'{{2}}'}</code> ← order_id
            </p>
            <div className="mt-4 max-w-sm rounded-lg rounded-tl-none bg-white px-3 py-2 text-sm text-slate-800 shadow-sm dark:bg-[#202c33] dark:text-slate-100">
              Hi {first[0]}, your order {first[2]} has shipped and will reach you in 2 days.
              <span className="mt-2 block border-t border-slate-200 pt-2 text-center font-medium text-[#008069] dark:border-slate-700 dark:text-[#00a884]">
                Track order
              </span>
            </div>
          </div>

          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6 dark:border-slate-800 dark:bg-slate-900">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
                <ChartColumn className="h-5 w-5 text-emerald-600" aria-hidden="true" />
                Delivery report
              </h3>
              <IllustrativeTag />
            </div>
            <ul className="mt-6 space-y-5">
              {DEMO.funnel.map((step) => (
                <li key={step.label}>
                  <div className="flex justify-between text-sm">
                    <span className="text-slate-700 dark:text-slate-300">{step.label}</span>
                    <span className="font-semibold tabular-nums text-slate-900 dark:text-white">{step.percent}%</span>
                  </div>
                  <div className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
                    <div className={cn('h-full rounded-full', step.tone)} style={{ width: `${step.percent}%` }} />
                  </div>
                </li>
              ))}
            </ul>
            <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
              Statuses update as WhatsApp reports them. Messages that fail are credited back to your wallet, and accidental
              duplicates are blocked before they cost you anything.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}
