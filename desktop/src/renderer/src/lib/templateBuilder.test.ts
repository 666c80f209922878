import { describe, expect, it } from 'vitest';
import type { TTemplate } from '@shared/types';
import {
  appendVariable,
  applyEdit,
  editedFields,
  emptyTemplateForm,
  formVariables,
  keepsStoredHeader,
  newButton,
  templateFormFrom,
  type BuilderEdit,
  type TemplateForm,
} from './templateBuilder';

/** A person's steps on the builder: an edit, or Add Button as the page's field array appends it. */
type Step = BuilderEdit | { type: 'addButton' };

function step(form: TemplateForm, next: Step): TemplateForm {
  if (next.type !== 'addButton') return applyEdit(form, next);
  const row = newButton(form);
  return row ? { ...form, buttons: [...form.buttons, row], nextButtonKey: row.key + 1 } : form;
}

function run(steps: Step[], start: TemplateForm = emptyTemplateForm()): TemplateForm {
  return steps.reduce(step, start);
}

function stored(overrides: Partial<TTemplate> = {}): TTemplate {
  return {
    id: 7,
    name: 'order_update',
    category: 'UTILITY',
    language: 'en_GB',
    status: 'REJECTED',
    inMetaReview: false,
    metaSubmittedAt: null,
    metaSubmitError: null,
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
      { type: 'BODY', text: 'Order {{2}} ships today' },
      { type: 'FOOTER', text: 'Sandesh Store' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Track', url: 'https://x.in/{{2}}' },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+91 98765 43210' },
        ],
      },
    ],
    variables: ['1', '2'],
    variableExamples: { '1': 'Asha', '2': 'A-1' },
    headerType: 'text',
    headerMediaUrl: null,
    headerMediaName: null,
    qualityRating: null,
    rejectionReason: 'Too promotional',
    createdAt: '2025-03-05T10:00:00.000Z',
    updatedAt: '2025-03-05T10:00:00.000Z',
    submittedAt: null,
    ...overrides,
  };
}

describe('a new template form', () => {
  it('starts as a marketing template in en_US with a 10 minute code expiry', () => {
    const form = emptyTemplateForm();
    expect(form).toMatchObject({ category: 'MARKETING', language: 'en_US', headerType: 'none', codeExpirationMinutes: '10', buttons: [] });
  });
});

describe('the builder\'s edits', () => {
  it('normalises the name as it is typed', () => {
    expect(run([{ type: 'setName', value: 'Diwali Sale-2025' }]).name).toBe('diwali_sale_2025');
  });

  it('appends the next numbered variable with a default example on Add Variable', () => {
    const form = run([{ type: 'setBodyText', value: 'Hello' }, { type: 'addVariable' }, { type: 'addVariable' }]);
    expect(form.bodyText).toBe('Hello {{1}} {{2}}');
    expect(form.variableExamples).toEqual({ '1': 'Rahul', '2': 'ORD-10234' });
  });

  it("numbers Add Variable after the body's variables (the header numbers its own)", () => {
    const form = run([
      { type: 'setHeaderType', value: 'text' },
      { type: 'setHeaderText', value: 'Hi {{3}}' },
      { type: 'setBodyText', value: 'Body {{1}}' },
      { type: 'addVariable' },
    ]);
    expect(form.bodyText).toBe('Body {{1}} {{2}}');
  });

  it('gives a typed variable a default example once and keeps an example the user cleared', () => {
    const typed = run([{ type: 'setBodyText', value: 'Hi {{1}}' }]);
    expect(typed.variableExamples).toEqual({ '1': 'Rahul' });
    const cleared = run([{ type: 'setExample', variable: '1', value: '' }, { type: 'setBodyText', value: 'Hi {{1}}!' }], typed);
    expect(cleared.variableExamples['1']).toBe('');
  });

  it('clears header, body, footer and buttons when the category becomes AUTHENTICATION', () => {
    const form = run([
      { type: 'setHeaderType', value: 'text' },
      { type: 'setHeaderText', value: 'Title' },
      { type: 'setBodyText', value: 'Hi {{1}}' },
      { type: 'set', field: 'footerText', value: 'Footer' },
      { type: 'addButton' },
      { type: 'setCategory', value: 'AUTHENTICATION' },
    ]);
    expect(form).toMatchObject({ category: 'AUTHENTICATION', headerType: 'none', headerText: '', bodyText: '', footerText: '', buttons: [], variableExamples: {} });
  });

  it('keeps the content when switching between marketing and utility', () => {
    const form = run([{ type: 'setBodyText', value: 'Hi' }, { type: 'setCategory', value: 'UTILITY' }]);
    expect(form).toMatchObject({ category: 'UTILITY', bodyText: 'Hi' });
  });

  it('adds buttons up to 10 with distinct keys and removes one from the middle', () => {
    const eleven = run(Array.from({ length: 11 }, () => ({ type: 'addButton' }) as const));
    expect(eleven.buttons).toHaveLength(10);
    expect(new Set(eleven.buttons.map((b) => b.key)).size).toBe(10);
    const removed = { ...eleven, buttons: eleven.buttons.filter((_, index) => index !== 1) };
    expect(removed.buttons.map((b) => b.key)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(step(removed, { type: 'addButton' }).buttons.at(-1)?.key).toBe(11);
  });

  it('updates one button and picks up variables in its URL', () => {
    const form = run([
      { type: 'addButton' },
      { type: 'updateButton', index: 0, patch: { type: 'URL', text: 'Track', url: 'https://x.in/{{1}}' } },
    ]);
    expect(form.buttons[0]).toMatchObject({ type: 'URL', text: 'Track', url: 'https://x.in/{{1}}' });
    // The URL's {{1}} is the button's own variable, apart from a body {{1}}.
    expect(form.variableExamples).toEqual({ button_0_url: 'Rahul' });
  });

  it('adds one "Stop promotions" quick reply, marked as the opt-out, and only while there is room', () => {
    const marked = newButton(emptyTemplateForm(), true);
    expect(marked).toMatchObject({ type: 'QUICK_REPLY', text: 'Stop promotions', optOut: true, key: 1 });
    const withMark = { ...emptyTemplateForm(), buttons: marked ? [marked] : [], nextButtonKey: 2 };
    expect(newButton(withMark, true)).toBeNull();
    expect(newButton(withMark)).toMatchObject({ key: 2, text: '' });
    const full = run(Array.from({ length: 10 }, () => ({ type: 'addButton' }) as const));
    expect(newButton(full)).toBeNull();
  });

  it('says only what an edit changes, so the form writes no more than that', () => {
    const form = run([{ type: 'setBodyText', value: 'Hi' }]);
    expect(editedFields(form, { type: 'setCategory', value: 'MARKETING' })).toEqual({});
    expect(editedFields(form, { type: 'setBodyText', value: 'Hi {{1}}' })).toEqual({ bodyText: 'Hi {{1}}', variableExamples: { '1': 'Rahul' } });
  });

  it('drops a chosen file when the header type changes', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const form = run([{ type: 'setHeaderType', value: 'image' }, { type: 'setHeaderFile', file }, { type: 'setHeaderType', value: 'video' }]);
    expect(form.headerFile).toBeNull();
  });
});

describe('formVariables', () => {
  it('counts header text only for a text header', () => {
    const base = { ...emptyTemplateForm(), headerText: 'Hi {{5}}', bodyText: '{{1}}' };
    expect(formVariables({ ...base, headerType: 'text' })).toEqual(['header_5', '1']);
    expect(formVariables({ ...base, headerType: 'image' })).toEqual(['1']);
  });
});

describe('appendVariable', () => {
  it('separates the token from text before it by one space', () => {
    expect(appendVariable('', 1)).toBe('{{1}}');
    expect(appendVariable('Hi', 2)).toBe('Hi {{2}}');
    expect(appendVariable('Hi\n', 3)).toBe('Hi\n{{3}}');
  });
});

describe('templateFormFrom', () => {
  it('fills the form from a stored template', () => {
    const form = templateFormFrom(stored());
    expect(form).toMatchObject({
      name: 'order_update',
      category: 'UTILITY',
      language: 'en_GB',
      headerType: 'text',
      headerText: 'Hi {{1}}',
      bodyText: 'Order {{2}} ships today',
      footerText: 'Sandesh Store',
      variableExamples: { '1': 'Asha', '2': 'A-1' },
      storedHeader: null,
    });
    expect(form.buttons.map(({ type, text, url, phone_number }) => ({ type, text, url, phone_number }))).toEqual([
      { type: 'URL', text: 'Track', url: 'https://x.in/{{2}}', phone_number: '' },
      { type: 'PHONE_NUMBER', text: 'Call', url: '', phone_number: '+91 98765 43210' },
    ]);
    expect(form.nextButtonKey).toBe(3);
  });

  it('remembers a stored header file, which counts while its type stays chosen', () => {
    const form = templateFormFrom(
      stored({
        headerType: 'image',
        headerMediaUrl: '/api/templates/7/media',
        headerMediaName: 'sale.png',
        components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Sale' }],
      }),
    );
    expect(form.storedHeader).toEqual({ type: 'image', name: 'sale.png', url: '/api/templates/7/media' });
    expect(keepsStoredHeader(form)).toBe(true);
    expect(keepsStoredHeader(applyEdit(form, { type: 'setHeaderType', value: 'video' }))).toBe(false);
    const file = new File(['x'], 'new.png', { type: 'image/png' });
    expect(keepsStoredHeader(applyEdit(form, { type: 'setHeaderFile', file }))).toBe(false);
  });

  it('survives a template without components', () => {
    const form = templateFormFrom(stored({ components: undefined as unknown as TTemplate['components'], headerType: 'none' }));
    expect(form).toMatchObject({ bodyText: '', buttons: [], headerType: 'none' });
  });
});
