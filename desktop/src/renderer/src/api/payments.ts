import type { TCreateOrderRequest, TVerifyPaymentRequest } from '@shared/schemas/payments';
import type { TCreateOrderResponse, TPaymentsConfig, TVerifyPaymentResponse } from '@shared/types';
import { apiGet, apiPost } from './client';

/** Wallet top-up through Razorpay (spec 000 §4.6, §7). */
export const paymentsApi = {
  /** Whether online payment is set up, and whether it is the development sandbox. */
  config: () => apiGet<TPaymentsConfig>('/api/payments/config'),

  createOrder: (body: TCreateOrderRequest) => apiPost<TCreateOrderResponse>('/api/payments/razorpay/order', body),

  verify: (body: TVerifyPaymentRequest) => apiPost<TVerifyPaymentResponse>('/api/payments/razorpay/verify', body),
};

export const paymentKeys = {
  config: ['payments', 'config'] as const,
};
