import type { TPublicConfig } from '@shared/types';

/** What the legal texts need from the public configuration. */
export interface LegalContext {
  brandName: string;
  support: TPublicConfig['support'];
}

/** The legal entity behind the service (spec 000 §1). */
export const LEGAL_ENTITY = {
  form: 'sole proprietorship',
  city: 'Hyderabad',
  state: 'Telangana',
  country: 'India',
  jurisdiction: 'Hyderabad, Telangana',
} as const;

export interface PolicyMailboxes {
  privacy: string;
  dataProtectionOfficer: string;
  grievanceOfficer: string;
}

/**
 * The privacy, data protection officer and grievance officer mailboxes, on the support
 * address's domain so that a deployment only configures one address. Without a usable
 * domain every mailbox falls back to the support address itself.
 */
export function policyMailboxes(supportEmail: string): PolicyMailboxes {
  const at = supportEmail.lastIndexOf('@');
  const domain = at > 0 ? supportEmail.slice(at + 1).trim() : '';
  if (!domain || !domain.includes('.')) {
    return { privacy: supportEmail, dataProtectionOfficer: supportEmail, grievanceOfficer: supportEmail };
  }
  return {
    privacy: `privacy@${domain}`,
    dataProtectionOfficer: `dpo@${domain}`,
    grievanceOfficer: `grievance@${domain}`,
  };
}

/** A `tel:` link target: digits and a leading plus only. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}
