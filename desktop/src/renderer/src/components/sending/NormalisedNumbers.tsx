import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { formatPhone } from '@shared/phone';

/** How many normalisations are listed; the rest are counted. */
const SHOWN = 5;

/**
 * The numbers the phone rule changed ("9876520004 → +91 98765 20004"), so the sender sees where
 * a number without a country code goes before paying.
 */
export function NormalisedNumbers({ items, total }: { items: readonly { typed: string; phone: string }[]; total?: number }) {
  if (items.length === 0) return null;
  const more = Math.max(0, (total ?? items.length) - SHOWN);
  return (
    <section aria-label={messages.phone.normalisedTitle} className="flex flex-col gap-1 rounded-lg border border-sky-200 bg-sky-50 p-3 text-xs text-sky-900 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-100" data-testid="normalised-numbers">
      <h3 className="font-medium">{messages.phone.normalisedTitle}</h3>
      <p className="text-sky-800 dark:text-sky-200">{messages.phone.normalisedHint}</p>
      <ul className="flex flex-col gap-0.5 font-mono">
        {items.slice(0, SHOWN).map((item) => (
          <li key={`${item.typed}-${item.phone}`}>
            {item.typed} → {formatPhone(item.phone)}
          </li>
        ))}
      </ul>
      {more > 0 ? <p>and {formatIndianNumber(more)} more</p> : null}
    </section>
  );
}
