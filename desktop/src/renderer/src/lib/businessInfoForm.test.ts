import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TBusinessInfo } from '@shared/types';
import { buildBusinessInfoPayload, businessInfoFormFrom, isBusinessInfoChanged, validateBusinessInfo } from './businessInfoForm';

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

describe('provider tab: Cloud API business information', () => {
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

  it('checks the fields with the server schema before anything is sent', () => {
    const form = { ...businessInfoFormFrom(null), whatsappNumber: 'abc', webhookUrl: 'ftp://x' };
    expect(validateBusinessInfo(form)).toEqual({
      ok: false,
      errors: { whatsappNumber: messages.validation.whatsappNumberInvalid, webhookUrl: messages.providers.webhookUrlInvalid },
    });
    expect(validateBusinessInfo({ ...businessInfoFormFrom(info) })).toMatchObject({ ok: true });
  });
});
