import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { ThemeToggle } from '../../components/ThemeToggle';
import { FaqAccordion } from '../../components/public/FaqAccordion';
import { BrandLogo, LandingFooter, publicStyles } from '../../components/public/PublicLayout';
import { TERMS_LAST_UPDATED, buildTermsFaq } from './content/terms';

const text = messages.publicSite;

/** The terms as a six-question FAQ, with its own header (spec §2.9: Home, Docs, Sign In). */
export function TermsPage(): React.JSX.Element {
  const { brandName, support } = usePublicConfig();
  const faq = useMemo(() => buildTermsFaq({ brandName, support }), [brandName, support]);

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-3 px-4 sm:px-6">
          <BrandLogo compact />
          <nav aria-label="Main" className="flex items-center gap-0.5 sm:gap-1">
            <Link to="/" className={publicStyles.navLink}>
              {text.home}
            </Link>
            <Link to="/docs" className={publicStyles.navLink}>
              {text.docs}
            </Link>
            <ThemeToggle className="mx-1" />
            <Link to="/login" className={publicStyles.primaryButton}>
              {text.signIn}
            </Link>
          </nav>
        </div>
      </header>

      <main className="flex-1">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{text.terms}</h1>
          <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
            {fillMessage(text.lastUpdated, { date: TERMS_LAST_UPDATED })}
          </p>
          <p className="mt-6 leading-7 text-slate-700 dark:text-slate-300">
            The essentials of using {brandName}, as questions and answers. The{' '}
            <Link to="/refund-policy" className={publicStyles.textLink}>
              {text.refundPolicy}
            </Link>{' '}
            and the{' '}
            <Link to="/privacy" className={publicStyles.textLink}>
              {text.privacyPolicy}
            </Link>{' '}
            give the details.
          </p>
          <FaqAccordion items={faq} className="mt-8" />
        </div>
      </main>

      <LandingFooter />
    </div>
  );
}
