import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplate } from '@shared/types';
import { ZCreateUserRequest } from '@shared/schemas/admin';
import { ZUpdateProfileRequest } from '@shared/schemas/auth';
import { zodIssuesToFieldErrors } from '@shared/schemas/common';
import { basicInfoFormFrom, basicInfoFormSchema, ZPasswordChangeForm } from '../../lib/adminUserForms';
import { parseCreditInput } from '../../lib/adminUsers';
import { ZApiConsoleForm } from '../../lib/apiConsole';
import { ZUserPricingForm } from '../../lib/pricingForm';
import { ZProviderSettingsForm } from '../../lib/providerSettingsForm';
import { emptyQuickSendForm, quickSendFormSchema, VARIABLES_LOADING, type QuickSendChecks } from '../../lib/sending/quickSendForm';
import { rescheduleFormSchema } from '../../lib/sending/schedule';
import { emptyTemplateForm, type TemplateForm } from '../../lib/templateBuilder';
import { templateBuilderFormSchema } from '../../lib/templateBuilderForm';
import { ZReplyForm } from '../../lib/replyForm';
import { ZAddSuppressionForm, ZOptOutKeywordsForm } from '../../lib/suppressionForms';
import { ZTopUpForm } from '../../lib/topupAmount';
import { textFieldsCheckedBy, textReadInto } from './useSchemaForm';

const v = messages.validation;

/** What react-hook-form hands a resolver when a form is submitted without native validation. */
function submitOptions<Values extends FieldValues>(): ResolverOptions<Values> {
  return { fields: {}, shouldUseNativeValidation: false };
}

describe('form schemas over the shared ones', () => {
  it('reads typed credits into the shared rule and keeps its message', () => {
    const credits = textReadInto(ZCreateUserRequest.shape.creditBalance, parseCreditInput);
    expect(credits.parse('1,00,000')).toBe(100_000);
    expect(credits.safeParse('-5').error?.issues[0]?.message).toBe(v.creditBalanceNegative);
  });

  it('checks text fields with a looser shared schema and sends its output', () => {
    const profile = textFieldsCheckedBy(['name', 'email', 'businessName', 'gstin'], ZUpdateProfileRequest);
    expect(profile.parse({ name: 'Asha Rao', email: 'Asha@Example.in', businessName: '', gstin: '' })).toEqual({
      name: 'Asha Rao',
      email: 'asha@example.in',
      businessName: null,
      gstin: null,
    });
    const failed = profile.safeParse({ name: '', email: 'asha', businessName: '', gstin: '' });
    expect(failed.success ? {} : zodIssuesToFieldErrors(failed.error)).toEqual({ name: v.nameRequired, email: v.emailInvalid });
  });

  it('gives react-hook-form one catalogue message per field, in the spec order of the admin password change', async () => {
    const resolve = zodResolver(ZPasswordChangeForm);
    const empty = await resolve({ newPassword: '', confirmPassword: '' }, undefined, submitOptions());
    expect(empty.errors.newPassword?.message).toBe(v.bothPasswordsRequired);
    const mismatch = await resolve({ newPassword: 'secret-1', confirmPassword: 'secret-2' }, undefined, submitOptions());
    expect(mismatch.errors).toEqual({ confirmPassword: expect.objectContaining({ message: v.passwordsDoNotMatch }) });
    const valid = await resolve({ newPassword: 'secret-1', confirmPassword: 'secret-1' }, undefined, submitOptions());
    expect(valid.values).toEqual({ newPassword: 'secret-1' });
  });

  it('sends only the edited basic fields and checks them with the server schema', async () => {
    const saved = basicInfoFormFrom({ name: 'Asha Rao', email: 'asha@example.in', username: 'asha_rao', phoneNumber: null, role: 'user' });
    const resolve = zodResolver(basicInfoFormSchema(saved));
    const edited = await resolve({ ...saved, name: 'Asha R.' }, undefined, submitOptions());
    expect(edited.values).toEqual({ name: 'Asha R.' });
    const emptied = await resolve({ ...saved, username: '' }, undefined, submitOptions());
    expect(emptied.errors.username?.message).toBe(v.usernameRequired);
  });

  it('puts a price message under its field and the "at least one price" message on the form', async () => {
    const resolve = zodResolver(ZUserPricingForm);
    const none = await resolve({ customEnabled: true, marketing: '', utility: '', authentication: '', service: '' }, undefined, submitOptions());
    expect(none.errors.root?.pricing?.message).toBe(messages.pricing.customPriceRequired);
    const negative = await resolve({ customEnabled: true, marketing: '-1', utility: '', authentication: '', service: '' }, undefined, submitOptions());
    expect(negative.errors.marketing?.message).toBe(messages.pricing.priceNegative);
    const off = await resolve({ customEnabled: false, marketing: 'x', utility: '', authentication: '', service: '' }, undefined, submitOptions());
    expect(off.values).toEqual({ mode: 'default' });
  });

  it('sends the provider payload with the key left out when none was typed, and names a short key', async () => {
    const resolve = zodResolver(ZProviderSettingsForm);
    const kept = await resolve({ channelId: ' channel-1 ', apiKey: '' }, undefined, submitOptions());
    expect(kept.values).toEqual({ channelId: 'channel-1' });
    const short = await resolve({ channelId: 'channel-1', apiKey: 'short' }, undefined, submitOptions());
    expect(short.errors).toEqual({ apiKey: expect.objectContaining({ message: messages.providers.apiKeyLength }) });
  });

  it('orders the typed amount when there is one, the preset otherwise, and puts a typed amount\'s message under it', async () => {
    const resolve = zodResolver(ZTopUpForm);
    const typed = await resolve({ preset: 500, custom: '1,00,000' }, undefined, submitOptions());
    expect(typed.values).toEqual({ amountCredits: 100_000 });
    const preset = await resolve({ preset: 500, custom: ' ' }, undefined, submitOptions());
    expect(preset.values).toEqual({ amountCredits: 500 });
    const over = await resolve({ preset: null, custom: '1,00,001' }, undefined, submitOptions());
    expect(over.errors.custom?.message).toBe(messages.wallet.amountMax);
  });

  it('checks the console recipient with the public API rule, without its plus sign', async () => {
    const resolve = zodResolver(ZApiConsoleForm);
    const sent = await resolve({ templateId: '', recipient: '+91 98765 43210', values: { var1: 'Asha' } }, undefined, submitOptions());
    expect(sent.values).toEqual({ templateId: '', recipient: '919876543210', values: { var1: 'Asha' } });
    const empty = await resolve({ templateId: '3', recipient: ' + ', values: {} }, undefined, submitOptions());
    expect(empty.errors.recipient?.message).toBe(messages.publicApi.missingFields);
  });

  it('turns a new IST time into the reschedule request and refuses one in the past', async () => {
    const now = new Date('2026-12-07T06:30:00Z');
    const resolve = zodResolver(rescheduleFormSchema(() => now));
    const later = await resolve({ schedule: { mode: 'later', local: '2026-12-08T10:30' } }, undefined, submitOptions());
    expect(later.values).toEqual({ scheduledAt: '2026-12-08T10:30:00+05:30' });
    const past = await resolve({ schedule: { mode: 'later', local: '2026-12-07T09:00' } }, undefined, submitOptions());
    expect(past.errors.schedule?.message).toBe(messages.schedule.tooSoon);
  });

  it('tells the first problem of a quick send, in the screen\'s order, and sends the values of the template\'s variables', async () => {
    const template = { name: 'order_update', category: 'UTILITY' } as TTemplate;
    const ready: QuickSendChecks = {
      count: 2,
      invalidTyped: 0,
      sheetColumn: '',
      details: { status: 'success', failure: '' },
      variables: [{ index: '1', placeholder: '{{1}}', required: true, value: '' }],
      needsImage: false,
      now: () => new Date('2026-12-07T06:30:00Z'),
    };
    const form = { ...emptyQuickSendForm(), numberId: '7', template, recipientsText: '919876543210' };
    const resolveWith = (checks: QuickSendChecks) => zodResolver(quickSendFormSchema(() => checks));
    const noNumber = await resolveWith(ready)({ ...form, numberId: '' }, undefined, submitOptions());
    expect(noNumber.errors.numberId?.message).toBe(messages.sending.missingFields);
    const noneValid = await resolveWith({ ...ready, count: 0, invalidTyped: 1 })(form, undefined, submitOptions());
    expect(noneValid.errors.recipientsText?.message).toBe(messages.sending.noValidRecipients);
    const loading = await resolveWith({ ...ready, details: { status: 'pending', failure: '' } })(form, undefined, submitOptions());
    expect(loading.errors.template?.message).toBe(VARIABLES_LOADING);
    const noImage = await resolveWith({ ...ready, needsImage: true })(form, undefined, submitOptions());
    expect(noImage.errors.image?.message).toBe(messages.sending.imageRequired);
    const missing = await resolveWith(ready)(form, undefined, submitOptions());
    expect(missing.errors.values?.message).toBe(fillMessage(messages.sending.variableMissing, { name: '1' }));
    const filled = await resolveWith(ready)({ ...form, values: { '1': 'Asha', stale: 'x' } }, undefined, submitOptions());
    expect(filled.values).toMatchObject({ template, variables: { '1': 'Asha' }, scheduledAt: undefined });
  });

  it("checks a suppressed number and the opt-out keywords with the server's rules", async () => {
    const add = zodResolver(ZAddSuppressionForm);
    const added = await add({ phone: '98765 43210', reason: ' Asked on a call ' }, undefined, submitOptions());
    expect(added.values).toEqual({ phone: '919876543210', reason: 'Asked on a call' });
    const short = await add({ phone: '12345', reason: '' }, undefined, submitOptions());
    expect(short.errors.phone?.message).toBe(messages.phone.invalid.too_short);
    const keywords = zodResolver(ZOptOutKeywordsForm);
    const lines = await keywords({ keywords: ' STOP \n\nunsubscribe\n' }, undefined, submitOptions());
    expect(lines.values).toEqual({ keywords: ['STOP', 'unsubscribe'] });
    const empty = await keywords({ keywords: '\n ' }, undefined, submitOptions());
    expect(empty.errors.keywords?.message).toBe(messages.suppressions.keywordsEmpty);
    const optIn = await keywords({ keywords: 'STOP\nSTART' }, undefined, submitOptions());
    expect(optIn.errors.keywords?.message).toBe(messages.suppressions.keywordIsOptIn);
  });

  it('sends a typed reply trimmed and asks for text when there is none', async () => {
    const reply = zodResolver(ZReplyForm);
    const sent = await reply({ text: '  It is ₹1,499.  ' }, undefined, submitOptions());
    expect(sent.values).toEqual({ text: 'It is ₹1,499.' });
    const blank = await reply({ text: '   ' }, undefined, submitOptions());
    expect(blank.errors.text?.message).toBe(messages.conversations.textRequired);
  });

  describe('the template builder', () => {
    const t = messages.templates;
    const filled: TemplateForm = {
      ...emptyTemplateForm(),
      name: 'order_update',
      bodyText: ' Hi {{1}}, order shipped ',
      variableExamples: { '1': 'Asha', '7': 'deleted since' },
      buttons: [
        { key: 1, type: 'QUICK_REPLY', text: 'Stop promotions', url: 'https://left.behind', phone_number: '', optOut: true },
        { key: 3, type: 'URL', text: 'Track', url: 'https://x.in/{{1}}', phone_number: '' },
      ],
      nextButtonKey: 4,
    };
    const resolveFor = (action: 'draft' | 'submit') => zodResolver(templateBuilderFormSchema(() => action === 'submit'));

    it('sends what the server validates, with the flag of the pressed button and the opt-out mark', async () => {
      const submitted = await resolveFor('submit')(filled, undefined, submitOptions<TemplateForm>());
      expect(submitted.values).toEqual({
        kind: 'standard',
        file: null,
        request: expect.objectContaining({
          name: 'order_update',
          bodyText: 'Hi {{1}}, order shipped',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Stop promotions', opt_out: true },
            { type: 'URL', text: 'Track', url: 'https://x.in/{{1}}' },
          ],
          variableExamples: { '1': 'Asha', button_1_url: '' },
          submit_to_whatsapp: true,
        }),
      });
      const draft = await resolveFor('draft')(filled, undefined, submitOptions<TemplateForm>());
      expect(draft.values).toMatchObject({ request: { submit_to_whatsapp: false } });
    });

    it("puts the request schema's messages under the builder's own fields and button rows", async () => {
      const broken: TemplateForm = {
        ...filled,
        name: '',
        headerType: 'image',
        buttons: [filled.buttons[0]!, { key: 3, type: 'URL', text: 'Site', url: 'ftp://x', phone_number: '' }],
      };
      const result = await resolveFor('draft')(broken, undefined, submitOptions<TemplateForm>());
      expect(result.errors.name?.message).toBe(t.nameInvalid);
      expect(result.errors.headerFile?.message).toBe(t.headerMediaRequired);
      expect(result.errors.buttons?.[1]?.message).toBe(fillMessage(t.buttonUrlInvalid, { n: 2 }));
      expect(result.errors.buttons?.[0]).toBeUndefined();
    });

    it('checks an authentication template with its own schema, under the option fields', async () => {
      const auth: TemplateForm = { ...emptyTemplateForm(), name: 'login_code', category: 'AUTHENTICATION', codeExpirationMinutes: '91' };
      const refused = await resolveFor('submit')(auth, undefined, submitOptions<TemplateForm>());
      expect(refused.errors.codeExpirationMinutes?.message).toBe(t.codeExpiryInvalid);
      const accepted = await resolveFor('submit')({ ...auth, codeExpirationMinutes: '10' }, undefined, submitOptions<TemplateForm>());
      expect(accepted.values).toMatchObject({ kind: 'authentication', request: { name: 'login_code', code_expiration_minutes: 10 } });
    });
  });
});
