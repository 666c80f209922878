/**
 * Meta's side of Embedded Signup for the sandbox and the tests: a stand-in for the JavaScript SDK
 * (`FB.init`, `FB.login`) whose popup posts the same `WA_EMBEDDED_SIGNUP` session-info message to
 * the opener and hands FB.login's callback a code; the code exchange
 * (`GET /{version}/oauth/access_token`), `POST /{waba-id}/subscribed_apps`,
 * `POST /{phone-number-id}/register` and the number's read. Sources and choices:
 * docs/decisions/2026-12-07-embedded-signup.md.
 *
 * Failure switches: `fail(step, error)` answers the next call of a step with Meta's error; a code
 * exchanged twice is refused as used (100/36009), an unknown one as expired (100/36007); the PIN
 * `000000` stands for a number that already has another PIN (133005).
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { randomHex } from './randomHex';
import type { SimulatorNumbers } from './numbers';

export type SimulatorSignupStep = 'exchange' | 'subscribe' | 'register' | 'read';

/** An error Meta answers, as its Graph API error object carries it. */
export interface SimulatorSignupFault {
  code: number;
  subcode?: number;
  message?: string;
  httpStatus?: number;
}

interface IssuedCode {
  wabaId: string;
  phoneNumberId: string;
  used: boolean;
}

interface SignupNumber {
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  pin: string | null;
}

/** The PIN standing for a number whose owner set another PIN before (Meta answers 133005). */
export const SIMULATOR_WRONG_PIN = '000000';

function digits(count: number): string {
  let out = '';
  while (out.length < count) out += String(parseInt(randomHex(6), 16)).padStart(8, '0');
  return out.slice(0, count);
}

function graphError(fault: SimulatorSignupFault): { status: number; body: Record<string, unknown> } {
  const status = fault.httpStatus ?? (fault.code === 190 ? 401 : fault.code === 4 || fault.code === 80007 || fault.code === 133016 ? 429 : fault.code === 200 || fault.code === 10 ? 403 : fault.code === 1 || fault.code === 2 ? 500 : 400);
  return {
    status,
    body: {
      error: {
        message: fault.message ?? `(#${fault.code}) Simulated error`,
        type: 'OAuthException',
        code: fault.code,
        ...(fault.subcode !== undefined ? { error_subcode: fault.subcode } : {}),
        fbtrace_id: `sim${randomHex(8)}`,
      },
    },
  };
}

const INVALID_TOKEN: SimulatorSignupFault = { code: 190, message: 'Invalid OAuth access token - Cannot parse access token' };

export class SimulatorEmbeddedSignup {
  private readonly codes = new Map<string, IssuedCode>();
  private readonly signupNumbers = new Map<string, SignupNumber>();
  private readonly subscribed = new Set<string>();
  private readonly registered = new Set<string>();
  private readonly faults = new Map<SimulatorSignupStep, SimulatorSignupFault>();

  constructor(
    private readonly options: {
      /** The business token the exchange answers, and the one the other calls demand; random when unset. */
      accessToken?: string | undefined;
      numbers: SimulatorNumbers;
    },
  ) {}

  /**
   * What a finished signup gives the opener: a WABA and number (new each time) and a code for
   * FB.login's callback. `displayPhoneNumber` as Meta shows it (`+91 98765 43210`).
   */
  issue(input: { businessName?: string; displayPhoneNumber?: string } = {}): { code: string; waba_id: string; phone_number_id: string } {
    const wabaId = `1${digits(14)}`;
    const phoneNumberId = `2${digits(14)}`;
    const local = `9${digits(9)}`;
    const displayPhoneNumber = input.displayPhoneNumber?.trim() || `+91 ${local.slice(0, 5)} ${local.slice(5)}`;
    const verifiedName = input.businessName?.trim().slice(0, 120) || 'Simulator business';
    this.signupNumbers.set(phoneNumberId, { wabaId, displayPhoneNumber, verifiedName, pin: null });
    this.options.numbers.setProfile(phoneNumberId, { display_phone_number: displayPhoneNumber, verified_name: verifiedName });
    const code = `simcode${randomHex(16)}`;
    this.codes.set(code, { wabaId, phoneNumberId, used: false });
    return { code, waba_id: wabaId, phone_number_id: phoneNumberId };
  }

  /** The next call of this step answers Meta's error. */
  fail(step: SimulatorSignupStep, fault: SimulatorSignupFault): void {
    this.faults.set(step, fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  isSubscribed(wabaId: string): boolean {
    return this.subscribed.has(wabaId);
  }

  isRegistered(phoneNumberId: string): boolean {
    return this.registered.has(phoneNumberId);
  }

  private takeFault(step: SimulatorSignupStep): SimulatorSignupFault | null {
    const fault = this.faults.get(step) ?? null;
    if (fault) this.faults.delete(step);
    return fault;
  }

  private tokenOk(ctx: Koa.Context): boolean {
    const token = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? (typeof ctx.query.access_token === 'string' ? ctx.query.access_token : undefined);
    return Boolean(token) && (this.options.accessToken === undefined || token === this.options.accessToken);
  }

  private answer(ctx: Koa.Context, answer: { status: number; body: unknown }): void {
    ctx.status = answer.status;
    ctx.body = answer.body;
  }

  /** Routes of the layout; registered before the number read (`GET /:version/:phoneNumberId`). */
  register<StateT>(router: Router<StateT>): void {
    router.get('/embedded-signup/sdk.js', (ctx: Koa.Context) => {
      ctx.type = 'application/javascript';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = SDK_SCRIPT;
    });
    router.get('/embedded-signup/dialog', (ctx: Koa.Context) => {
      ctx.type = 'text/html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = DIALOG_PAGE;
    });
    router.get('/embedded-signup/dialog.js', (ctx: Koa.Context) => {
      ctx.type = 'application/javascript';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = DIALOG_SCRIPT;
    });
    // The popup's "Finish": Meta creates (or picks) the WABA and number and issues the code.
    router.post('/embedded-signup/sessions', (ctx: Koa.Context) => {
      const body = (ctx.request as { body?: unknown }).body as { business_name?: unknown; display_phone_number?: unknown } | undefined;
      ctx.body = this.issue({
        ...(typeof body?.business_name === 'string' ? { businessName: body.business_name } : {}),
        ...(typeof body?.display_phone_number === 'string' ? { displayPhoneNumber: body.display_phone_number } : {}),
      });
    });
    router.get('/:version/oauth/access_token', (ctx: Koa.Context) => {
      const fault = this.takeFault('exchange');
      if (fault) return this.answer(ctx, graphError(fault));
      const { client_id: clientId, client_secret: clientSecret, code } = ctx.query;
      if (typeof clientId !== 'string' || !clientId) return this.answer(ctx, graphError({ code: 101, message: 'Missing client_id parameter.' }));
      if (typeof clientSecret !== 'string' || !clientSecret) return this.answer(ctx, graphError({ code: 1, message: 'Missing client_secret parameter.' }));
      const issued = typeof code === 'string' ? this.codes.get(code) : undefined;
      if (!issued) return this.answer(ctx, graphError({ code: 100, subcode: 36007, message: 'This authorization code has expired.' }));
      if (issued.used) return this.answer(ctx, graphError({ code: 100, subcode: 36009, message: 'This authorization code has been used.' }));
      issued.used = true;
      return this.answer(ctx, { status: 200, body: { access_token: this.options.accessToken ?? `EAAsim${randomHex(24)}`, token_type: 'bearer' } });
    });
    router.post('/:version/:wabaId/subscribed_apps', (ctx: Koa.Context) => {
      if (!this.tokenOk(ctx)) return this.answer(ctx, graphError(INVALID_TOKEN));
      const fault = this.takeFault('subscribe');
      if (fault) return this.answer(ctx, graphError(fault));
      this.subscribed.add(ctx.params.wabaId ?? '');
      return this.answer(ctx, { status: 200, body: { success: true } });
    });
    router.post('/:version/:phoneNumberId/register', (ctx: Koa.Context) => {
      if (!this.tokenOk(ctx)) return this.answer(ctx, graphError(INVALID_TOKEN));
      const fault = this.takeFault('register');
      if (fault) return this.answer(ctx, graphError(fault));
      const body = (ctx.request as { body?: unknown }).body as { messaging_product?: unknown; pin?: unknown } | undefined;
      if (body?.messaging_product !== 'whatsapp') return this.answer(ctx, graphError({ code: 100, message: '(#100) The parameter messaging_product is required.' }));
      if (typeof body.pin !== 'string' || !/^\d{6}$/.test(body.pin)) return this.answer(ctx, graphError({ code: 100, message: '(#100) Param pin must be 6 characters long.' }));
      const id = ctx.params.phoneNumberId ?? '';
      const number = this.signupNumbers.get(id);
      if (body.pin === SIMULATOR_WRONG_PIN || (number?.pin && number.pin !== body.pin)) {
        return this.answer(ctx, graphError({ code: 133005, message: 'Two step verification PIN Mismatch' }));
      }
      if (number) number.pin = body.pin;
      this.registered.add(id);
      return this.answer(ctx, { status: 200, body: { success: true } });
    });
    router.get('/:version/:phoneNumberId', async (ctx: Koa.Context, next: Koa.Next) => {
      const fault = this.faults.has('read') && this.tokenOk(ctx) ? this.takeFault('read') : null;
      if (fault) return this.answer(ctx, graphError(fault));
      await next();
    });
  }
}

/**
 * The SDK stand-in: `FB.init` and `FB.login(callback, {config_id, response_type, extras})`, as
 * Meta's SDK offers them. The popup is this simulator's dialog; its result comes back to the
 * callback as `{authResponse: {code}}`, and the session-info message reaches the page's own
 * `message` listener straight from the popup, as Meta's does.
 */
const SDK_SCRIPT = `(function () {
  var base = (document.currentScript && document.currentScript.src) || '';
  base = base.replace(/\\/sdk\\.js(\\?.*)?$/, '');
  var state = { appId: null };
  window.FB = {
    init: function (options) { state.appId = options && options.appId; },
    login: function (callback, options) {
      var url = base + '/dialog?config_id=' + encodeURIComponent((options && options.config_id) || '') +
        '&app_id=' + encodeURIComponent(state.appId || '') + '&origin=' + encodeURIComponent(window.location.origin);
      var popup = window.open(url, 'sandesh_embedded_signup', 'width=520,height=640');
      var done = false;
      function finish(response) {
        if (done) return;
        done = true;
        window.removeEventListener('message', onMessage);
        clearInterval(watch);
        callback(response);
      }
      function onMessage(event) {
        if (event.source !== popup || !event.data || event.data.type !== 'SIMULATOR_LOGIN_RESULT') return;
        finish(event.data.code ? { status: 'connected', authResponse: { code: event.data.code } } : { status: 'unknown', authResponse: null });
      }
      window.addEventListener('message', onMessage);
      var watch = setInterval(function () { if (!popup || popup.closed) setTimeout(function () { finish({ status: 'unknown', authResponse: null }); }, 500); }, 500);
    },
  };
  if (typeof window.fbAsyncInit === 'function') window.fbAsyncInit();
})();
`;

const DIALOG_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>WhatsApp Business signup (simulator)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1c1e21}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.6rem 1rem;font-size:1rem}.note{background:#fff4d6;padding:.5rem;border-radius:4px}</style></head>
<body><h1>Connect to WhatsApp Business</h1>
<p class="note">Simulator: this page stands in for Meta's Embedded Signup popup. No Meta account is used.</p>
<form id="signup"><label for="business">Business name</label><input id="business" name="business" value="My Business" autocomplete="off">
<label for="phone">Business phone number</label><input id="phone" name="phone" placeholder="+91 98765 43210" autocomplete="off">
<button type="submit" id="finish">Finish</button><button type="button" id="cancel">Cancel</button><button type="button" id="error">Report an error</button></form>
<p id="status" role="status"></p>
<script src="dialog.js"></script></body></html>
`;

/** Posts what Meta's popup posts: the session-info message as a JSON string, then FB.login's result. */
const DIALOG_SCRIPT = `(function () {
  var params = new URLSearchParams(window.location.search);
  var origin = params.get('origin') || '*';
  function post(message) { if (window.opener) window.opener.postMessage(message, origin); }
  function sessionInfo(event, data) { post(JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: event, version: '3', data: data })); }
  document.getElementById('signup').addEventListener('submit', function (event) {
    event.preventDefault();
    document.getElementById('status').textContent = 'Finishing...';
    fetch('sessions', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ business_name: document.getElementById('business').value, display_phone_number: document.getElementById('phone').value }) })
      .then(function (response) { return response.json(); })
      .then(function (session) {
        sessionInfo('FINISH', { phone_number_id: session.phone_number_id, waba_id: session.waba_id });
        post({ type: 'SIMULATOR_LOGIN_RESULT', code: session.code });
        window.close();
      })
      .catch(function () { document.getElementById('status').textContent = 'The simulator did not answer.'; });
  });
  document.getElementById('cancel').addEventListener('click', function () {
    sessionInfo('CANCEL', { current_step: 'PHONE_NUMBER_SETUP' });
    post({ type: 'SIMULATOR_LOGIN_RESULT', code: null });
    window.close();
  });
  document.getElementById('error').addEventListener('click', function () {
    sessionInfo('ERROR', { error_message: 'Simulated signup error', error_id: '524126', session_id: 'sim-session' });
    post({ type: 'SIMULATOR_LOGIN_RESULT', code: null });
    window.close();
  });
})();
`;
