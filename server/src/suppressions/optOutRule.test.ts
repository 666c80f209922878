import { describe, expect, it } from 'vitest';
import { DEFAULT_OPT_OUT_KEYWORDS } from '@shared/optOutKeywords';
import { classifyReply, type IncomingReply, type ReplyEffect } from './optOutRule';

const rows: [string, IncomingReply, ReplyEffect][] = [
  ['STOP', { text: 'STOP' }, 'opt_out'],
  ['stop in lower case', { text: 'stop' }, 'opt_out'],
  ['Stop. with a full stop', { text: 'Stop.' }, 'opt_out'],
  ['STOP!! with spaces around', { text: '  STOP!!  ' }, 'opt_out'],
  ['UNSUBSCRIBE', { text: 'Unsubscribe' }, 'opt_out'],
  ['STOP PROMOTIONS with two spaces', { text: 'stop  promotions' }, 'opt_out'],
  ['Hindi: बंद करो', { text: 'बंद करो' }, 'opt_out'],
  ['Hindi: रोकें with a danda', { text: 'रोकें।' }, 'opt_out'],
  ['Hindi: अनसब्सक्राइब', { text: 'अनसब्सक्राइब' }, 'opt_out'],
  ["a tap on Meta's Stop promotions button", { buttonText: 'Stop promotions', buttonPayload: 'ref-1' }, 'opt_out'],
  ['a tap on a button marked as opt-out, whatever it reads', { buttonText: 'No thanks', buttonPayload: 'ref-1', optOutButton: true }, 'opt_out'],
  ['START', { text: 'START' }, 'opt_in'],
  ['subscribe', { text: 'subscribe' }, 'opt_in'],
  ['Cancel (a word that sounds like an opt-out)', { text: 'Cancel' }, 'flag'],
  ['a Cancel button tap', { buttonText: 'Cancel', buttonPayload: 'ref-1' }, 'flag'],
  ['Stop. inside a sentence', { text: 'Stop. I already paid the bill' }, 'flag'],
  ['please stop sending', { text: 'please stop sending' }, 'flag'],
  ['a keyword inside Hindi text', { text: 'कृपया बंद करो ये संदेश' }, 'flag'],
  ['opt out (not a keyword of the account)', { text: 'opt out' }, 'flag'],
  ['an ordinary answer', { text: 'Yes, send me the price' }, 'none'],
  ['a word containing stop', { text: 'Nonstop deals?' }, 'none'],
  ['a quick-reply tap that is not an opt-out', { buttonText: 'Interested', buttonPayload: 'ref-1' }, 'none'],
  ['punctuation only', { text: '?!' }, 'none'],
  ['no text at all (an image)', {}, 'none'],
];

describe('classifyReply with the default keywords', () => {
  it.each(rows)('%s', (_name, reply, effect) => {
    expect(classifyReply(reply, DEFAULT_OPT_OUT_KEYWORDS)).toBe(effect);
  });
});

describe("classifyReply with an account's own keywords", () => {
  const keywords = ['Band', 'No more offers'];
  it('opts out on an added keyword', () => {
    expect(classifyReply({ text: 'band' }, keywords)).toBe('opt_out');
    expect(classifyReply({ text: 'No more offers!' }, keywords)).toBe('opt_out');
  });
  it('no longer opts out on a removed default: STOP is flagged instead', () => {
    expect(classifyReply({ text: 'STOP' }, keywords)).toBe('flag');
  });
  it('keeps START as the way back', () => {
    expect(classifyReply({ text: 'Start' }, keywords)).toBe('opt_in');
  });
});
