import { describe, expect, it } from 'vitest';
import { applyEdit, emptyTemplateForm, newButton, type BuilderEdit, type TemplateForm } from './templateBuilder';
import { formPreview } from './templateBuilderPreview';

/** A person's steps on the builder: an edit, or Add Button as the page's field array appends it. */
type Step = BuilderEdit | { type: 'addButton' };

function step(form: TemplateForm, next: Step): TemplateForm {
  if (next.type !== 'addButton') return applyEdit(form, next);
  const row = newButton(form);
  return row ? { ...form, buttons: [...form.buttons, row], nextButtonKey: row.key + 1 } : form;
}

function form(steps: Step[]) {
  return steps.reduce(step, emptyTemplateForm());
}

describe('formPreview', () => {
  it('fills the examples into header, body and buttons', () => {
    const preview = formPreview(
      form([
        { type: 'setHeaderType', value: 'text' },
        { type: 'setHeaderText', value: 'Hi {{1}}' },
        { type: 'setBodyText', value: 'Order {{2}} ships' },
        { type: 'addButton' },
        { type: 'updateButton', index: 0, patch: { type: 'URL', text: 'Track', url: 'https://x.in/{{2}}' } },
        { type: 'set', field: 'footerText', value: 'Thanks' },
      ]),
    );
    expect(preview).toEqual({
      header: { kind: 'text', text: 'Hi Rahul' },
      body: 'Order ORD-10234 ships',
      footer: 'Thanks',
      buttons: [{ type: 'URL', text: 'Track', target: 'https://x.in/ORD-10234' }],
    });
  });

  it('names a button without text by its type', () => {
    const preview = formPreview(form([{ type: 'setBodyText', value: 'Hi' }, { type: 'addButton' }]));
    expect(preview.buttons).toEqual([{ type: 'QUICK_REPLY', text: 'Quick Reply', target: null }]);
  });

  it('keeps a token whose example was emptied', () => {
    const preview = formPreview(form([{ type: 'setBodyText', value: 'Hi {{1}}' }, { type: 'setExample', variable: '1', value: ' ' }]));
    expect(preview.body).toBe('Hi {{1}}');
  });

  it('shows a media header by the chosen file name', () => {
    const file = new File(['x'], 'sale.png', { type: 'image/png' });
    const preview = formPreview(form([{ type: 'setHeaderType', value: 'image' }, { type: 'setHeaderFile', file }]));
    expect(preview.header).toEqual({ kind: 'media', format: 'IMAGE', url: null, name: 'sale.png' });
  });

  it('writes an authentication message from its options', () => {
    const preview = formPreview(
      form([
        { type: 'setCategory', value: 'AUTHENTICATION' },
        { type: 'set', field: 'codeExpirationMinutes', value: '5' },
        { type: 'set', field: 'otpButtonText', value: 'Copy it' },
      ]),
    );
    expect(preview).toEqual({
      header: null,
      body: '123456 is your verification code. For your security, do not share this code.',
      footer: 'This code expires in 5 minutes.',
      buttons: [{ type: 'OTP', text: 'Copy it', target: null }],
    });
    const noExpiry = formPreview(form([{ type: 'setCategory', value: 'AUTHENTICATION' }, { type: 'set', field: 'codeExpirationMinutes', value: '' }]));
    expect(noExpiry.footer).toBeNull();
  });
});
