import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHONE_EXAMPLE } from './constants';
import { fillMessage, messages } from './messages';
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

  it('fills placeholders and leaves unknown ones', () => {
    expect(fillMessage('in {minutes} min {other}', { minutes: 5 })).toBe('in 5 min {other}');
  });
});
