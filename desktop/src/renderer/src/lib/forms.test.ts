import { describe, expect, it } from 'vitest';
import { ZLoginRequest, ZResetPasswordForm, ZSignupRequest } from '@shared/schemas/auth';
import { validateForm, withoutField } from './forms';

describe('validateForm', () => {
  it('returns the parsed data when the form is valid', () => {
    expect(validateForm(ZLoginRequest, { username: ' asha ', password: 'x' })).toEqual({
      ok: true,
      data: { username: 'asha', password: 'x' },
    });
  });

  it('returns the first message of each field with the spec texts', () => {
    const result = validateForm(ZLoginRequest, { username: '', password: '' });
    expect(result).toEqual({
      ok: false,
      errors: { username: 'Username is required', password: 'Password is required' },
    });
  });

  it('reports a signup confirmation mismatch and a bad phone on their fields', () => {
    const result = validateForm(ZSignupRequest, {
      name: 'Asha',
      email: 'asha@example.in',
      username: 'asha',
      password: 'secret1',
      confirmPassword: 'secret2',
      phoneNumber: '09876543210',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.phoneNumber).toBe(
        'Please enter phone number as: country code + number (e.g., 919876543210)',
      );
    }
    const mismatch = validateForm(ZSignupRequest, {
      name: 'Asha',
      email: 'asha@example.in',
      username: 'asha',
      password: 'secret1',
      confirmPassword: 'secret2',
      phoneNumber: '',
    });
    expect(mismatch).toEqual({ ok: false, errors: { confirmPassword: 'Passwords do not match' } });
  });

  it('checks the reset form in the spec order', () => {
    expect(validateForm(ZResetPasswordForm, { newPassword: '', confirmPassword: '' })).toEqual({
      ok: false,
      errors: { newPassword: 'Both password fields are required' },
    });
    expect(validateForm(ZResetPasswordForm, { newPassword: 'abc', confirmPassword: 'abc' })).toEqual({
      ok: false,
      errors: { newPassword: 'Password must be at least 6 characters long' },
    });
  });
});

describe('withoutField', () => {
  it('drops only the edited field and keeps the object when nothing changes', () => {
    const errors = { a: 'x', b: 'y' };
    expect(withoutField(errors, 'a')).toEqual({ b: 'y' });
    expect(withoutField(errors, 'c')).toBe(errors);
  });
});
