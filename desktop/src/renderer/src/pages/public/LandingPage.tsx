import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  ArrowRight,
  BadgeCheck,
  ChartColumn,
  CheckCheck,
  CodeXml,
  FileSpreadsheet,
  IndianRupee,
  LayoutTemplate,
  Lock,
  Send,
  ShieldCheck,
  Star,
  Wallet,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '../../lib/cn';
import { AUTH, CLAIMS, SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { CodeBlock } from '../../components/public/CodeBlock';
import { LandingFooter, LandingHeader, publicStyles } from '../../components/public/PublicLayout';
import {
  REPORTS_ENDPOINT,
  SEND_ENDPOINT,
  SEND_EXAMPLE_RESPONSE,
  apiOrigin,
  buildSendSamples,
} from './content/docs';

const text = messages.publicSite;

/** Sample values for the demo chat and the illustrative figures; never real data. */
const DEMO = {
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

const sectionShell = 'mx-auto max-w-7xl px-4 sm:px-6 lg:px-8';

function SectionIntro({
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

function IllustrativeTag({ onColour = false }: { onColour?: boolean }): React.JSX.Element {
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

function Rating({ brandName }: { brandName: string }): React.JSX.Element {
  return (
    <div className="flex items-center gap-3">
      <div className="flex" aria-hidden="true">
        {Array.from({ length: CLAIMS.ratingScale }, (_, index) => (
          <Star key={index} className="h-5 w-5 fill-amber-400 text-amber-400" />
        ))}
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <span className="font-semibold text-slate-900 dark:text-white">
          {CLAIMS.rating}/{CLAIMS.ratingScale}
        </span>{' '}
        average rating from businesses using {brandName}
      </p>
    </div>
  );
}

/** A phone showing what a recipient sees: an automated verification code, then its delivery. */
function DemoChat({ brandName }: { brandName: string }): React.JSX.Element {
  const otpMessage = fillMessage(messages.auth.otpMessage, {
    code: DEMO.otpCode,
    brand: brandName,
    minutes: AUTH.otpTtlMinutes,
  });

  return (
    <figure className="relative mx-auto w-full max-w-sm" aria-label="Example WhatsApp conversation">
      <div className="absolute -inset-6 -z-10 rounded-[3rem] bg-linear-to-br from-emerald-300/40 via-teal-200/30 to-transparent blur-2xl dark:from-emerald-700/30 dark:via-teal-800/20" />
      <div className="overflow-hidden rounded-[2.25rem] border-8 border-slate-900 bg-slate-900 shadow-2xl dark:border-slate-700">
        <div className="flex items-center gap-3 bg-whatsapp-deep px-4 py-3 text-white dark:bg-[#1f2c34]">
          <span className="flex h-9 w-9 items-center justify-center rounded-full bg-whatsapp text-sm font-bold">
            {brandName.slice(0, 1).toUpperCase()}
          </span>
          <div className="min-w-0">
            <p className="flex items-center gap-1 truncate text-sm font-semibold">
              {brandName}
              <BadgeCheck className="h-4 w-4 shrink-0 text-whatsapp" aria-label="Verified business" />
            </p>
            <p className="text-xs text-emerald-100/80">Business account</p>
          </div>
        </div>
        <div className="space-y-3 bg-[#efeae2] px-3 py-5 dark:bg-[#0b141a]">
          <p className="mx-auto w-fit rounded-md bg-white/80 px-2 py-0.5 text-[0.7rem] text-slate-600 shadow-sm dark:bg-[#182229] dark:text-slate-400">
            Today
          </p>
          <p className="mx-auto flex w-fit max-w-[90%] items-center gap-1.5 rounded-md bg-[#fdf4c5] px-2 py-1 text-center text-[0.7rem] text-slate-700 shadow-sm dark:bg-[#182229] dark:text-amber-200/80">
            <Lock className="h-3 w-3 shrink-0" aria-hidden="true" />
            This business uses a secure service to send automated messages.
          </p>
          <div className="max-w-[85%] rounded-lg rounded-tl-none bg-white px-3 py-2 text-sm text-slate-800 shadow-sm dark:bg-[#202c33] dark:text-slate-100">
            <p>
              <span className="font-bold">{DEMO.otpCode}</span>
              {otpMessage.slice(DEMO.otpCode.length)}
            </p>
            <p className="mt-1 text-right text-[0.7rem] text-slate-500 dark:text-slate-400">{DEMO.time}</p>
            <div className="mt-2 border-t border-slate-200 pt-2 text-center text-sm font-medium text-[#00a884] dark:border-slate-700">
              Copy code
            </div>
          </div>
          <div className="ml-auto max-w-[70%] rounded-lg rounded-tr-none bg-[#d9fdd3] px-3 py-2 text-sm text-slate-800 shadow-sm dark:bg-[#005c4b] dark:text-slate-100">
            <p>Thanks, got it!</p>
            <p className="mt-1 flex items-center justify-end gap-1 text-[0.7rem] text-slate-500 dark:text-slate-300">
              {DEMO.time}
              <CheckCheck className="h-3.5 w-3.5 text-sky-500" aria-label="Read" />
            </p>
          </div>
        </div>
      </div>
      <figcaption className="absolute -bottom-6 left-1/2 flex w-[85%] -translate-x-1/2 items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-lg sm:-left-10 sm:w-auto sm:translate-x-0 dark:border-slate-700 dark:bg-slate-900">
        <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-400">
          <CheckCheck className="h-5 w-5" aria-hidden="true" />
        </span>
        <span className="min-w-0">
          <span className="block text-sm font-semibold text-slate-900 dark:text-white">Delivered</span>
          <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
            Verification code to {DEMO.maskedRecipient}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}

function Hero({ brandName }: { brandName: string }): React.JSX.Element {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden">
      <div className="absolute inset-x-0 top-0 -z-10 h-[36rem] bg-linear-to-b from-emerald-50 to-transparent dark:from-emerald-950/30" />
      <div className={cn(sectionShell, 'grid items-center gap-16 py-16 lg:grid-cols-2 lg:py-24')}>
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-emerald-200 bg-white px-3 py-1 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-slate-900 dark:text-emerald-300">
            <IndianRupee className="h-4 w-4" aria-hidden="true" />
            Pay-as-you-go in rupees · no monthly fees
          </p>
          <h1
            id="hero-heading"
            className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl xl:text-6xl dark:text-white"
          >
            WhatsApp messages your customers{' '}
            <span className="bg-linear-to-r from-emerald-600 to-teal-500 bg-clip-text text-transparent dark:from-emerald-400 dark:to-teal-300">
              actually read
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-slate-600 dark:text-slate-300">
            {brandName} sends approved WhatsApp Business templates to one customer or thousands: personalised from your
            spreadsheets, tracked to delivery and read, and paid from a prepaid credit wallet.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/signup" className={cn(publicStyles.primaryButton, 'px-5 py-3 text-base')}>
              {text.getStarted}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
            <Link to="/docs" className={cn(publicStyles.secondaryButton, 'px-5 py-3 text-base')}>
              Read the docs
            </Link>
          </div>
          <div className="mt-8">
            <Rating brandName={brandName} />
          </div>
        </div>
        <div className="pb-8">
          <DemoChat brandName={brandName} />
        </div>
      </div>
    </section>
  );
}

function SampleFigures(): React.JSX.Element {
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

function Features(): React.JSX.Element {
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

function PersonalisationShowcase(): React.JSX.Element {
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
              <span className="mt-2 block border-t border-slate-200 pt-2 text-center font-medium text-[#00a884] dark:border-slate-700">
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

const STEPS: readonly { title: string; description: string }[] = [
  { title: 'Create your account', description: 'Sign up in a minute. No card needed to look around.' },
  { title: 'Top up your wallet', description: 'Add credits in rupees by UPI, card or net banking.' },
  { title: 'Get a template approved', description: 'Build it in the template builder and submit it for review.' },
  { title: 'Send and track', description: 'Send from the dashboard or the API and watch delivery and reads.' },
];

function HowItWorks(): React.JSX.Element {
  return (
    <section aria-labelledby="how-heading" className="py-20">
      <div className={sectionShell}>
        <SectionIntro id="how-heading" eyebrow="How it works" title="Live in four steps" />
        <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
              <span className="text-4xl font-extrabold text-emerald-500/30 dark:text-emerald-400/30" aria-hidden="true">
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

function ApiSection(): React.JSX.Element {
  const origin = apiOrigin(typeof window === 'undefined' ? undefined : window.location);
  const curl = useMemo(() => buildSendSamples(origin).curl, [origin]);
  const endpoints = [
    { method: 'POST', path: SEND_ENDPOINT, description: 'Send a template message with its variables.' },
    { method: 'GET', path: REPORTS_ENDPOINT, description: 'Delivery and read status, with filters (signed-in session; not with an API key).' },
  ] as const;

  return (
    <section aria-labelledby="api-heading" className="bg-slate-900 py-20 text-white dark:bg-slate-900/60">
      <div className={cn(sectionShell, 'grid items-center gap-12 lg:grid-cols-2')}>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-400">Developers</p>
          <h2 id="api-heading" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            A REST API that fits in one request
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-300">
            Trigger OTPs, order updates and reminders from your own app. Authenticate with an API key, send JSON, get a
            message id back, and follow it in the reports.
          </p>
          <ul className="mt-8 space-y-3">
            {endpoints.map((endpoint) => (
              <li key={endpoint.path} className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-700 bg-slate-800/60 px-4 py-3">
                <span
                  className={cn(
                    'rounded-md px-2 py-0.5 font-mono text-xs font-bold',
                    endpoint.method === 'POST' ? 'bg-emerald-500 text-slate-950' : 'bg-sky-400 text-slate-950',
                  )}
                >
                  {endpoint.method}
                </span>
                <code className="font-mono text-sm text-white">{endpoint.path}</code>
                <span className="text-sm text-slate-400">{endpoint.description}</span>
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/docs"
              className={cn(
                'inline-flex items-center gap-2 rounded-lg bg-emerald-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-emerald-400',
                publicStyles.focusRing,
                'focus-visible:ring-offset-slate-900',
              )}
            >
              API reference
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          </div>
        </div>
        <div className="min-w-0 space-y-4">
          <CodeBlock code={curl} label="cURL" />
          <CodeBlock code={JSON.stringify(SEND_EXAMPLE_RESPONSE, null, 2)} label="Response" />
        </div>
      </div>
    </section>
  );
}

function WalletSection({ brandName }: { brandName: string }): React.JSX.Element {
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

function FinalCallToAction({ brandName }: { brandName: string }): React.JSX.Element {
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

/** The public landing page (spec §1 and §2.3), with its own header and footer. */
export function LandingPage(): React.JSX.Element {
  const { brandName } = usePublicConfig();

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <LandingHeader />
      <main className="flex-1">
        <Hero brandName={brandName} />
        <SampleFigures />
        <Features />
        <PersonalisationShowcase />
        <HowItWorks />
        <ApiSection />
        <WalletSection brandName={brandName} />
        <FinalCallToAction brandName={brandName} />
      </main>
      <LandingFooter />
    </div>
  );
}
