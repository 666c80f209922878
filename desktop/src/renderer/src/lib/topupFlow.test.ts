import { describe, expect, it, vi } from 'vitest';
import { messages } from '@shared/messages';
import type { TCreateOrderResponse, TVerifyPaymentResponse } from '@shared/types';
import { ApiError } from '../api/errors';
import type { RazorpayConstructor, RazorpayOptions } from './razorpayCheckout';
import { isTopUpWorking, orderFailureText, runTopUp, verificationFailureText, type TopUpDependencies } from './topupFlow';

const order: TCreateOrderResponse = {
  success: true,
  keyId: 'rzp_test_key',
  amount: 100_000,
  currency: 'INR',
  orderId: 'order_123',
  amountCredits: 1000,
  tax: null,
  checkoutUrl: '/sandbox/razorpay/checkout.js',
  sandbox: true,
  name: 'Sandesh',
  notes: { purpose: 'wallet_topup', credits: '1000' },
  prefill: { name: 'Asha Rao', email: 'asha@example.in', contact: '919876543210' },
};

const verified: TVerifyPaymentResponse = {
  success: true,
  message: 'Credits added successfully!',
  credited: true,
  creditBalance: 2000,
};

type CheckoutBehaviour = 'pay' | 'dismiss' | 'throw';

/** A stand-in for Razorpay's checkout that pays, is closed, or fails to open. */
function fakeCheckout(behaviour: CheckoutBehaviour) {
  const seen: { options?: RazorpayOptions; failedListener: boolean } = { failedListener: false };
  const Checkout = class {
    constructor(private readonly options: RazorpayOptions) {
      seen.options = options;
    }
    on(event: string) {
      if (event === 'payment.failed') seen.failedListener = true;
    }
    open() {
      if (behaviour === 'throw') throw new Error('Checkout could not open');
      // Razorpay calls back after open() returns.
      queueMicrotask(() => {
        if (behaviour === 'pay') {
          this.options.handler({
            razorpay_payment_id: 'pay_1',
            razorpay_order_id: 'order_123',
            razorpay_signature: 'sig',
          });
        } else this.options.modal.ondismiss();
      });
    }
  } as unknown as RazorpayConstructor;
  return { Checkout, seen };
}

function dependencies(behaviour: CheckoutBehaviour = 'pay', overrides: Partial<TopUpDependencies> = {}) {
  const { Checkout, seen } = fakeCheckout(behaviour);
  const scheduled: Array<{ delayMs: number; task: () => void }> = [];
  const deps = {
    createOrder: vi.fn(async () => order),
    loadCheckout: vi.fn(async () => Checkout),
    verify: vi.fn(async () => verified),
    onPhase: vi.fn(),
    notifyProcessing: vi.fn(),
    notifySuccess: vi.fn(),
    notifyEnded: vi.fn(),
    alert: vi.fn(),
    refreshBalance: vi.fn(),
    refreshWalletBalance: vi.fn(),
    reload: vi.fn(),
    schedule: vi.fn((task: () => void, delayMs: number) => void scheduled.push({ task, delayMs })),
    log: { info: vi.fn(), warn: vi.fn() },
    themeColor: '#059669',
    ...overrides,
  } satisfies TopUpDependencies;
  return { deps, seen, scheduled };
}

describe('runTopUp', () => {
  it('creates the order, opens the checkout, verifies and announces the credits', async () => {
    const { deps, seen } = dependencies();
    const outcome = await runTopUp(1000, deps);

    expect(outcome).toEqual({ status: 'succeeded', response: verified });
    expect(deps.notifyProcessing).toHaveBeenCalledOnce();
    expect(deps.createOrder).toHaveBeenCalledWith(1000);
    expect(deps.loadCheckout).toHaveBeenCalledWith('/sandbox/razorpay/checkout.js');
    expect(seen.options).toMatchObject({
      key: 'rzp_test_key',
      amount: 100_000,
      currency: 'INR',
      order_id: 'order_123',
      name: 'Sandesh',
      notes: { purpose: 'wallet_topup', credits: '1000' },
      prefill: { email: 'asha@example.in' },
      description: 'Wallet top-up: 1,000 credits',
      theme: { color: '#059669' },
    });
    expect(seen.failedListener).toBe(true);
    expect(deps.verify).toHaveBeenCalledWith({
      orderId: 'order_123',
      paymentId: 'pay_1',
      signature: 'sig',
      amountCredits: 1000,
    });
    expect(deps.notifySuccess).toHaveBeenCalledWith('Credits added successfully!');
    expect(deps.alert).not.toHaveBeenCalled();
    expect(vi.mocked(deps.onPhase).mock.calls.map(([phase]) => phase)).toEqual([
      'creatingOrder',
      'awaitingPayment',
      'verifying',
      'succeeded',
    ]);
  });

  it('refreshes the balance at once and after 500 ms, the wallet after 1 s, and reloads after 3 s', async () => {
    const { deps, scheduled } = dependencies();
    await runTopUp(1000, deps);
    expect(deps.refreshBalance).toHaveBeenCalledOnce();
    expect(scheduled.map(({ delayMs }) => delayMs)).toEqual([500, 1000, 3000]);
    for (const { task } of scheduled) task();
    expect(deps.refreshBalance).toHaveBeenCalledTimes(2);
    expect(deps.refreshWalletBalance).toHaveBeenCalledOnce();
    expect(deps.reload).toHaveBeenCalledOnce();
  });

  it('runs on real timers with the spec delays', async () => {
    vi.useFakeTimers();
    try {
      const { deps } = dependencies('pay', { schedule: (task, delayMs) => void setTimeout(task, delayMs) });
      await runTopUp(1000, deps);
      await vi.advanceTimersByTimeAsync(499);
      expect(deps.refreshBalance).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(deps.refreshBalance).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(500);
      expect(deps.refreshWalletBalance).toHaveBeenCalledOnce();
      await vi.advanceTimersByTimeAsync(1999);
      expect(deps.reload).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(deps.reload).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('only logs a closed checkout window', async () => {
    const { deps, scheduled } = dependencies('dismiss');
    const outcome = await runTopUp(1000, deps);
    expect(outcome).toEqual({ status: 'dismissed' });
    expect(deps.log.info).toHaveBeenCalledOnce();
    expect(deps.alert).not.toHaveBeenCalled();
    expect(deps.verify).not.toHaveBeenCalled();
    expect(deps.refreshBalance).not.toHaveBeenCalled();
    expect(scheduled).toHaveLength(0);
    expect(deps.onPhase).toHaveBeenLastCalledWith('dismissed');
  });

  it("alerts 'Payment failed: ' with the server's error when the order is refused", async () => {
    const refused = new ApiError({ status: 400, code: 'validation', message: 'x', serverMessage: 'Amount must be at least ₹1' });
    const { deps } = dependencies('pay', { createOrder: vi.fn(async () => Promise.reject(refused)) });
    const outcome = await runTopUp(1, deps);
    expect(deps.alert).toHaveBeenCalledWith('Payment failed: Amount must be at least ₹1');
    expect(outcome).toEqual({ status: 'orderFailed', message: 'Payment failed: Amount must be at least ₹1' });
    expect(deps.loadCheckout).not.toHaveBeenCalled();
    expect(deps.notifyEnded).toHaveBeenCalledOnce();
    expect(deps.onPhase).toHaveBeenLastCalledWith('failed');
  });

  it('alerts the script-load failure as an order failure', async () => {
    const { deps } = dependencies('pay', {
      loadCheckout: vi.fn(async () => Promise.reject(new Error(messages.wallet.scriptLoadFailed))),
    });
    await runTopUp(1000, deps);
    expect(deps.alert).toHaveBeenCalledWith(`Payment failed: ${messages.wallet.scriptLoadFailed}`);
  });

  it('alerts a checkout that cannot open as an order failure', async () => {
    const { deps } = dependencies('throw');
    const outcome = await runTopUp(1000, deps);
    expect(outcome.status).toBe('orderFailed');
    expect(deps.alert).toHaveBeenCalledWith('Payment failed: Checkout could not open');
  });

  it("alerts 'Payment verification failed: ' with the server's error and adds nothing", async () => {
    const refused = new ApiError({ status: 400, code: 'signature_invalid', message: 'x', serverMessage: 'Payment signature is invalid' });
    const { deps, scheduled } = dependencies('pay', { verify: vi.fn(async () => Promise.reject(refused)) });
    const outcome = await runTopUp(1000, deps);
    expect(outcome).toEqual({
      status: 'verificationFailed',
      message: 'Payment verification failed: Payment signature is invalid',
    });
    expect(deps.alert).toHaveBeenCalledWith('Payment verification failed: Payment signature is invalid');
    expect(deps.notifySuccess).not.toHaveBeenCalled();
    expect(scheduled).toHaveLength(0);
  });
});

describe('failure texts', () => {
  const silent = new ApiError({ status: 502, code: 'http_502', message: 'Internal server error' });
  const offline = new ApiError({ status: 0, code: 'network_error', message: messages.common.networkError });

  it('fall back to the spec texts when the server said nothing', () => {
    expect(orderFailureText(silent)).toBe('Payment failed: Failed to create payment order');
    expect(orderFailureText(offline)).toBe('Payment failed: Failed to create payment order');
    expect(verificationFailureText(silent)).toBe('Payment verification failed: Payment verification failed');
  });

  it("end in 'Unknown error' when nothing at all is known", () => {
    expect(orderFailureText('boom')).toBe('Payment failed: Unknown error');
    expect(orderFailureText(new Error(''))).toBe('Payment failed: Unknown error');
    expect(verificationFailureText(undefined)).toBe('Payment verification failed: Unknown error');
  });
});

describe('isTopUpWorking', () => {
  it('keeps the pay button busy from the order until the page reloads', () => {
    expect(isTopUpWorking('idle')).toBe(false);
    expect(isTopUpWorking('creatingOrder')).toBe(true);
    expect(isTopUpWorking('awaitingPayment')).toBe(true);
    expect(isTopUpWorking('verifying')).toBe(true);
    expect(isTopUpWorking('succeeded')).toBe(true);
    expect(isTopUpWorking('failed')).toBe(false);
    expect(isTopUpWorking('dismissed')).toBe(false);
  });
});
