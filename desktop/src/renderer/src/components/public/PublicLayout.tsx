import { createContext, useContext, useState, type ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { Menu, X } from 'lucide-react';
import { cn } from '../../lib/cn';
import { CLAIMS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { LogoMark } from '../brand/Logo';
import { ThemeToggle } from '../ThemeToggle';
import { scrollToSection } from './scrollToSection';

const text = messages.publicSite;

const focusRing =
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-950';

/** Shared link and button looks of the public pages. */
export const publicStyles = {
  focusRing,
  navLink: cn(
    'whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900',
    'dark:text-slate-300 dark:hover:text-white',
    focusRing,
  ),
  primaryButton: cn(
    'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg bg-emerald-700 px-4 py-2 text-sm font-semibold text-white',
    'shadow-sm transition-colors hover:bg-emerald-800 dark:bg-emerald-500 dark:text-slate-950 dark:hover:bg-emerald-400',
    focusRing,
  ),
  secondaryButton: cn(
    'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold',
    'text-slate-800 transition-colors hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
    'dark:hover:bg-slate-800',
    focusRing,
  ),
  textLink: cn(
    'font-medium text-emerald-700 underline-offset-4 hover:underline dark:text-emerald-400',
    focusRing,
    'rounded-sm',
  ),
} as const;

/** The product mark and name, linking home. */
export function BrandLogo({
  className,
  compact = false,
}: {
  className?: string;
  /** Keeps the name for screen readers only below the `sm` breakpoint, for crowded headers. */
  compact?: boolean;
}): React.JSX.Element {
  const { brandName } = usePublicConfig();
  return (
    <Link to="/" className={cn('inline-flex items-center gap-2 rounded-lg', focusRing, className)}>
      <LogoMark />
      {/* Very narrow screens keep the name for screen readers only, so the header actions fit. */}
      <span
        className={cn(
          'text-lg font-bold tracking-tight text-slate-900 max-[379px]:sr-only dark:text-white',
          compact && 'max-sm:sr-only',
        )}
      >
        {brandName}
      </span>
    </Link>
  );
}

function Copyright(): React.JSX.Element {
  const { brandName } = usePublicConfig();
  return (
    <p className="text-sm text-slate-500 dark:text-slate-400">
      {fillMessage(text.copyright, { year: CLAIMS.copyrightYear, brand: brandName })}
    </p>
  );
}

interface NavItem {
  label: string;
  to: string;
  /** An id on the current page to scroll to instead of navigating. */
  sectionId?: string;
}

function NavItemLink({ item, className, onNavigate }: { item: NavItem; className: string; onNavigate?: () => void }) {
  if (item.sectionId) {
    const sectionId = item.sectionId;
    return (
      <a
        href={`#${sectionId}`}
        className={className}
        onClick={(event) => {
          event.preventDefault();
          onNavigate?.();
          scrollToSection(sectionId);
        }}
      >
        {item.label}
      </a>
    );
  }
  return (
    <Link to={item.to} className={className} onClick={onNavigate}>
      {item.label}
    </Link>
  );
}

interface SiteHeaderProps {
  links: readonly NavItem[];
}

/**
 * Sticky header. With navigation links, they collapse into a menu below the `md` breakpoint;
 * without any, Sign In and Get Started stay visible at every width.
 */
function SiteHeader({ links }: SiteHeaderProps): React.JSX.Element {
  const [menuOpen, setMenuOpen] = useState(false);
  const handleCloseMenu = () => setMenuOpen(false);
  const hasMenu = links.length > 0;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
        <BrandLogo />
        {hasMenu && (
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {links.map((item) => (
              <NavItemLink key={item.label} item={item} className={publicStyles.navLink} />
            ))}
          </nav>
        )}
        <div className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Link to="/login" className={cn(publicStyles.navLink, hasMenu && 'max-sm:hidden')}>
            {text.signIn}
          </Link>
          <Link to="/signup" className={cn(publicStyles.primaryButton, 'px-3 sm:px-4', hasMenu && 'max-sm:hidden')}>
            {text.getStarted}
          </Link>
          {hasMenu && (
            <button
              type="button"
              className={cn(
                'inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden',
                'dark:text-slate-200 dark:hover:bg-slate-800',
                focusRing,
              )}
              aria-expanded={menuOpen}
              aria-controls="public-mobile-menu"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X className="h-5 w-5" aria-hidden="true" /> : <Menu className="h-5 w-5" aria-hidden="true" />}
            </button>
          )}
        </div>
      </div>
      {hasMenu && (
        <nav
          id="public-mobile-menu"
          aria-label="Main (mobile)"
          hidden={!menuOpen}
          className="border-t border-slate-200 px-4 py-3 md:hidden dark:border-slate-800"
        >
          <ul className="flex flex-col gap-1">
            {links.map((item) => (
              <li key={item.label}>
                <NavItemLink item={item} className={cn(publicStyles.navLink, 'block')} onNavigate={handleCloseMenu} />
              </li>
            ))}
            <li className="mt-2 flex gap-2 sm:hidden">
              <Link to="/login" className={cn(publicStyles.secondaryButton, 'flex-1')} onClick={handleCloseMenu}>
                {text.signIn}
              </Link>
              <Link to="/signup" className={cn(publicStyles.primaryButton, 'flex-1')} onClick={handleCloseMenu}>
                {text.getStarted}
              </Link>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}

function SiteFooter({ links }: { links: readonly NavItem[] }): React.JSX.Element {
  const { brandName } = usePublicConfig();
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="flex flex-col gap-2">
          <BrandLogo />
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {brandName} · {messages.layout.footerTagline}
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-2 gap-y-1">
            {links.map((item) => (
              <li key={item.to}>
                <NavItemLink item={item} className={publicStyles.navLink} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-100 dark:border-slate-900">
        <div className="mx-auto max-w-7xl px-4 py-4 sm:px-6 lg:px-8">
          <Copyright />
        </div>
      </div>
    </footer>
  );
}

const LANDING_HEADER_LINKS: readonly NavItem[] = [
  { label: text.features, to: '/', sectionId: 'features' },
  { label: text.docs, to: '/docs' },
  { label: text.contact, to: '/contact' },
];

const LANDING_FOOTER_LINKS: readonly NavItem[] = [
  { label: text.contact, to: '/contact' },
  { label: text.terms, to: '/terms' },
  { label: text.privacyPolicy, to: '/privacy' },
  { label: text.refundPolicy, to: '/refund-policy' },
];

const PUBLIC_FOOTER_LINKS: readonly NavItem[] = [
  { label: text.privacyPolicy, to: '/privacy' },
  { label: text.refundPolicy, to: '/refund-policy' },
  // `/support` redirects to `/contact` (docs/decisions/2026-11-24-routes.md); linking the spec's path keeps that contract.
  { label: text.support, to: '/support' },
];

/** Landing page header (spec §2.3): features anchor, Docs, Contact, Sign In and Get Started. */
export function LandingHeader(): React.JSX.Element {
  return <SiteHeader links={LANDING_HEADER_LINKS} />;
}

/** Landing page footer (spec §2.3): Contact, Terms, Privacy and Refund policy. */
export function LandingFooter(): React.JSX.Element {
  return <SiteFooter links={LANDING_FOOTER_LINKS} />;
}

const NO_LINKS: readonly NavItem[] = [];

const InsidePublicLayout = createContext(false);

interface PublicLayoutProps {
  /** The page; without it the layout renders the matched child route. */
  children?: ReactNode;
}

/**
 * The second public layout of spec §2.3: logo, theme toggle, Sign In and Get Started above;
 * Privacy, Refund policy and Support below.
 *
 * Works both as a layout route (renders `<Outlet />`) and as a wrapper. The public pages wrap
 * themselves in it, and a nested PublicLayout renders only its children, so mounting a page
 * inside a PublicLayout route never draws the header twice.
 */
export function PublicLayout({ children }: PublicLayoutProps): React.JSX.Element {
  const nested = useContext(InsidePublicLayout);
  const content = children ?? <Outlet />;
  if (nested) return <>{content}</>;

  return (
    <InsidePublicLayout.Provider value={true}>
      <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
        <a
          href="#main-content"
          onClick={(event) => {
            event.preventDefault();
            scrollToSection('main-content');
          }}
          className="sr-only z-50 rounded-md bg-emerald-700 px-3 py-2 text-white focus:not-sr-only focus:absolute focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        <SiteHeader links={NO_LINKS} />
        <main id="main-content" className="flex-1 focus:outline-none">
          {content}
        </main>
        <SiteFooter links={PUBLIC_FOOTER_LINKS} />
      </div>
    </InsidePublicLayout.Provider>
  );
}
