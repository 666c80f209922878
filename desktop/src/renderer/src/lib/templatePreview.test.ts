import { describe, expect, it } from 'vitest';
import type { TTemplateComponent } from '@shared/types';
import { templatePreview, type TemplatePreviewSource } from './templatePreview';

function source(overrides: Partial<TemplatePreviewSource> & { components: TTemplateComponent[] }): TemplatePreviewSource {
  return { category: 'MARKETING', variableExamples: {}, headerMediaUrl: null, headerMediaName: null, ...overrides };
}

describe('templatePreview', () => {
  it('fills header, body and button URL examples and keeps the footer and buttons in order', () => {
    const preview = templatePreview(
      source({
        variableExamples: { '1': 'Rahul', '2': 'ORD-10234' },
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
          { type: 'BODY', text: 'Your order {{2}} ships today, {{1}}.' },
          { type: 'FOOTER', text: 'Sandesh Store' },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'URL', text: 'Track', url: 'https://example.com/track/{{2}}' },
              { type: 'QUICK_REPLY', text: 'Stop offers' },
              { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+91 98765 43210' },
            ],
          },
        ],
      }),
    );
    expect(preview).toEqual({
      header: { kind: 'text', text: 'Hello Rahul' },
      body: 'Your order ORD-10234 ships today, Rahul.',
      footer: 'Sandesh Store',
      buttons: [
        { type: 'URL', text: 'Track', target: 'https://example.com/track/ORD-10234' },
        { type: 'QUICK_REPLY', text: 'Stop offers', target: null },
        { type: 'PHONE_NUMBER', text: 'Call us', target: '+91 98765 43210' },
      ],
    });
  });

  it('leaves a variable without an example as its token', () => {
    const preview = templatePreview(source({ variableExamples: { '1': 'Rahul' }, components: [{ type: 'BODY', text: 'Hi {{1}}, code {{2}}' }] }));
    expect(preview.body).toBe('Hi Rahul, code {{2}}');
  });

  it('shows a media header with the file address the admin may fetch', () => {
    const preview = templatePreview(
      source({
        headerMediaUrl: '/api/templates/7/media',
        headerMediaName: 'diwali.png',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Sale!' },
        ],
      }),
    );
    expect(preview.header).toEqual({ kind: 'media', format: 'IMAGE', url: '/api/templates/7/media', name: 'diwali.png' });
  });

  it('has no header, footer or buttons when the components have none', () => {
    const preview = templatePreview(source({ components: [{ type: 'BODY', text: 'Plain' }, { type: 'HEADER', format: 'TEXT', text: '  ' }] }));
    expect(preview).toEqual({ header: null, body: 'Plain', footer: null, buttons: [] });
  });

  it('writes an authentication template from its flags in Meta wording', () => {
    const preview = templatePreview(
      source({
        category: 'AUTHENTICATION',
        components: [
          { type: 'BODY', add_security_recommendation: true },
          { type: 'FOOTER', code_expiration_minutes: 10 },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
        ],
      }),
    );
    expect(preview).toEqual({
      header: null,
      body: '123456 is your verification code. For your security, do not share this code.',
      footer: 'This code expires in 10 minutes.',
      buttons: [{ type: 'OTP', text: 'Copy code', target: null }],
    });
  });

  it('gives an authentication template without the security line, expiry or button the bare code and a Copy Code button', () => {
    const preview = templatePreview(source({ category: 'AUTHENTICATION', variableExamples: { '1': '482913' }, components: [{ type: 'BODY' }] }));
    expect(preview).toEqual({
      header: null,
      body: '482913 is your verification code.',
      footer: null,
      buttons: [{ type: 'OTP', text: 'Copy Code', target: null }],
    });
  });

  it('keeps an authentication body or footer text the server stored', () => {
    const preview = templatePreview(
      source({
        category: 'AUTHENTICATION',
        components: [
          { type: 'BODY', text: '{{1}} is your code.' },
          { type: 'FOOTER', text: 'Expires in 5 minutes.', code_expiration_minutes: 5 },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', text: '' }] },
        ],
      }),
    );
    expect(preview.body).toBe('123456 is your code.');
    expect(preview.footer).toBe('Expires in 5 minutes.');
    expect(preview.buttons).toEqual([{ type: 'OTP', text: 'Copy Code', target: null }]);
  });
});
