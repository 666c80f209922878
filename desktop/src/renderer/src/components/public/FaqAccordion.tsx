import * as Accordion from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import { cn } from '../../lib/cn';
import { LegalBlocks, type LegalSection } from './LegalDocument';

interface FaqAccordionProps {
  items: readonly LegalSection[];
  /** Level of the question headings, so that they follow the page's outline. */
  headingLevel?: 2 | 3;
  className?: string;
}

/** Questions that open in place; arrow keys move between questions (Radix accordion). */
export function FaqAccordion({ items, headingLevel = 2, className }: FaqAccordionProps): React.JSX.Element {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Accordion.Root
      type="multiple"
      className={cn(
        'divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white',
        'dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900',
        className,
      )}
    >
      {items.map((item) => (
        <Accordion.Item key={item.id} value={item.id} id={item.id} className="scroll-mt-24">
          <Accordion.Header asChild>
            <Heading>
              <Accordion.Trigger
                className={cn(
                  'group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold',
                  'text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800/60',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-500',
                )}
              >
                {item.title}
                <ChevronDown
                  className="h-5 w-5 shrink-0 text-slate-400 transition-transform duration-200 group-data-[state=open]:rotate-180"
                  aria-hidden="true"
                />
              </Accordion.Trigger>
            </Heading>
          </Accordion.Header>
          <Accordion.Content className="px-5 pb-5">
            <LegalBlocks blocks={item.blocks} headingLevel={headingLevel} />
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
