/**
 * The one rule that decides what an incoming reply does to a recipient's subscription. Pure: the
 * caller passes the reply and the account's keywords, and stores or acts on the answer.
 *
 * - `opt_out`: the whole reply, normalised (shared/optOutKeywords.ts), is one of the account's
 *   opt-out keywords, or it is a tap on a button the template marks as opt-out.
 * - `opt_in`: the whole reply is START or SUBSCRIBE.
 * - `flag`: the reply only sounds like an opt-out ("Cancel", "please stop sending", a keyword
 *   inside a sentence): kept for the user to decide, never acted on.
 * - `none`: anything else.
 */
import { normaliseReply, OPT_IN_KEYWORDS } from '@shared/optOutKeywords';

export type ReplyEffect = 'opt_out' | 'opt_in' | 'flag' | 'none';

export interface IncomingReply {
  /** Typed text (a text message's body). */
  text?: string | null;
  /** A quick-reply tap's payload (our send reference), when the reply is a tap. */
  buttonPayload?: string | null;
  /** The tapped button's text, or an interactive reply's title. */
  buttonText?: string | null;
  /** The tapped button is marked as opt-out on its template. */
  optOutButton?: boolean;
}

/**
 * Words that, inside a reply, suggest the sender may want no more messages, beyond the account's
 * keywords themselves. They never opt out on their own.
 */
const CAUTION_PHRASES: readonly string[] = ['stop', 'cancel', 'unsubscribe', 'opt out', 'optout', 'remove me', 'do not send', "don't send", 'dont send', 'no more', 'block', 'spam', 'बंद', 'रोको', 'मत भेजो', 'मत भेजें'];

/**
 * Keywords and phrases normalised once, not for every reply of a batch (normalising is a locale
 * lower-casing and a Unicode split). Accounts' own lists make the set open-ended: it starts over
 * past a bound.
 */
const normalisedPhrases = new Map<string, string>();
const NORMALISED_PHRASES_MAX = 10_000;

function normalisedPhrase(phrase: string): string {
  let normalised = normalisedPhrases.get(phrase);
  if (normalised === undefined) {
    if (normalisedPhrases.size >= NORMALISED_PHRASES_MAX) normalisedPhrases.clear();
    normalised = normaliseReply(phrase);
    normalisedPhrases.set(phrase, normalised);
  }
  return normalised;
}

function containsPhrase(words: readonly string[], phrase: string): boolean {
  const wanted = normalisedPhrase(phrase).split(' ');
  if (wanted.length === 0 || wanted[0] === '') return false;
  for (let start = 0; start + wanted.length <= words.length; start += 1) {
    if (wanted.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** What a reply does, given the account's opt-out keywords (as the user wrote them). */
export function classifyReply(reply: IncomingReply, keywords: readonly string[]): ReplyEffect {
  if (reply.optOutButton) return 'opt_out';
  const said = reply.text ?? reply.buttonText ?? '';
  const normalised = normaliseReply(said);
  if (normalised === '') return 'none';
  const optOut = new Set(keywords.map(normalisedPhrase).filter((k) => k !== ''));
  if (optOut.has(normalised)) return 'opt_out';
  if (OPT_IN_KEYWORDS.some((k) => normalisedPhrase(k) === normalised)) return 'opt_in';
  const words = normalised.split(' ');
  if ([...optOut, ...CAUTION_PHRASES].some((phrase) => containsPhrase(words, phrase))) return 'flag';
  return 'none';
}
