import { describe, expect, it } from 'vitest';
import type { TTemplateParam } from '@shared/apiKeys';
import { messages } from '@shared/messages';
import type { TTemplate } from '@shared/types';
import {
  API_KEY_PLACEHOLDER,
  buildSendPayload,
  buildSnippets,
  cleanRecipient,
  consoleParams,
  consolePreview,
  formatResponseBody,
  isSuccessStatus,
  keyRateLimitLabel,
  languageToSend,
  networkErrorResult,
  paramValue,
  publicApiBaseUrl,
} from './apiConsole';

const template: TTemplate = {
  id: 7,
  name: 'order_update',
  category: 'UTILITY',
  language: 'en_US',
  status: 'APPROVED',
  inMetaReview: false,
  metaSubmittedAt: null,
  metaSubmitError: null,
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Your order {{2}} ships today.' },
    { type: 'FOOTER', text: 'Thank you' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{3}}' }, { type: 'QUICK_REPLY', text: 'Stop' }] },
  ],
  variables: ['1', '2', '3'],
  variableExamples: { '1': 'Asha', '2': 'A-1', '3': 'A-1' },
  headerType: 'text',
  headerMediaUrl: null,
  headerMediaName: null,
  qualityRating: null,
  rejectionReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  submittedAt: null,
};

const params: TTemplateParam[] = [
  { name: 'var1', example: 'Asha', description: 'Value for {{1}}', required: true },
  { name: 'var2', example: 'A-1', description: 'Value for {{2}}', required: true },
  { name: 'var3', example: 'A-1', description: 'Value for {{3}}', required: true },
  { name: 'button_0_url', example: 'order-123', description: 'Dynamic part of the URL of button 1', required: true },
];

describe('cleanRecipient', () => {
  it('strips plus signs and spaces', () => {
    expect(cleanRecipient('+91 98765 43210')).toBe('919876543210');
    expect(cleanRecipient('++919876543210')).toBe('919876543210');
    expect(cleanRecipient('')).toBe('');
  });
});

describe('consoleParams', () => {
  it("uses the server's parameters when it sent them", () => {
    expect(consoleParams(template, params)).toEqual(params);
  });

  it('falls back to one varN per template variable, with its example', () => {
    expect(consoleParams(template, undefined).map((p) => [p.name, p.example])).toEqual([
      ['var1', 'Asha'],
      ['var2', 'A-1'],
      ['var3', 'A-1'],
    ]);
    expect(consoleParams(undefined, undefined)).toEqual([]);
  });
});

describe('paramValue', () => {
  it('shows the example until the field is typed in, and keeps a cleared field empty', () => {
    expect(paramValue(params[0]!, {})).toBe('Asha');
    expect(paramValue(params[0]!, { var1: 'Ravi' })).toBe('Ravi');
    expect(paramValue(params[0]!, { var1: '' })).toBe('');
  });
});

describe('buildSendPayload', () => {
  it('builds the documented body in order, with the cleaned recipient and without empty parameters', () => {
    const payload = buildSendPayload({
      username: 'asha_shop',
      templatename: 'order_update',
      recipient: '+91 98765 43210',
      params,
      values: { var2: 'ORD-9', var3: '  ' },
    });
    expect(payload).toEqual({ username: 'asha_shop', templatename: 'order_update', recipient_number: '919876543210', var1: 'Asha', var2: 'ORD-9', button_0_url: 'order-123' });
    expect(Object.keys(payload)).toEqual(['username', 'templatename', 'recipient_number', 'var1', 'var2', 'button_0_url']);
  });

  it('adds the language only when given', () => {
    expect(buildSendPayload({ username: 'u', templatename: 't', recipient: '1', params: [], values: {}, language: 'hi_IN' })).toMatchObject({ language: 'hi_IN' });
    expect(buildSendPayload({ username: 'u', templatename: 't', recipient: '1', params: [], values: {} })).not.toHaveProperty('language');
  });
});

describe('buildSnippets', () => {
  const payload = { username: 'asha_shop', templatename: 'order_update', recipient_number: '919876543210', var1: "Asha's" };

  it('builds a cURL command with the key as a bearer token and the body shell-quoted', () => {
    const { curl } = buildSnippets('https://api.example.in', 'snd_abc', payload);
    expect(curl).toContain("curl -X POST 'https://api.example.in/api/send'");
    expect(curl).toContain("-H 'Authorization: Bearer snd_abc'");
    expect(curl).toContain("-H 'Content-Type: application/json'");
    expect(curl).toContain('--max-time 30');
    expect(curl).toContain(`"var1": "Asha'\\''s"`);
  });

  it('builds JavaScript that sends the same JSON with a 30 s timeout', () => {
    const { javascript } = buildSnippets('https://api.example.in', 'snd_abc', payload);
    expect(javascript).toContain('fetch("https://api.example.in/api/send"');
    expect(javascript).toContain('Authorization: "Bearer snd_abc"');
    expect(javascript).toContain('"recipient_number": "919876543210"');
    expect(javascript).toContain('AbortSignal.timeout(30000)');
  });

  it('builds Python with requests and a 30 second timeout (spec 002 §9)', () => {
    const { python } = buildSnippets('https://api.example.in', 'snd_abc', payload);
    expect(python).toContain('import requests');
    expect(python).toContain('"https://api.example.in/api/send"');
    expect(python).toContain('headers={"Authorization": "Bearer snd_abc"}');
    expect(python).toContain('"templatename": "order_update"');
    expect(python).toContain('timeout=30,');
  });

  it('shows a placeholder until a key is entered', () => {
    const snippets = buildSnippets('https://api.example.in', '  ', payload);
    for (const code of Object.values(snippets)) expect(code).toContain(`Bearer ${API_KEY_PLACEHOLDER}`);
  });
});

describe('publicApiBaseUrl', () => {
  it("uses the desktop app's server, otherwise the page's origin, without a trailing slash", () => {
    expect(publicApiBaseUrl('http://10.0.0.5:3000/', 'app://sandesh')).toBe('http://10.0.0.5:3000');
    expect(publicApiBaseUrl('', 'https://sandesh.example.in')).toBe('https://sandesh.example.in');
  });
});

describe('results', () => {
  it("shows a network failure as status 500 with 'Network Error' (spec 002 §4)", () => {
    expect(networkErrorResult()).toEqual({ status: 500, body: { success: false, error: messages.publicApi.networkError } });
    expect(messages.publicApi.networkError).toBe('Network Error');
  });

  it('counts only 200 as success', () => {
    expect(isSuccessStatus(200)).toBe(true);
    expect(isSuccessStatus(201)).toBe(false);
    expect(isSuccessStatus(401)).toBe(false);
  });

  it('pretty-prints JSON bodies and keeps text as it came', () => {
    expect(formatResponseBody({ success: true })).toBe('{\n  "success": true\n}');
    expect(formatResponseBody('Bad Gateway')).toBe('Bad Gateway');
  });
});

describe('consolePreview', () => {
  it('fills the variables with the entered values and the button link with its URL value', () => {
    const preview = consolePreview(template, params, { var1: 'Ravi', var2: 'ORD-9', button_0_url: 'ord-9' });
    expect(preview.header).toEqual({ kind: 'text', text: 'Hello Ravi' });
    expect(preview.body).toBe('Your order ORD-9 ships today.');
    expect(preview.footer).toBe('Thank you');
    expect(preview.buttons).toEqual([
      { type: 'URL', text: 'Track', target: 'https://shop.example.in/t/ord-9' },
      { type: 'QUICK_REPLY', text: 'Stop', target: null },
    ]);
  });

  it('keeps the token of a value left empty', () => {
    expect(consolePreview(template, params, { var2: '' }).body).toBe('Your order {{2}} ships today.');
  });

  it('fills a header variable from header_var1 and the body\'s from var1, as the server reads them', () => {
    const withHeader: TTemplate = {
      ...template,
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Order {{1}} ships on {{2}}.' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{1}}' }] },
      ],
      variables: ['header_1', '1', '2', 'button_0_url'],
      variableExamples: {},
    };
    const fields = consoleParams(withHeader, undefined);
    expect(fields.map((field) => field.name)).toEqual(['header_var1', 'var1', 'var2', 'button_0_url']);
    const preview = consolePreview(withHeader, fields, { header_var1: 'Ravi', var1: 'ORD-9', var2: 'Monday', button_0_url: 'ord-9' });
    expect(preview.header).toEqual({ kind: 'text', text: 'Hello Ravi' });
    expect(preview.body).toBe('Order ORD-9 ships on Monday.');
    expect(preview.buttons[0]?.target).toBe('https://shop.example.in/t/ord-9');
  });
});

describe('languageToSend', () => {
  it('names the language only when the template name exists in several languages', () => {
    const list = [
      { name: 'order_update', language: 'en_US' },
      { name: 'order_update', language: 'hi_IN' },
      { name: 'welcome', language: 'en_US' },
    ];
    expect(languageToSend(list, list[1]!)).toBe('hi_IN');
    expect(languageToSend(list, list[2]!)).toBeUndefined();
  });
});

describe('keyRateLimitLabel', () => {
  it('shows the per-IP default or the key\'s own limit with Indian grouping', () => {
    expect(keyRateLimitLabel(null)).toBe('100/15min per IP address');
    expect(keyRateLimitLabel(250000)).toBe('2,50,000/15min for this key');
  });
});
