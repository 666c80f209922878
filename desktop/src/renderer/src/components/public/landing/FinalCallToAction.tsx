import { Link } from 'react-router-dom';
import { ArrowRight, Zap } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { publicStyles } from '../PublicLayout';
import { sectionShell, text } from './common';

export function FinalCallToAction({ brandName }: { brandName: string }): React.JSX.Element {
  return (
    <section aria-labelledby="cta-heading" className={cn(sectionShell, 'pb-20')}>
      <div className="relative overflow-hidden rounded-3xl bg-linear-to-br from-emerald-600 via-emerald-700 to-teal-800 px-6 py-14 text-center text-white sm:px-12">
        <Zap className="absolute -right-6 -top-6 h-40 w-40 text-white/10" aria-hidden="true" />
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Start sending with {brandName} today
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-emerald-50">
          Create your account, top up any amount and send your first approved template.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link
            to="/signup"
            className={cn(
              'inline-flex items-center gap-2 rounded-lg bg-white px-5 py-3 font-semibold text-emerald-700 hover:bg-emerald-50',
              publicStyles.focusRing,
            )}
          >
            {text.getStarted}
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
          <Link
            to="/contact"
            className={cn(
              'inline-flex items-center gap-2 rounded-lg border border-white/40 px-5 py-3 font-semibold text-white hover:bg-white/10',
              publicStyles.focusRing,
            )}
          >
            Talk to us
          </Link>
        </div>
      </div>
    </section>
  );
}
