/**
 * The platform's own sender (password-reset codes) as sending and the simulator see it: its
 * number's id in the simulator and its authentication template. The messenger that sends through
 * it is platformMessages/platformMessenger.ts.
 */
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplateComponent } from '@shared/types';

/** The simulator's id for the platform's own sender number. */
export const PLATFORM_PHONE_NUMBER_ID = 'platform';

export const PLATFORM_OTP_TEMPLATE = 'password_reset_code';

/** The platform's authentication template as the simulator renders it. */
export function platformAuthenticationTemplate(name: string, brandName = 'Sandesh'): TTemplateComponent[] | null {
  if (name !== PLATFORM_OTP_TEMPLATE) return null;
  return [
    { type: 'BODY', text: fillMessage(messages.auth.otpMessage, { code: '{{1}}', brand: brandName, minutes: AUTH.otpTtlMinutes }) },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', text: 'Copy code', otp_type: 'COPY_CODE' }] },
  ];
}
