import { describe, expect, it, vi } from 'vitest';
import { messages } from '@shared/messages';
import {
  createCheckoutLoader,
  createScriptLoader,
  resolveCheckoutUrl,
  type RazorpayConstructor,
  type ScriptHost,
} from './razorpayCheckout';

/** A script host whose loads finish when the test says so. */
function manualHost() {
  const pending: Array<{ src: string; onLoad: () => void; onError: () => void }> = [];
  const host: ScriptHost = { inject: (src, callbacks) => void pending.push({ src, ...callbacks }) };
  return { host, pending };
}

const FakeCheckout = class {
  on() {}
  open() {}
} as unknown as RazorpayConstructor;

describe('resolveCheckoutUrl', () => {
  it('keeps absolute URLs (Razorpay) as they are', () => {
    expect(resolveCheckoutUrl('https://checkout.razorpay.com/v1/checkout.js', '')).toBe(
      'https://checkout.razorpay.com/v1/checkout.js',
    );
    expect(resolveCheckoutUrl('https://checkout.razorpay.com/v1/checkout.js', 'https://sandesh.example.com')).toBe(
      'https://checkout.razorpay.com/v1/checkout.js',
    );
  });

  it('keeps a relative URL relative in the browser, where the server is the page origin', () => {
    expect(resolveCheckoutUrl('/sandbox/razorpay/checkout.js', '')).toBe('/sandbox/razorpay/checkout.js');
  });

  it('resolves a relative URL against the server in the desktop app', () => {
    expect(resolveCheckoutUrl('/sandbox/razorpay/checkout.js', 'http://127.0.0.1:3000')).toBe(
      'http://127.0.0.1:3000/sandbox/razorpay/checkout.js',
    );
    expect(resolveCheckoutUrl('sandbox/razorpay/checkout.js', 'https://sandesh.example.com/')).toBe(
      'https://sandesh.example.com/sandbox/razorpay/checkout.js',
    );
  });
});

describe('createScriptLoader', () => {
  it('injects a script once and shares the load between callers', async () => {
    const { host, pending } = manualHost();
    const load = createScriptLoader(host);
    const first = load('/a.js');
    const second = load('/a.js');
    expect(pending).toHaveLength(1);
    pending[0]?.onLoad();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    await load('/a.js');
    expect(pending).toHaveLength(1);
  });

  it('rejects with the script-load message and retries on the next call', async () => {
    const { host, pending } = manualHost();
    const load = createScriptLoader(host);
    const failed = load('/a.js');
    pending[0]?.onError();
    await expect(failed).rejects.toThrow(messages.wallet.scriptLoadFailed);
    const retry = load('/a.js');
    expect(pending).toHaveLength(2);
    pending[1]?.onLoad();
    await expect(retry).resolves.toBeUndefined();
  });
});

describe('createCheckoutLoader', () => {
  it('loads the resolved URL and answers the constructor the script defined', async () => {
    let defined: RazorpayConstructor | undefined;
    const loadScript = vi.fn(async () => {
      defined = FakeCheckout;
    });
    const loadCheckout = createCheckoutLoader({
      serverUrl: async () => 'http://127.0.0.1:3000',
      loadScript,
      getConstructor: () => defined,
    });
    await expect(loadCheckout('/sandbox/razorpay/checkout.js')).resolves.toBe(FakeCheckout);
    expect(loadScript).toHaveBeenCalledWith('http://127.0.0.1:3000/sandbox/razorpay/checkout.js');
    await loadCheckout('/sandbox/razorpay/checkout.js');
    expect(loadScript).toHaveBeenCalledTimes(1);
  });

  it('treats a script that defines no checkout as a load failure', async () => {
    const loadCheckout = createCheckoutLoader({
      serverUrl: async () => '',
      loadScript: async () => undefined,
      getConstructor: () => undefined,
    });
    await expect(loadCheckout('/x.js')).rejects.toThrow(messages.wallet.scriptLoadFailed);
  });
});
