import { ChartColumn, CodeXml, FileSpreadsheet, LayoutTemplate, Send, Wallet, type LucideIcon } from 'lucide-react';
import { SENDING } from '@shared/constants';
import { sectionShell, SectionIntro, text } from './common';

interface Feature {
  icon: LucideIcon;
  title: string;
  description: string;
}

const FEATURES: readonly Feature[] = [
  {
    icon: Send,
    title: 'Bulk messaging',
    description: `Paste numbers or import a CSV or Excel file and send one approved template to all of them. Lists over ${SENDING.bulkThreshold} recipients switch to optimised bulk delivery.`,
  },
  {
    icon: FileSpreadsheet,
    title: 'Dynamic variables',
    description:
      'Map template variables such as {{1}} and {{2}} to spreadsheet columns, so every customer gets their own name, order or amount. Preview before you send.',
  },
  {
    icon: ChartColumn,
    title: 'Real-time delivery and read reports',
    description:
      'Follow every message from sent to delivered and read, filter by date, template or status, and export to CSV or Excel.',
  },
  {
    icon: LayoutTemplate,
    title: 'Template builder',
    description:
      'Compose the header, body text and call-to-action buttons with a live preview, then submit for approval in one click.',
  },
  {
    icon: Wallet,
    title: 'Wallet with credit balance',
    description:
      'Top up in rupees by UPI, card or net banking and see your credit balance everywhere. The cost of a send is shown before you confirm.',
  },
  {
    icon: CodeXml,
    title: 'REST API integration',
    description:
      'Send OTPs, order updates and alerts from your own systems with an API key and a single JSON request.',
  },
];

export function Features(): React.JSX.Element {
  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 py-20">
      <div className={sectionShell}>
        <SectionIntro id="features-heading" eyebrow={text.features} title="Everything you need to message at scale">
          From a one-off alert to a campaign for your whole customer list, in one place.
        </SectionIntro>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <li
              key={title}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
            >
              <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-400">
                <Icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
