import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZCreateUserRequest } from '@shared/schemas/admin';
import { ZUpdateProfileRequest } from '@shared/schemas/auth';
import { zodIssuesToFieldErrors } from '@shared/schemas/common';
import { basicInfoFormFrom, basicInfoFormSchema, ZPasswordChangeForm } from '../../lib/adminUserForms';
import { parseCreditInput } from '../../lib/adminUsers';
import { ZUserPricingForm } from '../../lib/pricingForm';
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
});
