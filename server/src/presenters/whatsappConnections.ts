import { CONNECTION_STEPS, type TConnectionStepState, type TConnectSetup, type TWhatsappConnection } from '@shared/schemas/whatsappConnections';
import type { SignupTarget, WhatsappConnectionRow } from '../providerAccounts/embeddedSignup';

/** Meta's JavaScript SDK (Embedded Signup launches through its FB.login). */
export const META_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
/** The simulator's stand-in for it, mounted with the simulator (simulator/embeddedSignup.ts). */
export const SIMULATOR_SDK_PATH = '/simulator/embedded-signup/sdk.js';

function iso(value: string | Date | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** A connection with each step's state; secrets (token, PIN) never leave the server. */
export function presentConnection(row: WhatsappConnectionRow): TWhatsappConnection {
  const current = row.step === 'done' ? CONNECTION_STEPS.length : CONNECTION_STEPS.indexOf(row.step);
  const stateOf = (index: number): TConnectionStepState => {
    if (index < current) return 'done';
    if (index > current) return 'pending';
    if (row.status === 'failed') return 'failed';
    return row.status === 'in_progress' ? 'running' : 'pending';
  };
  return {
    id: Number(row.id),
    status: row.status,
    step: row.step,
    steps: CONNECTION_STEPS.map((step, index) => ({ step, state: stateOf(index) })),
    waba_id: row.wabaId,
    phone_number_id: row.phoneNumberId,
    display_phone_number: row.displayPhoneNumber,
    verified_name: row.verifiedName,
    quality_rating: row.qualityRating,
    messaging_limit_tier: row.messagingLimitTier,
    templates_imported: row.templatesImported,
    number_id: row.whatsappNumberId === null ? null : Number(row.whatsappNumberId),
    sandbox: Boolean(row.sandbox),
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '', meta_code: row.metaCode, meta_subcode: row.metaSubcode } : null,
    needs_code: row.status === 'failed' && row.step === 'exchange',
    created_at: iso(row.createdAt) ?? '',
    updated_at: iso(row.updatedAt) ?? '',
    connected_at: iso(row.connectedAt),
  };
}

/** How the web launches the signup; `simulatorUrl`: a simulator on its own port (SIMULATOR_URL), else the one mounted here. */
export function presentConnectSetup(target: SignupTarget | null, simulatorUrl: string | undefined): TConnectSetup {
  if (!target) return { enabled: false, sandbox: false, app_id: '', config_id: '', sdk_url: '', graph_version: '' };
  return {
    enabled: true,
    sandbox: target.sandbox,
    app_id: target.appId,
    config_id: target.configId,
    sdk_url: target.sandbox ? (simulatorUrl ? `${simulatorUrl}/embedded-signup/sdk.js` : SIMULATOR_SDK_PATH) : META_SDK_URL,
    graph_version: target.version,
  };
}
