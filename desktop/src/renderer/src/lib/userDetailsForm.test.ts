import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TBusinessInfo } from '@shared/types';
import {
  buildBusinessInfoPayload,
  businessInfoFormFrom,
  isBusinessInfoChanged,
  isUserDetailsChanged,
  userDetailsFormFrom,
  validateDetailsSave,
  validateUserDetails,
} from './userDetailsForm';

const user = { name: 'Asha Rao', email: 'asha@example.in', username: 'asha_rao', phoneNumber: '919812345678', role: 'user' as const, creditBalance: 12.5 };

const info: TBusinessInfo = {
  id: 1,
  businessName: 'Rao Stores',
  whatsappNumber: '919812345678',
  whatsappNumberId: '1234567890',
  wabaId: 'waba-1',
  webhookUrl: null,
  isActive: true,
  accessTokenSet: true,
  webhookVerifyTokenSet: false,
  appSecretSet: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('user details: basic information', () => {
  const saved = userDetailsFormFrom(user);

  it('holds the balance as typed and sends only what changed', () => {
    expect(saved.creditBalance).toBe('12.5');
    expect(isUserDetailsChanged(saved, { ...saved, creditBalance: '12.50' })).toBe(false);
    expect(validateUserDetails(saved, { ...saved, name: 'Asha R.', creditBalance: '20' })).toEqual({ ok: true, data: { name: 'Asha R.', creditBalance: 20 } });
  });

  it.each([
    ['-1', messages.validation.creditBalanceNegative],
    ['', messages.validation.creditBalanceInvalid],
    ['ten', messages.validation.creditBalanceInvalid],
  ])('refuses the balance %j', (creditBalance, message) => {
    expect(validateUserDetails(saved, { ...saved, creditBalance })).toEqual({ ok: false, errors: { creditBalance: message } });
  });

  it('uses the basic info rules', () => {
    expect(validateUserDetails(saved, { ...saved, email: 'nope' })).toEqual({ ok: false, errors: { email: messages.validation.emailInvalidAdmin } });
    expect(validateUserDetails(saved, { ...saved, name: '' })).toEqual({ ok: false, errors: { name: messages.validation.nameRequired } });
  });
});

describe('user details: business information', () => {
  it('starts from the stored info with empty secrets, and active by default', () => {
    expect(businessInfoFormFrom(info)).toMatchObject({ businessName: 'Rao Stores', webhookUrl: '', accessToken: '', isActive: true });
    expect(businessInfoFormFrom(null)).toMatchObject({ businessName: '', isActive: true });
  });

  it('is unchanged until a field, the switch or a secret is edited', () => {
    const saved = businessInfoFormFrom(info);
    expect(isBusinessInfoChanged(saved, { ...saved })).toBe(false);
    expect(isBusinessInfoChanged(saved, { ...saved, isActive: false })).toBe(true);
    expect(isBusinessInfoChanged(saved, { ...saved, appSecret: 'x' })).toBe(true);
    expect(isBusinessInfoChanged(saved, { ...saved, wabaId: 'waba-2' })).toBe(true);
  });

  it('sends every plain field and only the typed secrets', () => {
    const form = { ...businessInfoFormFrom(info), accessToken: ' new-token ' };
    expect(buildBusinessInfoPayload(form)).toEqual({
      businessName: 'Rao Stores',
      whatsappNumber: '919812345678',
      whatsappNumberId: '1234567890',
      wabaId: 'waba-1',
      webhookUrl: '',
      isActive: true,
      accessToken: 'new-token',
    });
  });

  it('checks both forms before anything is sent', () => {
    const saved = { user: userDetailsFormFrom(user), business: businessInfoFormFrom(null) };
    const bad = validateDetailsSave(saved, {
      user: { ...saved.user, name: 'Asha R.' },
      business: { ...saved.business, whatsappNumber: 'abc', webhookUrl: 'ftp://x' },
    });
    expect(bad).toEqual({
      ok: false,
      userErrors: {},
      businessErrors: { whatsappNumber: messages.validation.whatsappNumberInvalid, webhookUrl: messages.providers.webhookUrlInvalid },
    });
    // An untouched empty business form is not saved, so the user does not become Configured.
    expect(validateDetailsSave(saved, { ...saved, user: { ...saved.user, name: 'Asha R.' } })).toEqual({ ok: true, user: { name: 'Asha R.' }, business: null });
  });
});
