/**
 * The platform's own sender (password-reset codes, team invitations) as sending and the simulator see it: its
 * number's id in the simulator and its authentication template. The messenger that sends through
 * it is platformMessages/platformMessenger.ts.
 */
import { AUTH, TEAM } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplateComponent } from '@shared/types';

/** The simulator's id for the platform's own sender number. */
export const PLATFORM_PHONE_NUMBER_ID = 'platform';

export const PLATFORM_OTP_TEMPLATE = 'password_reset_code';

/** The platform's utility template that carries a team invitation: account, role, link. */
export const PLATFORM_INVITE_TEMPLATE = 'team_invitation';

/** The platform's authentication template as the simulator renders it. */
export function platformAuthenticationTemplate(name: string, brandName = 'Sandesh'): TTemplateComponent[] | null {
  if (name !== PLATFORM_OTP_TEMPLATE) return null;
  return [
    { type: 'BODY', text: fillMessage(messages.auth.otpMessage, { code: '{{1}}', brand: brandName, minutes: AUTH.otpTtlMinutes }) },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', text: 'Copy code', otp_type: 'COPY_CODE' }] },
  ];
}

/** The platform's team-invitation template as the simulator renders it. */
export function platformInviteTemplate(brandName = 'Sandesh'): TTemplateComponent[] {
  return [{ type: 'BODY', text: fillMessage(messages.team.inviteWhatsApp, { account: '{{1}}', role: '{{2}}', link: '{{3}}', brand: brandName, days: TEAM.inviteTtlDays }) }];
}

/** Any of the platform's own templates by name, as the simulator finds them; null for another name. */
export function platformTemplate(name: string, brandName = 'Sandesh'): TTemplateComponent[] | null {
  if (name === PLATFORM_INVITE_TEMPLATE) return platformInviteTemplate(brandName);
  return platformAuthenticationTemplate(name, brandName);
}

/** The category Meta bills a platform template at. */
export function platformTemplateCategory(name: string): 'AUTHENTICATION' | 'UTILITY' {
  return name === PLATFORM_INVITE_TEMPLATE ? 'UTILITY' : 'AUTHENTICATION';
}
