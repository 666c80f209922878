import { unitsToPrice, type TCustomPriceSet, type TPriceSet } from '@shared/pricing';
import type { TUserPricingResponse } from '@shared/types';
import type { CustomUnitPrices, UnitPrices, UserPricing } from '../pricing/service';

export function presentPrices(units: UnitPrices): TPriceSet {
  return { marketing: unitsToPrice(units.marketing), utility: unitsToPrice(units.utility), authentication: unitsToPrice(units.authentication), service: unitsToPrice(units.service) };
}

export function presentCustomPrices(units: CustomUnitPrices): TCustomPriceSet {
  const show = (value: number | null) => (value === null ? null : unitsToPrice(value));
  return { marketing: show(units.marketing), utility: show(units.utility), authentication: show(units.authentication), service: show(units.service) };
}

export function presentUserPricing(pricing: UserPricing, message?: string): TUserPricingResponse {
  return {
    success: true,
    mode: pricing.mode,
    custom: presentCustomPrices(pricing.custom),
    effective: presentPrices(pricing.effective),
    defaults: presentPrices(pricing.defaults),
    ...(message ? { message } : {}),
  };
}
