import { messages } from '@shared/messages';

/** What Razorpay's checkout passes to `handler` after a successful payment. */
export interface RazorpaySuccessResponse {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** What Razorpay's checkout passes to `payment.failed` listeners. */
export interface RazorpayFailureResponse {
  error?: { code?: string; description?: string; reason?: string; source?: string; step?: string };
}

/** The options of `new Razorpay(...)` that this app uses (Razorpay's checkout.js contract). */
export interface RazorpayOptions {
  key: string;
  /** Paise. */
  amount: number;
  currency: string;
  order_id: string;
  name: string;
  description: string;
  prefill: { name?: string; email?: string; contact?: string };
  notes: Record<string, string>;
  theme: { color: string };
  handler: (response: RazorpaySuccessResponse) => void;
  modal: { ondismiss: () => void };
}

export interface RazorpayInstance {
  on(event: 'payment.failed', listener: (response: RazorpayFailureResponse) => void): void;
  open(): void;
}

export type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

/**
 * Where the checkout script really is. Razorpay's URL is absolute; the development sandbox's is
 * relative to the API server. In the browser the API server is the page's own origin
 * (`serverUrl` ''), so a relative URL stays as it is; the desktop app is served from app:// and
 * must prefix the configured server.
 */
export function resolveCheckoutUrl(checkoutUrl: string, serverUrl: string): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(checkoutUrl) || checkoutUrl.startsWith('//')) return checkoutUrl;
  if (!serverUrl) return checkoutUrl;
  return new URL(checkoutUrl, `${serverUrl.replace(/\/+$/, '')}/`).toString();
}

/** The one piece of the DOM the loader needs, so that it can be tested without a browser. */
export interface ScriptHost {
  /** Adds `<script src>` to the page and reports whether it loaded. */
  inject(src: string, callbacks: { onLoad: () => void; onError: () => void }): void;
}

export const documentScriptHost: ScriptHost = {
  inject(src, { onLoad, onError }) {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = onLoad;
    script.onerror = () => {
      // A failed tag is useless; removing it lets a later attempt add a fresh one.
      script.remove();
      onError();
    };
    document.head.appendChild(script);
  },
};

/**
 * A loader that injects each script URL once: concurrent and later calls share the first
 * promise. A failed load is forgotten, so pressing Pay again retries instead of failing forever.
 * Failures reject with `messages.wallet.scriptLoadFailed`, which the top-up flow shows in its
 * order-failure alert.
 */
export function createScriptLoader(host: ScriptHost): (src: string) => Promise<void> {
  const loads = new Map<string, Promise<void>>();
  return (src) => {
    const known = loads.get(src);
    if (known) return known;
    const load = new Promise<void>((resolve, reject) => {
      host.inject(src, {
        onLoad: resolve,
        onError: () => {
          loads.delete(src);
          reject(new Error(messages.wallet.scriptLoadFailed));
        },
      });
    });
    loads.set(src, load);
    return load;
  };
}

export interface CheckoutLoaderDependencies {
  /** The API server's origin, '' for the page's own (see `platform.serverUrl`). */
  serverUrl: () => Promise<string>;
  loadScript: (src: string) => Promise<void>;
  /** The constructor the script defines (`window.Razorpay`), if it has run. */
  getConstructor: () => RazorpayConstructor | undefined;
}

/**
 * Loads the checkout script from `checkoutUrl` on demand and answers its constructor. A script
 * that loads but defines no `Razorpay` (a captive portal page, a wrong URL) counts as a load
 * failure.
 */
export function createCheckoutLoader(deps: CheckoutLoaderDependencies): (checkoutUrl: string) => Promise<RazorpayConstructor> {
  return async (checkoutUrl) => {
    const ready = deps.getConstructor();
    if (ready) return ready;
    await deps.loadScript(resolveCheckoutUrl(checkoutUrl, await deps.serverUrl()));
    const loaded = deps.getConstructor();
    if (!loaded) throw new Error(messages.wallet.scriptLoadFailed);
    return loaded;
  };
}
