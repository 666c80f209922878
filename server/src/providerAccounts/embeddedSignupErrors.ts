/**
 * Meta's answers at each step of Embedded Signup, mapped to one catalogue text each. Codes from
 * Meta's error-code reference, its Graph API error handling and the registration page (cited in
 * docs/decisions/2026-12-07-embedded-signup.md); anything unlisted is shown with Meta's own code
 * and reason.
 */
import { fillMessage, messages } from '@shared/messages';
import type { TConnectionStep } from '@shared/schemas/whatsappConnections';

/** A Graph call that failed: Meta's error object, or no answer at all (`status` null). */
export class SignupGraphError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: number | null,
    readonly subcode: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SignupGraphError';
  }
}

export interface SignupFailure {
  /** Stable snake_case id. */
  code: string;
  message: string;
  /** Whether Meta's side, not the input, is at fault (answered 502/503 rather than 422). */
  upstream: boolean;
}

type ErrorKey = keyof typeof messages.whatsappConnect.errors;

interface Rule {
  codes: readonly number[];
  subcodes?: readonly number[];
  steps?: readonly TConnectionStep[];
  key: ErrorKey;
}

/** First match wins: step-specific rows before the general ones. */
const RULES: readonly Rule[] = [
  { codes: [100], subcodes: [36007], steps: ['exchange'], key: 'codeExpired' },
  { codes: [100], subcodes: [36009], steps: ['exchange'], key: 'codeUsed' },
  // Wrong client secret (1) or app id (101) on the exchange: the platform's configuration.
  { codes: [1, 101], steps: ['exchange'], key: 'appMisconfigured' },
  { codes: [100], steps: ['exchange'], key: 'codeInvalid' },
  { codes: [100], steps: ['subscribe'], key: 'wabaNotFound' },
  { codes: [100], steps: ['read'], key: 'numberNotFound' },
  { codes: [133005], key: 'pinMismatch' },
  { codes: [133006], key: 'needsVerification' },
  { codes: [133016], key: 'registerRateLimit' },
  { codes: [133015], key: 'recentlyDeleted' },
  { codes: [133000], key: 'deregistrationIncomplete' },
  { codes: [133004], key: 'unavailable' },
  { codes: [131031], key: 'accountLocked' },
  { codes: [190], key: 'tokenInvalid' },
  { codes: [10, 200, 294], key: 'permissionMissing' },
  { codes: [4, 17, 32, 613, 80007, 130429], key: 'rateLimited' },
  { codes: [1, 2], key: 'unavailable' },
];

const UPSTREAM: ReadonlySet<ErrorKey> = new Set(['unavailable', 'rateLimited', 'registerRateLimit', 'deregistrationIncomplete', 'appMisconfigured']);

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The catalogue's failure for what Meta answered at `step`. */
export function signupFailureFor(step: TConnectionStep, error: SignupGraphError): SignupFailure {
  if (error.status === null || (error.status >= 500 && error.code === null)) {
    return { code: 'meta_unavailable', message: messages.whatsappConnect.errors.unavailable, upstream: true };
  }
  const rule = RULES.find(
    (candidate) =>
      error.code !== null &&
      candidate.codes.includes(error.code) &&
      (!candidate.subcodes || (error.subcode !== null && candidate.subcodes.includes(error.subcode))) &&
      (!candidate.steps || candidate.steps.includes(step)),
  );
  if (rule) return { code: `meta_${snake(rule.key)}`, message: messages.whatsappConnect.errors[rule.key], upstream: UPSTREAM.has(rule.key) };
  return {
    code: 'meta_refused',
    message: fillMessage(messages.whatsappConnect.errors.refused, { code: error.code ?? error.status ?? 0, reason: error.message }),
    upstream: true,
  };
}
