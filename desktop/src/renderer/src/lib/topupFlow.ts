import { TOPUP } from '@shared/constants';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TVerifyPaymentRequest } from '@shared/schemas/payments';
import type { TCreateOrderResponse, TVerifyPaymentResponse } from '@shared/types';
import { ApiError } from '../api/errors';
import type { RazorpayConstructor, RazorpayFailureResponse, RazorpaySuccessResponse } from './razorpayCheckout';

const w = messages.wallet;

/**
 * The top-up as a small state machine (spec 000 §4.6):
 * idle -> creatingOrder -> awaitingPayment -> verifying -> succeeded, with failed and dismissed
 * as the other ends. `succeeded` is terminal because the page reloads shortly after.
 */
export type TopUpPhase = 'idle' | 'creatingOrder' | 'awaitingPayment' | 'verifying' | 'succeeded' | 'failed' | 'dismissed';

/** The phases in which the pay button is disabled and reads 'Processing...'. */
export function isTopUpWorking(phase: TopUpPhase): boolean {
  return phase === 'creatingOrder' || phase === 'awaitingPayment' || phase === 'verifying' || phase === 'succeeded';
}

export type TopUpOutcome =
  | { status: 'succeeded'; response: TVerifyPaymentResponse }
  | { status: 'orderFailed'; message: string }
  | { status: 'verificationFailed'; message: string }
  | { status: 'dismissed' };

export interface TopUpDependencies {
  createOrder: (amountCredits: number) => Promise<TCreateOrderResponse>;
  /** Loads the checkout script named by the order (once) and answers its constructor. */
  loadCheckout: (checkoutUrl: string) => Promise<RazorpayConstructor>;
  verify: (request: TVerifyPaymentRequest) => Promise<TVerifyPaymentResponse>;
  onPhase: (phase: TopUpPhase) => void;
  /** The 'Processing payment...' info toast. */
  notifyProcessing: () => void;
  /** The 'Credits added successfully!' toast. */
  notifySuccess: (message: string) => void;
  /** The flow ended without success; e.g. drop the processing toast. */
  notifyEnded: () => void;
  /** The spec's failure texts are blocking alerts (`window.alert`). */
  alert: (text: string) => void;
  /** Re-reads the balance everywhere it is shown (header badge, dashboard, this page). */
  refreshBalance: () => void;
  /** Re-reads the wallet page's own balance. */
  refreshWalletBalance: () => void;
  /** Reloads the page. */
  reload: () => void;
  /** Delayed work (setTimeout in the app; fake timers in tests). */
  schedule: (task: () => void, delayMs: number) => void;
  log: Pick<Console, 'info' | 'warn'>;
  /** Accent colour of the checkout window. */
  themeColor: string;
}

/**
 * The text after a failure prefix: the server's `error`, else `fallback` for a failed call,
 * else the thrown error's own message (e.g. the script-load failure), else 'Unknown error'.
 */
export function failureDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  if (error instanceof Error && error.message) return error.message;
  return messages.common.unknownError;
}

/** 'Payment failed: ...' for anything that stops the order from reaching the checkout window. */
export function orderFailureText(error: unknown): string {
  return w.paymentFailedPrefix + failureDetail(error, w.orderFailed);
}

/** 'Payment verification failed: ...' for a failed verify call. */
export function verificationFailureText(error: unknown): string {
  return w.verificationFailedPrefix + failureDetail(error, w.verificationFailed);
}

/** After a verified payment: balance now and after 500 ms, wallet after 1 s, reload after 3 s. */
function afterVerifiedPayment(deps: TopUpDependencies): void {
  deps.refreshBalance();
  deps.schedule(deps.refreshBalance, TOPUP.balanceRefreshAfterVerifyMs);
  deps.schedule(deps.refreshWalletBalance, TOPUP.walletRefreshAfterSuccessMs);
  deps.schedule(deps.reload, TOPUP.reloadAfterVerifyMs);
}

/**
 * Opens the checkout window for `order`; answers the payment on success and null when the
 * person closes the window. Throws if the checkout cannot be constructed or opened.
 */
function openCheckout(
  Checkout: RazorpayConstructor,
  order: TCreateOrderResponse,
  deps: TopUpDependencies,
): Promise<RazorpaySuccessResponse | null> {
  return new Promise((resolve) => {
    const checkout = new Checkout({
      key: order.keyId,
      amount: order.amount,
      currency: order.currency,
      order_id: order.orderId,
      name: order.name,
      description: `Wallet top-up: ${formatIndianNumber(order.amountCredits)} credits`,
      prefill: order.prefill,
      notes: order.notes,
      theme: { color: deps.themeColor },
      handler: (response) => resolve(response),
      // Spec 000 §4.6: closing the window is only logged (by the caller).
      modal: { ondismiss: () => resolve(null) },
    });
    // The checkout window stays open after a failed attempt so the person can retry or close
    // it; the failure is worth a log line, and the flow ends on payment or dismissal.
    checkout.on('payment.failed', (response: RazorpayFailureResponse) => {
      deps.log.warn('Razorpay reported a failed payment attempt', response.error);
    });
    deps.onPhase('awaitingPayment');
    checkout.open();
  });
}

/**
 * Runs one top-up of `amountCredits` (already validated) to its end: order, checkout window,
 * verification. Failures are shown through `deps.alert` with the spec's texts; the promise
 * always resolves, with how it ended.
 */
export async function runTopUp(amountCredits: number, deps: TopUpDependencies): Promise<TopUpOutcome> {
  deps.onPhase('creatingOrder');
  deps.notifyProcessing();

  // Everything up to the open checkout window is "the order" for the spec's failure alert,
  // including a checkout script that fails to load.
  let order: TCreateOrderResponse;
  let payment: RazorpaySuccessResponse | null;
  try {
    order = await deps.createOrder(amountCredits);
    const Checkout = await deps.loadCheckout(order.checkoutUrl);
    payment = await openCheckout(Checkout, order, deps);
  } catch (error) {
    return fail({ status: 'orderFailed', message: orderFailureText(error) });
  }
  if (payment === null) {
    deps.log.info('Payment window closed before paying; nothing was charged.');
    deps.notifyEnded();
    deps.onPhase('dismissed');
    return { status: 'dismissed' };
  }

  deps.onPhase('verifying');
  let verified: TVerifyPaymentResponse;
  try {
    verified = await deps.verify({
      orderId: payment.razorpay_order_id || order.orderId,
      paymentId: payment.razorpay_payment_id,
      signature: payment.razorpay_signature,
      amountCredits: order.amountCredits,
    });
  } catch (error) {
    return fail({ status: 'verificationFailed', message: verificationFailureText(error) });
  }

  deps.notifySuccess(w.creditsAdded);
  deps.onPhase('succeeded');
  afterVerifiedPayment(deps);
  return { status: 'succeeded', response: verified };

  function fail(outcome: Extract<TopUpOutcome, { message: string }>): TopUpOutcome {
    deps.notifyEnded();
    deps.onPhase('failed');
    deps.alert(outcome.message);
    return outcome;
  }
}
