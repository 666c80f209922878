/**
 * Meta's Embedded Signup in the browser: Meta's JavaScript SDK loaded on demand (as Razorpay's
 * checkout is), `FB.login` launched with the configuration id and `response_type: 'code'`, and
 * the `WA_EMBEDDED_SIGNUP` session-info message read from the popup's `message` event (only from
 * facebook.com, or from the simulator in the sandbox). See docs/decisions/2026-12-07-embedded-signup.md.
 */
import { fillMessage, messages } from '@shared/messages';
import type { TConnectSetup } from '@shared/schemas/whatsappConnections';
import { createScriptLoader, documentScriptHost, resolveCheckoutUrl } from './razorpayCheckout';

interface FacebookLoginResponse {
  authResponse?: { code?: string } | null;
  status?: string;
}

export interface FacebookSdk {
  init(options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }): void;
  login(
    callback: (response: FacebookLoginResponse) => void,
    options: { config_id: string; response_type: 'code'; override_default_response_type: true; extras: { setup: Record<string, never>; sessionInfoVersion: string } },
  ): void;
}

/** What a finished signup gives: the code for the server, the business account and the number. */
export interface SignupResult {
  code: string;
  waba_id: string;
  phone_number_id: string;
}

/** The session-info message as Meta posts it (a JSON string): FINISH with the ids, CANCEL with the step, ERROR with the reason. */
export interface SessionInfo {
  type: 'WA_EMBEDDED_SIGNUP';
  event: string;
  data: { phone_number_id?: string; waba_id?: string; current_step?: string; error_message?: string };
}

/** The message's data when it is Meta's session-info message, else null. */
export function readSessionInfo(data: unknown): SessionInfo | null {
  let value: unknown = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const record = value as Partial<SessionInfo>;
  if (record.type !== 'WA_EMBEDDED_SIGNUP' || typeof record.event !== 'string') return null;
  return { type: 'WA_EMBEDDED_SIGNUP', event: record.event, data: record.data && typeof record.data === 'object' ? record.data : {} };
}

/** Whether a `message` event may carry the session info: Meta's facebook.com, or the simulator's own origin in the sandbox. */
export function isSignupOrigin(origin: string, setup: TConnectSetup, pageUrl: string): boolean {
  if (setup.sandbox) return origin === new URL(setup.sdk_url, pageUrl).origin;
  try {
    const host = new URL(origin).hostname;
    return new URL(origin).protocol === 'https:' && (host === 'facebook.com' || host.endsWith('.facebook.com'));
  } catch {
    return false;
  }
}

const loadScript = createScriptLoader(documentScriptHost);

function sdkOf(): FacebookSdk | undefined {
  return (window as unknown as { FB?: FacebookSdk }).FB;
}

/**
 * Runs the signup popup and answers the code and ids, or rejects with a catalogue text (closed,
 * cancelled, Meta's error, the SDK not loading). `serverUrl`: the API server for a relative SDK URL.
 */
export async function runEmbeddedSignup(setup: TConnectSetup, serverUrl: string): Promise<SignupResult> {
  const src = resolveCheckoutUrl(setup.sdk_url, serverUrl);
  try {
    await loadScript(src);
  } catch {
    throw new Error(messages.whatsappConnect.sdkLoadFailed);
  }
  const sdk = sdkOf();
  if (!sdk) throw new Error(messages.whatsappConnect.sdkLoadFailed);
  sdk.init({ appId: setup.app_id, autoLogAppEvents: true, xfbml: true, version: setup.graph_version });
  return new Promise<SignupResult>((resolve, reject) => {
    let info: SessionInfo | null = null;
    let code: string | null = null;
    let settled = false;
    const finish = (outcome: { result?: SignupResult; error?: string }) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', onMessage);
      if (outcome.result) resolve(outcome.result);
      else reject(new Error(outcome.error ?? messages.whatsappConnect.noCode));
    };
    const check = () => {
      if (info?.event === 'CANCEL') return finish({ error: messages.whatsappConnect.popupCancelled });
      if (info?.event === 'ERROR') return finish({ error: fillMessage(messages.whatsappConnect.popupError, { message: info.data.error_message ?? '' }) });
      if (info?.event === 'FINISH' && info.data.waba_id && info.data.phone_number_id && code) {
        finish({ result: { code, waba_id: info.data.waba_id, phone_number_id: info.data.phone_number_id } });
      }
    };
    const onMessage = (event: MessageEvent) => {
      if (!isSignupOrigin(event.origin, setup, window.location.href)) return;
      const read = readSessionInfo(event.data);
      if (!read) return;
      info = read;
      check();
    };
    window.addEventListener('message', onMessage);
    sdk.login(
      (response) => {
        code = response.authResponse?.code ?? null;
        // The session-info message may arrive just after the callback: wait for it briefly.
        if (!code) {
          window.setTimeout(() => {
            check();
            finish({ error: info?.event === 'CANCEL' ? messages.whatsappConnect.popupCancelled : messages.whatsappConnect.noCode });
          }, 1_000);
          return;
        }
        check();
        window.setTimeout(() => finish({ error: messages.whatsappConnect.noCode }), 10_000);
      },
      { config_id: setup.config_id, response_type: 'code', override_default_response_type: true, extras: { setup: {}, sessionInfoVersion: '3' } },
    );
  });
}
