import { describe, expect, it } from 'vitest';
import { PARAMETER_LIMITS, parameterProblem, parameterProblemText, parameterRule } from './parameterLimits';
import type { TTemplateComponent } from './types';

const full: TTemplateComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
  { type: 'BODY', text: 'Hi {{name}}, order {{order}} ships today' },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Thanks' }, { type: 'URL', text: 'Track', url: 'https://shop.example.in/track/{{1}}' }] },
];
const fine = { header_1: 'A-1', name: 'Asha', order: 'A-1', button_1_url: 'A-1' };

describe("WhatsApp's limits on a variable's value", () => {
  it("holds Meta's figures", () => {
    expect(PARAMETER_LIMITS).toEqual({ headerText: 60, bodyText: 1024, bodyOnlyText: 32768, buttonUrl: 2000, consecutiveSpaces: 4 });
  });

  it('takes values that fit, up to each limit exactly', () => {
    const rule = parameterRule(full);
    expect(parameterProblem(rule, fine)).toBeNull();
    expect(parameterProblem(rule, { ...fine, header_1: 'x'.repeat(60), name: 'y'.repeat(1024) })).toBeNull();
    // Characters as people count them: 60 emoji are 120 UTF-16 units, and fit a header.
    expect(parameterProblem(rule, { ...fine, header_1: '🙂'.repeat(60) })).toBeNull();
    expect(parameterProblem(rule, { ...fine, name: 'Asha    Rao' })).toBeNull();
  });

  it('refuses a header value over 60 and a body value over 1,024 when the body is not alone', () => {
    const rule = parameterRule(full);
    expect(parameterProblem(rule, { ...fine, header_1: 'x'.repeat(61) })).toEqual({ key: 'header_1', label: 'Header {{1}}', reason: 'too_long', length: 61, limit: 60 });
    const body = parameterProblem(rule, { ...fine, order: 'y'.repeat(1025) });
    expect(body).toEqual({ key: 'order', label: '{{order}}', reason: 'too_long', length: 1025, limit: 1024 });
    expect(parameterProblemText(body!)).toBe('{{order}} is 1,025 characters long; WhatsApp takes at most 1,024 there');
  });

  it('takes up to 32,768 in a body that is the only component, not one more', () => {
    const rule = parameterRule([{ type: 'BODY', text: 'Notice: {{1}}' }]);
    expect(parameterProblem(rule, { 1: 'z'.repeat(32768) })).toBeNull();
    expect(parameterProblem(rule, { 1: 'z'.repeat(32769) })).toMatchObject({ reason: 'too_long', limit: 32768 });
    expect(parameterProblem(rule, { 1: 'z'.repeat(200_000) })).toMatchObject({ reason: 'too_long', length: 200_000 });
  });

  it("holds a URL button's link as filled to 2,000 characters", () => {
    const rule = parameterRule(full);
    const prefix = 'https://shop.example.in/track/'.length;
    expect(parameterProblem(rule, { ...fine, button_1_url: 'p'.repeat(2000 - prefix) })).toBeNull();
    const over = parameterProblem(rule, { ...fine, button_1_url: 'p'.repeat(2001 - prefix) });
    expect(over).toEqual({ key: 'button_1_url', label: 'Button 2 link {{1}}', reason: 'url_too_long', length: 2001, limit: 2000 });
    expect(parameterProblemText(over!)).toBe('Button 2 link {{1}} makes a link of 2,001 characters; WhatsApp takes at most 2,000');
  });

  it('refuses new lines, tabs and other control characters, and more than four spaces in a row', () => {
    const rule = parameterRule(full);
    for (const value of ['two\nlines', 'a\ttab', 'carriage\rreturn', 'bell\u0007', 'del\u007f', 'c1\u0085']) {
      expect(parameterProblem(rule, { ...fine, name: value }), JSON.stringify(value)).toMatchObject({ key: 'name', reason: 'control_character' });
    }
    const spaces = parameterProblem(rule, { ...fine, name: 'Asha     Rao' });
    expect(spaces).toMatchObject({ reason: 'spaces' });
    expect(parameterProblemText(spaces!)).toBe('{{name}} holds more than 4 spaces in a row, which WhatsApp refuses in a variable');
  });
});
