import { z } from 'zod';
import { messages } from '../messages';

/**
 * Connect WhatsApp yourself: Meta's Embedded Signup, finished on the server (code exchange, app
 * subscription, registration, the number's read, storing it, template sync). See
 * docs/decisions/2026-12-07-embedded-signup.md.
 */

/** The steps in the order the server runs them. */
export const CONNECTION_STEPS = ['exchange', 'subscribe', 'register', 'read', 'store', 'templates'] as const;
export type TConnectionStep = (typeof CONNECTION_STEPS)[number];
export type TConnectionStatus = 'in_progress' | 'failed' | 'connected' | 'disconnected';
export type TConnectionStepState = 'done' | 'running' | 'failed' | 'pending';

/** Meta's two-step verification PIN: six digits (Meta: "Register a business phone number"). */
export const ZRegistrationPin = z.string().regex(/^\d{6}$/, { error: messages.whatsappConnect.pinInvalid });

const metaId = (field: string) => z.string().trim().regex(/^\d{1,30}$/, { error: `${field}: ${messages.whatsappConnect.idInvalid}` });

/** POST /api/whatsapp/connections: what the session-info message and FB.login gave, and the PIN. */
export const ZStartConnectionRequest = z.object({
  code: z.string().trim().min(1, { error: messages.whatsappConnect.codeMissing }).max(2_000),
  waba_id: metaId('waba_id'),
  phone_number_id: metaId('phone_number_id'),
  pin: ZRegistrationPin,
});
export type TStartConnectionRequest = z.infer<typeof ZStartConnectionRequest>;

/** POST /api/whatsapp/connections/{id}/resume: a new PIN (after Meta refused the PIN) or a new code (after the exchange failed). */
export const ZResumeConnectionRequest = z.object({
  pin: ZRegistrationPin.optional(),
  code: z.string().trim().min(1).max(2_000).optional(),
});
export type TResumeConnectionRequest = z.infer<typeof ZResumeConnectionRequest>;

/** The PIN form of the Connect WhatsApp card. */
export const ZConnectPinForm = z.object({ pin: ZRegistrationPin });
export type TConnectPinForm = z.infer<typeof ZConnectPinForm>;

export interface TConnectionStepView {
  step: TConnectionStep;
  state: TConnectionStepState;
}

export interface TWhatsappConnection {
  id: number;
  status: TConnectionStatus;
  step: TConnectionStep | 'done';
  steps: TConnectionStepView[];
  waba_id: string;
  phone_number_id: string;
  display_phone_number: string | null;
  verified_name: string | null;
  quality_rating: string | null;
  messaging_limit_tier: string | null;
  templates_imported: number | null;
  /** Our sender number's id once stored. */
  number_id: number | null;
  sandbox: boolean;
  /** The failure's catalogue text and stable code, and Meta's code when Meta refused. */
  error: { code: string; message: string; meta_code: number | null; meta_subcode: number | null } | null;
  /** Whether resuming needs a new code from Meta (the exchange failed: Meta's codes are used once). */
  needs_code: boolean;
  created_at: string;
  updated_at: string;
  connected_at: string | null;
}

/** How the web launches Embedded Signup: Meta's SDK, or the simulator's stand-in in the sandbox. */
export interface TConnectSetup {
  enabled: boolean;
  sandbox: boolean;
  app_id: string;
  config_id: string;
  sdk_url: string;
  graph_version: string;
}
