import { describe, expect, it } from 'vitest';
import { importMetaComponents } from './metaComponents';

describe('importMetaComponents', () => {
  it('reads a named-variable template with an image header, footer and buttons as Meta lists it', () => {
    const result = importMetaComponents(
      [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.whatsapp.net/v/t61/abc'] } },
        {
          type: 'BODY',
          text: 'Your reservation for {{number_of_guests}} on {{day}} is confirmed.',
          example: { body_text_named_params: [{ param_name: 'number_of_guests', example: '4' }, { param_name: 'day', example: 'Saturday' }] },
        },
        { type: 'FOOTER', text: 'Lucky Shrub Eatery' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Change it', url: 'https://example.com/r/{{1}}', example: ['https://example.com/r/ABC123'] },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+16467043595' },
            { type: 'QUICK_REPLY', text: 'Cancel' },
          ],
        },
      ],
      'UTILITY',
    );
    expect(result).toEqual({
      ok: true,
      headerType: 'image',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Your reservation for {{number_of_guests}} on {{day}} is confirmed.' },
        { type: 'FOOTER', text: 'Lucky Shrub Eatery' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Change it', url: 'https://example.com/r/{{1}}' },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+16467043595' },
            { type: 'QUICK_REPLY', text: 'Cancel' },
          ],
        },
      ],
      variableExamples: { day: 'Saturday', number_of_guests: '4', button_0_url: 'ABC123' },
    });
  });

  it('reads positional variables of a text header and body, filling a missing example with the sample', () => {
    const result = importMetaComponents(
      [
        { type: 'HEADER', format: 'TEXT', text: 'Act fast, {{1}}!', example: { header_text: ['Pablo'] } },
        { type: 'BODY', text: 'Code {{1}} expires in {{2}} days, {{3}}.', example: { body_text: [['SUMMER20', '10']] } },
      ],
      'MARKETING',
    );
    expect(result).toMatchObject({
      ok: true,
      headerType: 'text',
      variableExamples: { header_1: 'Pablo', '1': 'SUMMER20', '2': '10', '3': '25 Dec 2025' },
    });
  });

  it('reads an authentication template, its code button listed as OTP or as a URL with otp_type', () => {
    for (const button of [
      { type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' },
      { type: 'URL', text: 'Copy code', url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code_expiration_minutes=10&code=otp{{1}}' },
    ]) {
      const result = importMetaComponents(
        [
          { type: 'BODY', text: '*{{1}}* is your verification code.', add_security_recommendation: true, example: { body_text: [['123456']] } },
          { type: 'FOOTER', code_expiration_minutes: 10 },
          { type: 'BUTTONS', buttons: [button] },
        ],
        'AUTHENTICATION',
      );
      expect(result).toMatchObject({
        ok: true,
        components: [
          { type: 'BODY', add_security_recommendation: true },
          { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
        ],
        variableExamples: { '1': '123456' },
      });
    }
  });

  it.each([
    [[{ type: 'HEADER', format: 'LOCATION' }, { type: 'BODY', text: 'Here' }], 'a location header'],
    [[{ type: 'BODY', text: 'Hi' }, { type: 'CAROUSEL', cards: [] }], 'a carousel component'],
    [[{ type: 'BODY', text: 'Hi' }, { type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Open' }] }], 'a flow button'],
    [[{ type: 'BODY', text: 'Hi' }, { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SAVE' }] }], 'a copy_code button'],
    [[{ type: 'HEADER', format: 'TEXT', text: 'Only a header' }], 'no body'],
  ])('refuses what Sandesh cannot send (%#) with the reason', (components, reason) => {
    expect(importMetaComponents(components, 'MARKETING')).toEqual({ ok: false, reason });
  });
});
