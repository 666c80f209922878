import { describe, expect, it } from 'vitest';
import { extractVariables, nextVariableNumber, normaliseTemplateName, renderTemplateText, sampleExampleFor, templateStatusLabel } from './templates';

describe('extractVariables', () => {
  it('orders numeric variables numerically, then named ones alphabetically, once each', () => {
    expect(
      extractVariables({
        headerText: 'Hi {{name}}',
        bodyText: 'Order {{10}} for {{2}} ships {{1}}; thanks {{name}} from {{city}}',
        buttons: [{ text: 'Track {{3}}', url: 'https://x.in/t/{{ 10 }}' }],
      }),
    ).toEqual(['1', '2', '3', '10', 'city', 'name']);
  });

  it('finds nothing in plain text and ignores single braces', () => {
    expect(extractVariables({ bodyText: 'Hello {1} and {{ }} and {{bad-name}}' })).toEqual([]);
    expect(extractVariables({})).toEqual([]);
  });
});

describe('template names', () => {
  it.each([
    ['Order Update', 'order_update'],
    ['Diwali-Sale 2025!', 'diwali_sale_2025_'],
    ['already_ok_1', 'already_ok_1'],
    ['नमस्ते', '______'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normaliseTemplateName(input)).toBe(expected);
  });
});

describe('variable helpers', () => {
  it('numbers the next variable above the highest', () => {
    expect(nextVariableNumber([])).toBe(1);
    expect(nextVariableNumber(['1', '3', 'name'])).toBe(4);
  });

  it('gives sample examples for 1 to 10 and a generic one beyond', () => {
    expect(sampleExampleFor('1')).toBe('Rahul');
    expect(sampleExampleFor('10')).toMatch(/^https:/);
    expect(sampleExampleFor('11')).toBe('sample 11');
  });

  it('renders values and leaves unknown tokens', () => {
    expect(renderTemplateText('Hi {{1}}, order {{ 2 }} {{x}}', { '1': 'Asha', '2': 'A1' })).toBe('Hi Asha, order A1 {{x}}');
  });

  it('labels unknown statuses Unknown', () => {
    expect(templateStatusLabel('APPROVED')).toBe('Approved');
    expect(templateStatusLabel('WEIRD')).toBe('Unknown');
  });
});
