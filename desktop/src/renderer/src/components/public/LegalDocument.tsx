import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import * as Accordion from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import { cn } from '../../lib/cn';
import { fillMessage, messages } from '@shared/messages';
import { publicStyles } from './PublicLayout';
import { scrollToSection } from './scrollToSection';

/** One piece of a legal section. Legal texts are data so that pages stay readable. */
export type LegalBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: readonly string[]; ordered?: boolean }
  | { kind: 'subheading'; text: string }
  | { kind: 'note'; text: string }
  | { kind: 'contacts'; entries: readonly LegalContact[] }
  | { kind: 'links'; items: readonly { label: string; to: string }[] };

export interface LegalContact {
  label: string;
  value: string;
  /** `mailto:`, `tel:` or an in-app path. */
  href?: string;
}

export interface LegalSection {
  /** Anchor id, also the accordion value. */
  id: string;
  title: string;
  blocks: readonly LegalBlock[];
}

function ContactValue({ contact }: { contact: LegalContact }): React.JSX.Element {
  if (!contact.href) return <>{contact.value}</>;
  if (contact.href.startsWith('/')) {
    return (
      <Link to={contact.href} className={publicStyles.textLink}>
        {contact.value}
      </Link>
    );
  }
  return (
    <a href={contact.href} className={publicStyles.textLink}>
      {contact.value}
    </a>
  );
}

/** Renders legal blocks; `headingLevel` is the level of the section heading they sit under. */
export function LegalBlocks({
  blocks,
  headingLevel = 2,
}: {
  blocks: readonly LegalBlock[];
  headingLevel?: 2 | 3;
}): React.JSX.Element {
  const SubHeading = headingLevel === 2 ? 'h3' : 'h4';
  return (
    <div className="space-y-4 text-[0.95rem] leading-7 text-slate-700 dark:text-slate-300">
      {blocks.map((block, index) => {
        const key = `${block.kind}-${index}`;
        switch (block.kind) {
          case 'paragraph':
            return <p key={key}>{block.text}</p>;
          case 'subheading':
            return (
              <SubHeading key={key} className="pt-2 text-base font-semibold text-slate-900 dark:text-white">
                {block.text}
              </SubHeading>
            );
          case 'list': {
            const ListTag = block.ordered ? 'ol' : 'ul';
            return (
              <ListTag
                key={key}
                className={cn('space-y-2 pl-6 marker:text-emerald-600', block.ordered ? 'list-decimal' : 'list-disc')}
              >
                {block.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ListTag>
            );
          }
          case 'note':
            return (
              <p
                key={key}
                className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200"
              >
                {block.text}
              </p>
            );
          case 'contacts':
            return (
              <dl key={key} className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
                {block.entries.map((contact) => (
                  <div key={contact.label} className="contents">
                    <dt className="font-medium text-slate-900 dark:text-white">{contact.label}</dt>
                    <dd className="break-words">
                      <ContactValue contact={contact} />
                    </dd>
                  </div>
                ))}
              </dl>
            );
          case 'links':
            return (
              <ul key={key} className="flex flex-wrap gap-x-4 gap-y-2">
                {block.items.map((item) => (
                  <li key={item.to}>
                    <Link to={item.to} className={publicStyles.textLink}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            );
        }
      })}
    </div>
  );
}

function hashId(): string {
  try {
    return decodeURIComponent(window.location.hash.replace(/^#/, ''));
  } catch {
    // A malformed escape in the hash is not a section id.
    return '';
  }
}

interface LegalDocumentProps {
  title: string;
  /** Already formatted, e.g. "12 Aug 2025". */
  lastUpdated: string;
  /** Text shown under the title, before the index. */
  intro?: ReactNode;
  sections: readonly LegalSection[];
  /** Rendered after the sections (addenda, notes, links). */
  children?: ReactNode;
}

/**
 * A legal page: title, last-updated date, a jump-to-section index and one collapsible section
 * per entry. Jumping opens the section, scrolls to it and moves focus to its heading button.
 */
export function LegalDocument({ title, lastUpdated, intro, sections, children }: LegalDocumentProps): React.JSX.Element {
  // A link from elsewhere (e.g. /privacy#cookies under a browser router) opens its section.
  const [openSections, setOpenSections] = useState<string[]>(() => {
    const id = hashId();
    return sections.some((section) => section.id === id) ? [id] : [];
  });

  useEffect(() => {
    const id = hashId();
    if (id) requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: 'start' }));
  }, []);

  const handleJump = (id: string) => {
    setOpenSections((open) => (open.includes(id) ? open : [...open, id]));
    // Opening a section only moves what comes after it, so its heading is already in place.
    const trigger = document.getElementById(id)?.querySelector<HTMLElement>('button');
    scrollToSection(id, trigger);
  };

  const allOpen = openSections.length === sections.length;
  const handleToggleAll = () => setOpenSections(allOpen ? [] : sections.map((section) => section.id));

  return (
    <article className="mx-auto max-w-4xl px-4 py-10 sm:px-6 lg:py-14">
      <header className="border-b border-slate-200 pb-8 dark:border-slate-800">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
          {fillMessage(messages.publicSite.lastUpdated, { date: lastUpdated })}
        </p>
        {intro && <div className="mt-6 space-y-4 leading-7 text-slate-700 dark:text-slate-300">{intro}</div>}
      </header>

      <nav
        aria-labelledby="legal-jump-heading"
        className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="legal-jump-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          {messages.publicSite.jumpToSection}
        </h2>
        <ol className="mt-3 grid gap-x-6 gap-y-1 sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                onClick={(event) => {
                  event.preventDefault();
                  handleJump(section.id);
                }}
                className={cn(
                  'flex gap-2 rounded-md py-1 text-sm text-slate-700 hover:text-emerald-700 dark:text-slate-300 dark:hover:text-emerald-400',
                  publicStyles.focusRing,
                )}
              >
                <span className="w-6 shrink-0 text-right tabular-nums text-slate-400">{index + 1}.</span>
                <span>{section.title}</span>
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-8 flex justify-end">
        <button
          type="button"
          onClick={handleToggleAll}
          className={cn('text-sm', publicStyles.textLink)}
        >
          {allOpen ? 'Collapse all sections' : 'Expand all sections'}
        </button>
      </div>

      <Accordion.Root
        type="multiple"
        value={openSections}
        onValueChange={setOpenSections}
        className="mt-3 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
      >
        {sections.map((section, index) => (
          <Accordion.Item key={section.id} value={section.id} id={section.id} className="scroll-mt-24">
            <Accordion.Header asChild>
              <h2>
                <Accordion.Trigger
                  className={cn(
                    'group flex w-full items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold',
                    'text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800/60',
                    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-500',
                  )}
                >
                  <span className="flex gap-3">
                    <span className="tabular-nums text-emerald-600 dark:text-emerald-400">{index + 1}.</span>
                    <span>{section.title}</span>
                  </span>
                  <ChevronDown
                    className="h-5 w-5 shrink-0 text-slate-400 transition-transform duration-200 group-data-[state=open]:rotate-180"
                    aria-hidden="true"
                  />
                </Accordion.Trigger>
              </h2>
            </Accordion.Header>
            <Accordion.Content className="pb-6 pl-5 pr-5 sm:pl-12">
              <LegalBlocks blocks={section.blocks} />
            </Accordion.Content>
          </Accordion.Item>
        ))}
      </Accordion.Root>

      {children && <div className="mt-10 space-y-8">{children}</div>}
    </article>
  );
}
