import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZUpdateUserRequest } from '@shared/schemas/admin';
import { basicInfoFormFrom, buildBasicInfoPayload, changedBasicFields, validatePasswordChange } from './adminUserForms';
import { validateForm } from './forms';

const v = messages.validation;

const user = { name: 'Asha Rao', email: 'asha@example.in', username: 'asha_rao', phoneNumber: null, role: 'user' as const };

describe('basic information form', () => {
  const saved = basicInfoFormFrom(user);

  it('starts from the user, a missing phone as an empty input', () => {
    expect(saved).toEqual({ ...user, phoneNumber: '' });
  });

  it('sends nothing when nothing was edited', () => {
    expect(changedBasicFields(saved, { ...saved })).toEqual([]);
    expect(buildBasicInfoPayload(saved, { ...saved })).toEqual({});
  });

  it('sends only the edited fields, so an old stored value does not block a save', () => {
    const legacy = { ...saved, email: 'admin@localhost' };
    const payload = buildBasicInfoPayload(legacy, { ...legacy, name: 'Asha R.', role: 'admin' });
    expect(payload).toEqual({ name: 'Asha R.', role: 'admin' });
    expect(validateForm(ZUpdateUserRequest, payload)).toEqual({ ok: true, data: { name: 'Asha R.', role: 'admin' } });
  });

  it('clears the phone when its input is emptied', () => {
    const withPhone = { ...saved, phoneNumber: '919876543210' };
    const payload = buildBasicInfoPayload(withPhone, { ...withPhone, phoneNumber: '' });
    expect(validateForm(ZUpdateUserRequest, payload)).toEqual({ ok: true, data: { phoneNumber: null } });
  });

  it('shows the spec messages for emptied and malformed fields', () => {
    const form = { ...saved, name: ' ', email: 'asha@', username: '', phoneNumber: '98x' };
    const result = validateForm(ZUpdateUserRequest, buildBasicInfoPayload(saved, form));
    expect(result).toEqual({
      ok: false,
      errors: {
        name: v.nameRequired,
        email: v.emailInvalidAdmin,
        username: v.usernameRequired,
        phoneNumber: v.whatsappNumberInvalid,
      },
    });
    const noEmail = validateForm(ZUpdateUserRequest, buildBasicInfoPayload(saved, { ...saved, email: '' }));
    expect(noEmail).toEqual({ ok: false, errors: { email: messages.adminUser.emailRequired } });
  });
});

describe('validatePasswordChange', () => {
  it('requires both fields, naming the empty one', () => {
    expect(validatePasswordChange({ newPassword: '', confirmPassword: '' })).toEqual({
      ok: false,
      errors: { newPassword: v.bothPasswordsRequired },
    });
    expect(validatePasswordChange({ newPassword: 'secret1', confirmPassword: '' })).toEqual({
      ok: false,
      errors: { confirmPassword: v.bothPasswordsRequired },
    });
  });

  it('checks the length before the match', () => {
    expect(validatePasswordChange({ newPassword: 'abc', confirmPassword: 'xyz' })).toEqual({
      ok: false,
      errors: { newPassword: v.passwordMin },
    });
  });

  it('refuses passwords that differ', () => {
    expect(validatePasswordChange({ newPassword: 'secret1', confirmPassword: 'secret2' })).toEqual({
      ok: false,
      errors: { confirmPassword: v.passwordsDoNotMatch },
    });
  });

  it('accepts two equal passwords of 6 or more characters', () => {
    expect(validatePasswordChange({ newPassword: 'secret1', confirmPassword: 'secret1' })).toEqual({
      ok: true,
      data: { newPassword: 'secret1' },
    });
  });
});
