import { sectionShell, SectionIntro } from './common';

const STEPS: readonly { title: string; description: string }[] = [
  { title: 'Create your account', description: 'Sign up in a minute. No card needed to look around.' },
  { title: 'Top up your wallet', description: 'Add credits in rupees by UPI, card or net banking.' },
  { title: 'Get a template approved', description: 'Build it in the template builder and submit it for review.' },
  { title: 'Send and track', description: 'Send from the dashboard or the API and watch delivery and reads.' },
];

export function HowItWorks(): React.JSX.Element {
  return (
    <section aria-labelledby="how-heading" className="py-20">
      <div className={sectionShell}>
        <SectionIntro id="how-heading" eyebrow="How it works" title="Live in four steps" />
        <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
              <span className="text-4xl font-extrabold text-emerald-600 dark:text-emerald-400" aria-hidden="true">
                {String(index + 1).padStart(2, '0')}
              </span>
              <h3 className="mt-2 font-semibold text-slate-900 dark:text-white">{step.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{step.description}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
