/**
 * What the landing page's sections share (spec §1 and §2.3): its sample data, the section frame
 * and heading, and the "illustrative" tag. pages/public/LandingPage.tsx composes the sections.
 */
import type { ReactNode } from 'react';
import { messages } from '@shared/messages';
import { cn } from '../../../lib/cn';

export const text = messages.publicSite;

/** Sample values for the demo chat and the illustrative figures; never real data. */
export const DEMO = {
  otpCode: '482913',
  time: '10:42',
  maskedRecipient: '+91 98765 ••••10',
  figures: [
    { label: 'Messages sent', value: '25,000' },
    { label: 'Delivered', value: '98.4%' },
    { label: 'Read', value: '81.2%' },
    { label: 'Time to deliver', value: '< 3 s' },
  ],
  funnel: [
    { label: 'Sent', percent: 100, tone: 'bg-slate-400 dark:bg-slate-500' },
    { label: 'Delivered', percent: 98.4, tone: 'bg-emerald-500' },
    { label: 'Read', percent: 81.2, tone: 'bg-sky-500' },
    { label: 'Failed (credited back)', percent: 1.6, tone: 'bg-rose-500' },
  ],
  sheet: {
    columns: ['name', 'phone', 'order_id'],
    rows: [
      ['Asha', '919876543210', 'ORD-4521'],
      ['Rahul', '919812345678', 'ORD-4522'],
      ['Meera', '919900112233', 'ORD-4523'],
    ],
  },
} as const;

export const sectionShell = 'mx-auto max-w-7xl px-4 sm:px-6 lg:px-8';

export function SectionIntro({
  eyebrow,
  title,
  children,
  id,
}: {
  eyebrow: string;
  title: string;
  children?: ReactNode;
  id: string;
}): React.JSX.Element {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700 dark:text-emerald-400">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {title}
      </h2>
      {children && <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">{children}</p>}
    </div>
  );
}

export function IllustrativeTag({ onColour = false }: { onColour?: boolean }): React.JSX.Element {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-[0.7rem] font-semibold uppercase tracking-wide',
        onColour ? 'bg-white/20 text-white' : 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
      )}
    >
      {text.illustrative}
    </span>
  );
}
