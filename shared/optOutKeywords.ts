/**
 * The words a recipient can reply to stop or resume a business's messages. Shared by the server's
 * rule (server/src/suppressions/optOutRule.ts) and the settings screen that edits an account's list.
 * See docs/decisions/2026-12-07-opt-outs-that-mean-it.md for the choice of Hindi words.
 */

/** Opt-out keywords of an account that has not edited its own. */
export const DEFAULT_OPT_OUT_KEYWORDS: readonly string[] = ['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS', 'बंद करो', 'रोकें', 'अनसब्सक्राइब'];

/** Replies that opt a recipient back in; fixed, so an account cannot lose the way back. */
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'SUBSCRIBE'];

/** Bounds of an account's keyword list. */
export const OPT_OUT_KEYWORDS_MAX = 20;
export const OPT_OUT_KEYWORD_MAX_LENGTH = 40;

/** Meta's own marketing opt-out quick reply (its template examples: a QUICK_REPLY button reading this). */
export const META_STOP_PROMOTIONS_BUTTON_TEXT = 'Stop promotions';

/**
 * A reply as compared with keywords: Unicode-normalised, lower-cased, spaces and punctuation
 * trimmed from both ends and runs of them inside reduced to one space. Devanagari vowel signs are
 * marks, not punctuation, so Hindi words keep their letters; the danda (।) is punctuation.
 */
export function normaliseReply(text: string): string {
  return text
    .normalize('NFC')
    .toLocaleLowerCase('en-IN')
    .split(/[\p{P}\p{Z}\s]+/u)
    .filter((word) => word.length > 0)
    .join(' ');
}
