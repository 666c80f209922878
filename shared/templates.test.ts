import { describe, expect, it } from 'vitest';
import {
  INDIAN_TEMPLATE_LANGUAGE_COUNT,
  SPEC_TEMPLATE_LANGUAGE_COUNT,
  TEMPLATE_LANGUAGES,
  componentValues,
  extractVariables,
  nextVariableNumber,
  normaliseTemplateName,
  renderButtonUrl,
  renderTemplateText,
  sampleExampleFor,
  templateApiFields,
  templateStatusLabel,
  templateVariableList,
  variableKeyLabel,
} from './templates';

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

describe('variables keyed by component', () => {
  const sources = { headerText: 'Offer for {{1}}', bodyText: 'Namaste {{1}}, order {{2}}', buttons: [{ url: null }, { url: 'https://shop.example/{{1}}' }] };

  it('lists the header, body and URL button variables under their own keys', () => {
    expect(templateVariableList(sources).map((v) => [v.key, v.label])).toEqual([
      ['header_1', 'Header {{1}}'],
      ['1', '{{1}}'],
      ['2', '{{2}}'],
      ['button_1_url', 'Button 2 link {{1}}'],
    ]);
    expect(templateApiFields(templateVariableList(sources)).map((f) => f.field)).toEqual(['header_var1', 'var1', 'var2', 'button_1_url']);
  });

  it('fills each component with its own values, falling back to the shared name of values stored before', () => {
    const values = { '1': 'Meena', header_1: 'Diwali', button_1_url: 'meena-offer' };
    expect(renderTemplateText('Offer for {{1}}', componentValues(values, 'header'))).toBe('Offer for Diwali');
    expect(renderTemplateText('Namaste {{1}}', componentValues(values, 'body'))).toBe('Namaste Meena');
    expect(renderButtonUrl('https://shop.example/{{1}}', values, 1)).toBe('https://shop.example/meena-offer');
    expect(renderButtonUrl('https://shop.example/{{1}}', { '1': 'old' }, 1)).toBe('https://shop.example/old');
    expect(variableKeyLabel('button_1_url')).toBe('Button 2 link');
  });
});

describe('TEMPLATE_LANGUAGES', () => {
  it("lists each of Meta's codes once: the spec's seven, the ten Indian languages, then the rest by name", () => {
    const codes = TEMPLATE_LANGUAGES.map((l) => l.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.slice(SPEC_TEMPLATE_LANGUAGE_COUNT, SPEC_TEMPLATE_LANGUAGE_COUNT + INDIAN_TEMPLATE_LANGUAGE_COUNT)).toEqual(['hi', 'bn', 'gu', 'kn', 'ml', 'mr', 'pa', 'ta', 'te', 'ur']);
    const rest = TEMPLATE_LANGUAGES.slice(SPEC_TEMPLATE_LANGUAGE_COUNT + INDIAN_TEMPLATE_LANGUAGE_COUNT).map((l) => l.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    // Meta's "Supported languages" for message templates, as its developer page lists them.
    const meta = 'af sq ar az bn bg ca zh_CN zh_HK zh_TW hr cs da nl en en_GB en_US et fil fi fr ka de el gu ha he hi hu id ga it ja kn kk rw_RW ko ky_KG lo lv lt mk ms ml mr nb fa pl pt_BR pt_PT pa ro ru sr sk sl es es_AR es_ES es_MX sw sv ta te th tr uk ur uz vi zu'.split(' ');
    expect([...codes].sort()).toEqual([...meta, 'fr_FR', 'de_DE', 'hi_IN'].sort());
  });
});
