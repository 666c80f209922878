import { Link } from 'react-router-dom';
import { ArrowRight, BadgeCheck, CheckCheck, IndianRupee, Lock, Star } from 'lucide-react';
import { AUTH, CLAIMS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { cn } from '../../../lib/cn';
import { publicStyles } from '../PublicLayout';
import { DEMO, sectionShell, text } from './common';

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
            <div className="mt-2 border-t border-slate-200 pt-2 text-center text-sm font-medium text-[#008069] dark:border-slate-700 dark:text-[#00a884]">
              Copy code
            </div>
          </div>
          <div className="ml-auto max-w-[70%] rounded-lg rounded-tr-none bg-[#d9fdd3] px-3 py-2 text-sm text-slate-800 shadow-sm dark:bg-[#005c4b] dark:text-slate-100">
            <p>Thanks, got it!</p>
            <p className="mt-1 flex items-center justify-end gap-1 text-[0.7rem] text-slate-600 dark:text-slate-300">
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

export function Hero({ brandName }: { brandName: string }): React.JSX.Element {
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
