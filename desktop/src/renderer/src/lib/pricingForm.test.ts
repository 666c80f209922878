import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZPriceDefaultsRequest, ZUserPricingRequest } from '@shared/schemas/pricing';
import { validateForm } from './forms';
import {
  buildRevertPayload,
  buildUserPricingPayload,
  changedPriceCategories,
  isPriceFormChanged,
  priceFormFrom,
  sortPriceErrors,
} from './pricingForm';

const saved = { marketing: '0.80', utility: '0.15', authentication: '0.15', service: '0.00' };

describe('priceFormFrom', () => {
  it('shows prices as they are and missing custom prices as empty inputs', () => {
    expect(priceFormFrom(saved)).toEqual(saved);
    expect(priceFormFrom({ marketing: '0.70', utility: null, authentication: null, service: null })).toEqual({
      marketing: '0.70',
      utility: '',
      authentication: '',
      service: '',
    });
  });
});

describe('changedPriceCategories', () => {
  it('finds nothing changed in the saved prices', () => {
    expect(changedPriceCategories(saved, { ...saved })).toEqual([]);
    expect(isPriceFormChanged(saved, { ...saved })).toBe(false);
  });

  it('compares valid prices by value, so 0.8 is still 0.80', () => {
    expect(isPriceFormChanged(saved, { marketing: '0.8', utility: ' 0.1500 ', authentication: '0.15', service: '0' })).toBe(false);
  });

  it('names each category that differs', () => {
    expect(changedPriceCategories(saved, { marketing: '0.75', utility: '0.15', authentication: '0.2', service: '0.00' })).toEqual([
      'marketing',
      'authentication',
    ]);
  });

  it('counts an emptied or invalid input as a change, so that Save can explain what is wrong', () => {
    expect(changedPriceCategories(saved, { ...saved, utility: '' })).toEqual(['utility']);
    expect(changedPriceCategories(saved, { ...saved, marketing: 'abc' })).toEqual(['marketing']);
  });
});

describe('buildUserPricingPayload', () => {
  it('sends only the mode when custom pricing is off', () => {
    expect(buildUserPricingPayload(false, { marketing: '0.50', utility: '', authentication: '', service: '' })).toEqual({
      mode: 'default',
    });
  });

  it('sends trimmed custom prices, empty inputs as null (use the default)', () => {
    expect(buildUserPricingPayload(true, { marketing: ' 0.50 ', utility: '', authentication: '0.1', service: '' })).toEqual({
      mode: 'custom',
      pricing: { marketing: '0.50', utility: null, authentication: '0.1', service: null },
    });
  });

  it('builds payloads the shared schema accepts or refuses with the spec messages', () => {
    expect(validateForm(ZUserPricingRequest, buildUserPricingPayload(false, { marketing: '', utility: '', authentication: '', service: '' })).ok).toBe(true);
    const empty = validateForm(ZUserPricingRequest, buildUserPricingPayload(true, { marketing: '', utility: '', authentication: '', service: '' }));
    expect(empty).toEqual({ ok: false, errors: { pricing: messages.pricing.customPriceRequired } });
    const bad = validateForm(ZUserPricingRequest, buildUserPricingPayload(true, { marketing: '0.12345', utility: '-1', authentication: '', service: '' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(sortPriceErrors(bad.errors)).toEqual({
        fields: { marketing: messages.pricing.priceFormat, utility: messages.pricing.priceNegative },
        form: undefined,
      });
    }
  });
});

describe('buildRevertPayload', () => {
  it('sets mode default and clears every custom price', () => {
    const payload = buildRevertPayload();
    expect(payload).toEqual({ mode: 'default', pricing: { marketing: null, utility: null, authentication: null } });
    expect(validateForm(ZUserPricingRequest, payload).ok).toBe(true);
  });
});

describe('sortPriceErrors', () => {
  it('puts the defaults call messages under their fields', () => {
    const result = validateForm(ZPriceDefaultsRequest, { marketing: '', utility: '0.15', authentication: '1.23456', service: '0.00' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(sortPriceErrors(result.errors)).toEqual({
        fields: { marketing: messages.pricing.priceRequired, authentication: messages.pricing.priceFormat },
        form: undefined,
      });
    }
  });

  it('keeps messages about no field for the form as a whole', () => {
    expect(sortPriceErrors({ mode: 'Pricing mode must be default or custom', 'pricing.utility': 'x' })).toEqual({
      fields: { utility: 'x' },
      form: 'Pricing mode must be default or custom',
    });
  });
});
