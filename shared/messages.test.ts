import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHONE_EXAMPLE } from './constants';
import { fillMessage, messages, plural } from './messages';
import { formatIndianNumber } from './money';

const SPEC = new URL('../../shared/spec/000_4efc8d21f4e58f39.txt', import.meta.url);

function catalogueTexts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node && typeof node === 'object') return Object.values(node).flatMap(catalogueTexts);
  return [];
}

/**
 * Placeholders differ in name between spec and catalogue ({m:ss} vs {time}); compare without them.
 * Rupee amounts compare in Indian grouping: the spec quotes 'Amount cannot exceed ₹100,000' and
 * says it is "shown with Indian grouping" (₹1,00,000).
 */
const normalise = (text: string) =>
  text
    .replaceAll(PHONE_EXAMPLE, '{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/₹([\d,]+)/g, (_, digits: string) => `₹${formatIndianNumber(Number(digits.replace(/,/g, '')))}`);

/** Texts the spec quotes in a section: 'like this', where apostrophes inside words do not end it. */
function quotedTexts(section: string): string[] {
  return [...section.matchAll(/(?<=^|[\s(:,])'((?:[^']|'(?=[a-z]))+?)'(?=[\s,.;:)]|$)/gm)].map((m) => m[1]!.trim());
}

describe('message catalogue', () => {
  it.skipIf(!existsSync(SPEC))('holds every quoted text of spec 000 sections 5 and 8', () => {
    const spec = readFileSync(SPEC, 'utf8');
    const section = (from: string, to: string) => spec.slice(spec.indexOf(from), spec.indexOf(to));
    const quoted = [...quotedTexts(section('## 5. Validation rules', '## 6.')), ...quotedTexts(section('## 8. Error catalogue', '## 9.'))];
    expect(quoted.length).toBeGreaterThan(40);
    const catalogue = new Set(catalogueTexts(messages).map((t) => normalise(t).trim()));
    const missing = quoted.filter((text) => !catalogue.has(normalise(text)));
    expect(missing).toEqual([]);
  });

  it('says "1 message" and "1 invalid number", not "1 messages", wherever a count is filled in', () => {
    expect(fillMessage(messages.sending.quickSendAccepted, { count: 1 })).toBe('Campaign accepted: 1 message queued for delivery.');
    expect(fillMessage(messages.sending.quickSendAccepted, { count: '1,00,000' })).toBe('Campaign accepted: 1,00,000 messages queued for delivery.');
    expect(fillMessage(messages.sending.quickSendAccepted, { count: 0 })).toBe('Campaign accepted: 0 messages queued for delivery.');
    expect(fillMessage(messages.counts.invalidSkipped, { count: '1' })).toBe('1 invalid number skipped');
    expect(fillMessage(messages.counts.invalidSkipped, { count: 2 })).toBe('2 invalid numbers skipped');
    expect(fillMessage(messages.schedule.accepted, { count: 1, time: '7 Dec 2026, 10:30 am' })).toMatch(/^Scheduled: 1 message will go out at 7 Dec 2026, 10:30 am IST\./);
    expect(plural(1, 'row', 'rows')).toBe('row');
    expect(plural(1.5, 'row', 'rows')).toBe('rows');
  });

  it('leaves no counted noun in the catalogue without its singular', () => {
    // A count placeholder followed by a plural noun reads "1 messages" for one: it takes {count|one|other}.
    const texts = catalogueTexts(messages);
    const unpluralised = texts.filter((text) => /\{(count|total|invalid|accepted|duplicates)\} (?:[a-z]+ )?(messages|numbers|rows|templates|entries|refunds|logs|recipients)\b/.test(text));
    expect(unpluralised).toEqual([]);
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fillMessage('in {minutes} min {other}', { minutes: 5 })).toBe('in 5 min {other}');
  });
});
