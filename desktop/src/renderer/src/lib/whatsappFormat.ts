/** WhatsApp's inline formatting for previews, as segments: no HTML is ever built from user text. */

export interface FormattedSegment {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  mono?: boolean;
}

// Mono first: its backticks may wrap the other markers. A marker pair must not span lines,
// as in WhatsApp itself.
const FORMAT_PATTERN = /(```[^`]+```|\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g;

/** "*Hi* _there_" -> [{text: 'Hi', bold}, {text: ' '}, {text: 'there', italic}]. */
export function formatWhatsAppText(text: string): FormattedSegment[] {
  const segments: FormattedSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(FORMAT_PATTERN)) {
    const token = match[0];
    const start = match.index;
    if (start > last) segments.push({ text: text.slice(last, start) });
    if (token.startsWith('```')) segments.push({ text: token.slice(3, -3), mono: true });
    else if (token.startsWith('*')) segments.push({ text: token.slice(1, -1), bold: true });
    else if (token.startsWith('_')) segments.push({ text: token.slice(1, -1), italic: true });
    else segments.push({ text: token.slice(1, -1), strike: true });
    last = start + token.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}
