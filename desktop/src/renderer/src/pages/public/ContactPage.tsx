import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowRight, BookOpen, Clock, Mail, MapPin, Phone, type LucideIcon } from 'lucide-react';
import { messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { PublicLayout, publicStyles } from '../../components/public/PublicLayout';
import { telHref } from './content/common';

interface ContactCardProps {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
}

function ContactCard({ icon: Icon, title, children }: ContactCardProps): React.JSX.Element {
  return (
    <div className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-400">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
        <div className="mt-1 break-words text-slate-600 dark:text-slate-300">{children}</div>
      </div>
    </div>
  );
}

export function ContactPage(): React.JSX.Element {
  const { brandName, support } = usePublicConfig();

  return (
    <PublicLayout>
      <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:py-16">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700 dark:text-emerald-400">
            {messages.publicSite.contact}
          </p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            Talk to the {brandName} team
          </h1>
          <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">
            Questions about sending, templates, your wallet or the API? Reach us by e-mail or phone.{' '}
            {messages.publicSite.supportReplyTime}
          </p>
        </div>

        <div className="mt-10 grid gap-4 sm:grid-cols-2">
          <ContactCard icon={Mail} title="E-mail">
            <a href={`mailto:${support.email}`} className={publicStyles.textLink}>
              {support.email}
            </a>
          </ContactCard>
          <ContactCard icon={Phone} title="Phone">
            <a href={telHref(support.phone)} className={publicStyles.textLink}>
              {support.phone}
            </a>
          </ContactCard>
          <ContactCard icon={MapPin} title="Office address">
            <address className="not-italic">{support.address}</address>
          </ContactCard>
          <ContactCard icon={Clock} title="Response time">
            {messages.publicSite.supportReplyTime}
          </ContactCard>
        </div>

        <div className="mt-10 flex flex-col gap-6 rounded-2xl bg-linear-to-br from-emerald-600 to-teal-700 p-8 text-white sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-xl font-semibold">New to {brandName}?</h2>
            <p className="mt-1 text-emerald-50">
              Create an account, top up your wallet and send your first template message.
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            <Link
              to="/signup"
              className={`inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-emerald-700 hover:bg-emerald-50 ${publicStyles.focusRing}`}
            >
              {messages.publicSite.getStarted}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
            <Link
              to="/docs"
              className={`inline-flex items-center gap-2 rounded-lg border border-white/40 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 ${publicStyles.focusRing}`}
            >
              <BookOpen className="h-4 w-4" aria-hidden="true" />
              Read the docs
            </Link>
          </div>
        </div>
      </div>
    </PublicLayout>
  );
}
