import { describe, expect, it } from 'vitest';
import { policyMailboxes, telHref } from './common';

describe('policyMailboxes', () => {
  it('puts the privacy, DPO and grievance mailboxes on the support domain', () => {
    expect(policyMailboxes('support@sandesh.example')).toEqual({
      privacy: 'privacy@sandesh.example',
      dataProtectionOfficer: 'dpo@sandesh.example',
      grievanceOfficer: 'grievance@sandesh.example',
    });
  });

  it('falls back to the support address when it has no usable domain', () => {
    expect(policyMailboxes('support')).toEqual({
      privacy: 'support',
      dataProtectionOfficer: 'support',
      grievanceOfficer: 'support',
    });
    expect(policyMailboxes('help@localhost').privacy).toBe('help@localhost');
  });
});

describe('telHref', () => {
  it('keeps a leading plus and drops spaces and punctuation', () => {
    expect(telHref('+91 40 0000 0000')).toBe('tel:+914000000000');
    expect(telHref('(040) 1234-5678')).toBe('tel:04012345678');
  });
});
