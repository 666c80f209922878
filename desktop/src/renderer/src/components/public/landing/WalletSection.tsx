import { ShieldCheck, Wallet } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { IllustrativeTag, sectionShell } from './common';

export function WalletSection({ brandName }: { brandName: string }): React.JSX.Element {
  const points = [
    'No monthly fees, no minimum commitment',
    'One credit is one rupee; top up by UPI, card or net banking',
    'Charged per message by template category, shown before you send',
    'Failed messages and blocked duplicates cost nothing',
  ];
  return (
    <section aria-labelledby="wallet-heading" className="py-20">
      <div className={cn(sectionShell, 'grid items-center gap-12 lg:grid-cols-2')}>
        <div className="order-2 lg:order-1">
          <div className="mx-auto max-w-md rounded-3xl bg-linear-to-br from-emerald-600 to-teal-700 p-8 text-white shadow-xl">
            <div className="flex items-center justify-between">
              <span className="flex items-center gap-2 text-sm font-medium text-emerald-50">
                <Wallet className="h-5 w-5" aria-hidden="true" />
                {brandName} wallet
              </span>
              <IllustrativeTag onColour />
            </div>
            <p className="mt-8 text-sm text-emerald-100">Credit balance</p>
            <p className="mt-1 text-4xl font-bold tracking-tight">₹12,450.00</p>
            <div className="mt-8 grid grid-cols-2 gap-4 text-sm">
              <div className="rounded-xl bg-white/10 p-3">
                <p className="text-emerald-100">Last top-up</p>
                <p className="mt-1 font-semibold">₹10,000 via UPI</p>
              </div>
              <div className="rounded-xl bg-white/10 p-3">
                <p className="text-emerald-100">Currency</p>
                <p className="mt-1 font-semibold">INR (₹)</p>
              </div>
            </div>
          </div>
        </div>
        <div className="order-1 lg:order-2">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700 dark:text-emerald-400">
            Prepaid wallet
          </p>
          <h2 id="wallet-heading" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            Pay as you go, in rupees
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">
            Top up when you need to and spend only on the messages you send. Your balance is always one glance away.
          </p>
          <ul className="mt-8 space-y-3">
            {points.map((point) => (
              <li key={point} className="flex gap-3 text-slate-700 dark:text-slate-300">
                <ShieldCheck className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                {point}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
