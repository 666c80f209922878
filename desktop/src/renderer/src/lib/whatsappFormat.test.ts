import { describe, expect, it } from 'vitest';
import { formatWhatsAppText } from './whatsappFormat';

describe('formatWhatsAppText', () => {
  it('splits bold, italic, strikethrough and monospace from plain text', () => {
    expect(formatWhatsAppText('Hi *Asha*, _today_ ~only~ ```CODE1```!')).toEqual([
      { text: 'Hi ' },
      { text: 'Asha', bold: true },
      { text: ', ' },
      { text: 'today', italic: true },
      { text: ' ' },
      { text: 'only', strike: true },
      { text: ' ' },
      { text: 'CODE1', mono: true },
      { text: '!' },
    ]);
  });

  it('leaves unmatched markers and markers across lines as text', () => {
    expect(formatWhatsAppText('2 * 3 = 6')).toEqual([{ text: '2 * 3 = 6' }]);
    expect(formatWhatsAppText('*a\nb*')).toEqual([{ text: '*a\nb*' }]);
    expect(formatWhatsAppText('')).toEqual([]);
  });
});
