import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { applyEdit, emptyTemplateForm, newButton, type BuilderEdit, type TemplateForm } from './templateBuilder';
import { buildAuthenticationRequest, buildTemplateRequest, buttonErrorField, templateFormData, validateTemplateForm } from './templatePayload';

const t = messages.templates;

/** A person's steps on the builder: an edit, or Add Button as the page's field array appends it. */
type Step = BuilderEdit | { type: 'addButton' };

function step(form: TemplateForm, next: Step): TemplateForm {
  if (next.type !== 'addButton') return applyEdit(form, next);
  const row = newButton(form);
  return row ? { ...form, buttons: [...form.buttons, row], nextButtonKey: row.key + 1 } : form;
}

function form(steps: Step[], start: TemplateForm = emptyTemplateForm()): TemplateForm {
  return steps.reduce(step, start);
}

const valid = form([
  { type: 'setName', value: 'order_update' },
  { type: 'setBodyText', value: 'Hi {{1}}, order {{2}} shipped ' },
  { type: 'set', field: 'footerText', value: ' Thanks ' },
]);

describe('buildTemplateRequest', () => {
  it('sends the examples of the variables in use only, and trimmed texts', () => {
    const request = buildTemplateRequest({ ...valid, variableExamples: { '1': 'Asha', '2': 'A-1', '9': 'old' } }, false);
    expect(request).toMatchObject({
      name: 'order_update',
      category: 'MARKETING',
      language: 'en_US',
      headerType: 'none',
      headerText: '',
      bodyText: 'Hi {{1}}, order {{2}} shipped',
      footerText: 'Thanks',
      buttons: [],
      variableExamples: { '1': 'Asha', '2': 'A-1' },
      submit_to_whatsapp: false,
    });
  });

  it('sends only the field that belongs to each button type', () => {
    const withButtons = form(
      [
        { type: 'addButton' },
        { type: 'updateButton', index: 0, patch: { type: 'URL', text: 'Site', url: 'https://x.in', phone_number: '123' } },
        { type: 'addButton' },
        { type: 'updateButton', index: 1, patch: { type: 'QUICK_REPLY', text: 'Yes', url: 'https://left.behind' } },
      ],
      valid,
    );
    expect(buildTemplateRequest(withButtons, true).buttons).toEqual([
      { type: 'URL', text: 'Site', url: 'https://x.in' },
      { type: 'QUICK_REPLY', text: 'Yes' },
    ]);
  });

  it('leaves header text out unless the header is text', () => {
    const imageHeader = { ...valid, headerType: 'image' as const, headerText: 'stale' };
    expect(buildTemplateRequest(imageHeader, false).headerText).toBe('');
  });
});

describe('validateTemplateForm', () => {
  it('passes a valid draft and keeps the submit flag', () => {
    const result = validateTemplateForm(valid, true);
    expect(result.ok).toBe(true);
    if (result.ok && result.submission.kind === 'standard') expect(result.submission.request.submit_to_whatsapp).toBe(true);
  });

  it('reports every problem at once, in screen order, joined by commas', () => {
    const broken = form([
      { type: 'setHeaderType', value: 'text' },
      { type: 'addButton' },
      { type: 'addButton' },
      { type: 'updateButton', index: 0, patch: { text: 'Go' } },
      { type: 'updateButton', index: 1, patch: { type: 'URL', text: 'Site', url: 'ftp://x' } },
    ]);
    const result = validateTemplateForm(broken, false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      name: t.nameInvalid,
      headerText: t.headerTextRequired,
      bodyText: t.bodyRequired,
      'buttons.1': 'Invalid URL format in button 2',
    });
    expect(result.summary).toBe([t.nameInvalid, t.headerTextRequired, t.bodyRequired, 'Invalid URL format in button 2'].join(', '));
  });

  it('needs a header file for a media header, and checks the one chosen', () => {
    const imageHeader = form([{ type: 'setHeaderType', value: 'image' }], valid);
    const missing = validateTemplateForm(imageHeader, false);
    expect(missing.ok || missing.errors).toEqual({ headerMedia: t.headerMediaRequired });

    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    const tooBig = validateTemplateForm(applyEdit(imageHeader, { type: 'setHeaderFile', file: big }), false);
    expect(tooBig.ok || tooBig.summary).toBe('File size must be less than 5MB');

    const ok = new File(['png'], 'ok.png', { type: 'image/png' });
    const result = validateTemplateForm(applyEdit(imageHeader, { type: 'setHeaderFile', file: ok }), false);
    expect(result.ok && result.submission.kind === 'standard' && result.submission.file).toBe(ok);
  });

  it('accepts a media header kept from the stored template', () => {
    const kept = { ...valid, headerType: 'image' as const, storedHeader: { type: 'image' as const, name: 'a.png', url: '/api/templates/1/media' } };
    const result = validateTemplateForm(kept, false);
    expect(result.ok && result.submission.kind === 'standard' && result.submission.file).toBeNull();
  });

  it('validates an authentication template with its own schema', () => {
    const auth = form([{ type: 'setName', value: 'login_code' }, { type: 'setCategory', value: 'AUTHENTICATION' }]);
    const result = validateTemplateForm(auth, true);
    expect(result.ok && result.submission).toEqual({
      kind: 'authentication',
      request: {
        name: 'login_code',
        language: 'en_US',
        otp_type: 'COPY_CODE',
        otp_button_text: 'Copy Code',
        code_expiration_minutes: 10,
        add_security_recommendation: true,
        allow_category_change: false,
      },
    });
    const bad = validateTemplateForm({ ...auth, codeExpirationMinutes: '91', otpButtonText: 'x'.repeat(26) }, true);
    expect(bad.ok || bad.errors).toEqual({ otp_button_text: t.otpButtonTextTooLong, code_expiration_minutes: t.codeExpiryInvalid });
  });
});

describe('buildAuthenticationRequest', () => {
  it('always sends allow_category_change false', () => {
    expect(buildAuthenticationRequest(emptyTemplateForm()).allow_category_change).toBe(false);
  });
});

describe('templateFormData', () => {
  it('carries lists and maps as JSON and the flag as text', () => {
    const withButton = form([{ type: 'addButton' }, { type: 'updateButton', index: 0, patch: { text: 'Yes' } }], valid);
    const result = validateTemplateForm(withButton, true);
    if (!result.ok || result.submission.kind !== 'standard') throw new Error('expected a valid form');
    const body = templateFormData(result.submission.request, null);
    expect(Object.fromEntries(body.entries())).toEqual({
      name: 'order_update',
      category: 'MARKETING',
      language: 'en_US',
      headerType: 'none',
      headerText: '',
      bodyText: 'Hi {{1}}, order {{2}} shipped',
      footerText: 'Thanks',
      buttons: JSON.stringify([{ type: 'QUICK_REPLY', text: 'Yes' }]),
      variableExamples: JSON.stringify({ '1': 'Rahul', '2': 'ORD-10234' }),
      submit_to_whatsapp: 'true',
    });
  });

  it('attaches the header file for a media header only', () => {
    const file = new File(['png'], 'sale.png', { type: 'image/png' });
    const imageForm = form([{ type: 'setHeaderType', value: 'image' }, { type: 'setHeaderFile', file }], valid);
    const result = validateTemplateForm(imageForm, false);
    if (!result.ok || result.submission.kind !== 'standard') throw new Error('expected a valid form');
    const body = templateFormData(result.submission.request, result.submission.file);
    expect((body.get('headerMedia') as File).name).toBe('sale.png');
    expect(body.get('headerType')).toBe('image');
    expect(templateFormData({ ...result.submission.request, headerType: 'none' }, file).has('headerMedia')).toBe(false);
  });
});

describe('buttonErrorField', () => {
  it('points each button message at its input', () => {
    expect(buttonErrorField('Invalid URL format in button 2', 1)).toBe('url');
    expect(buttonErrorField('Invalid phone number format in button 1', 0)).toBe('phone_number');
    expect(buttonErrorField('Button 3 must have text', 2)).toBe('text');
  });
});
