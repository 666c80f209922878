import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './dispatcher';
import { sendComponents, templateSendRequest } from './messageRequest';

describe('send-time components', () => {
  it('fills body variables positionally and named ones by parameter_name', () => {
    const components = sendComponents(
      { name: 'order', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} for {{city}}' }] },
      { '1': 'Asha', '2': 'A-1', city: 'Pune' },
      null,
    );
    expect(components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Asha' }, { type: 'text', text: 'A-1' }, { type: 'text', text: 'Pune', parameter_name: 'city' }] },
    ]);
  });

  it('sends the header image link, text header variables and URL button variables', () => {
    const image = sendComponents(
      {
        name: 'offer',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Sale' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }, { type: 'URL', text: 'Shop', url: 'https://x.example/{{1}}' }] },
        ],
      },
      { '1': 'p-9' },
      { type: 'image', link: 'https://app.example/media/campaigns/a.png' },
    );
    expect(image).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://app.example/media/campaigns/a.png' } }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'p-9' }] },
    ]);
    const text = sendComponents({ name: 't', language: 'en_US', category: 'UTILITY', components: [{ type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' }, { type: 'BODY', text: 'Body {{1}}' }] }, { '1': 'R' }, null);
    expect(text.map((c) => c.type)).toEqual(['header', 'body']);
  });

  it('keys variables by component: the header, body and URL button {{1}} are three values', () => {
    const template = {
      name: 'offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER' as const, format: 'TEXT' as const, text: 'Offer for {{1}}' },
        { type: 'BODY' as const, text: 'Namaste {{1}}!' },
        { type: 'BUTTONS' as const, buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example/{{1}}' }] },
      ],
    };
    expect(sendComponents(template, { '1': 'Meena', header_1: 'Diwali', button_0_url: 'meena-offer' }, null)).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Diwali' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Meena' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'meena-offer' }] },
    ]);
    // Values stored before keying (one shared namespace) still fill every component.
    expect(sendComponents(template, { '1': 'Meena' }, null).flatMap((c) => c.parameters.map((p) => ('text' in p ? p.text : '')))).toEqual(['Meena', 'Meena', 'Meena']);
  });

  it('puts the code in the body and the copy-code button of authentication templates', () => {
    const request = templateSendRequest({
      phoneNumberId: 'p',
      to: '919800000001',
      template: { name: 'otp', language: 'en_US', category: 'AUTHENTICATION', components: [{ type: 'BODY', text: '{{1}} is your code' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', text: 'Copy' }] }] },
      values: { '1': '123456' },
      headerMedia: null,
    });
    expect(request.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
    ]);
  });
});

describe('retry backoff', () => {
  it('doubles from one second with jitter and stops growing at a minute', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, () => 0.5)).toBe(2000);
    expect(retryDelayMs(4, () => 0)).toBe(6400);
    expect(retryDelayMs(20, () => 1)).toBe(72_000);
  });
});
