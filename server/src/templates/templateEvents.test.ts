import { describe, expect, it } from 'vitest';
import { metaRejectionText, metaTemplateStatusMove } from './templateEvents';

const approvedByAdmin = { reviewedAt: '2026-12-01T00:00:00.000Z', rejectionReason: null };
const neverReviewed = { reviewedAt: null, rejectionReason: null };

describe('metaTemplateStatusMove', () => {
  it('never moves a draft', () => {
    for (const event of ['APPROVED', 'REJECTED', 'PAUSED', 'DISABLED']) expect(metaTemplateStatusMove(event, { status: 'DRAFT', ...neverReviewed })).toBeNull();
  });

  it("never lets Meta's approval skip the administrator's review", () => {
    expect(metaTemplateStatusMove('APPROVED', { status: 'PENDING', ...neverReviewed })).toBeNull();
    expect(metaTemplateStatusMove('REINSTATED', { status: 'PAUSED', ...neverReviewed })).toBeNull();
  });

  it("approves a template in review at Meta (the administrator approved it) on Meta's approval", () => {
    expect(metaTemplateStatusMove('APPROVED', { status: 'PENDING', ...approvedByAdmin })).toBe('APPROVED');
    // Rejected by the administrator before, submitted again and not yet reviewed again: Meta does not decide alone.
    expect(metaTemplateStatusMove('APPROVED', { status: 'PENDING', reviewedAt: '2026-12-01T00:00:00.000Z', rejectionReason: 'Not allowed' })).toBeNull();
    expect(metaTemplateStatusMove('REJECTED', { status: 'PENDING', ...approvedByAdmin })).toBe('REJECTED');
  });

  it("reads Meta's rejection reason out in the catalogue's words", () => {
    expect(metaRejectionText('INVALID_FORMAT')).toBe('Meta rejected the template: the format is invalid (variables, examples or components)');
    expect(metaRejectionText('SOMETHING_NEW')).toBe('Meta rejected the template: SOMETHING_NEW');
    expect(metaRejectionText('NONE')).toBe('Meta rejected the template: Meta gave no reason');
    expect(metaRejectionText(null)).toBe('Meta rejected the template: Meta gave no reason');
  });

  it('puts back in use a template the administrator approved and Meta paused', () => {
    expect(metaTemplateStatusMove('REINSTATED', { status: 'PAUSED', ...approvedByAdmin })).toBe('APPROVED');
    expect(metaTemplateStatusMove('APPROVED', { status: 'DISABLED', ...approvedByAdmin })).toBe('APPROVED');
  });

  it('takes a template out of use for each closing event', () => {
    const approved = { status: 'APPROVED', ...approvedByAdmin };
    expect(metaTemplateStatusMove('PAUSED', approved)).toBe('PAUSED');
    expect(metaTemplateStatusMove('DISABLED', approved)).toBe('DISABLED');
    expect(metaTemplateStatusMove('PENDING_DELETION', approved)).toBe('DISABLED');
    expect(metaTemplateStatusMove('ARCHIVED', approved)).toBe('DISABLED');
    expect(metaTemplateStatusMove('REJECTED', approved)).toBe('REJECTED');
    expect(metaTemplateStatusMove('LIMIT_EXCEEDED', { status: 'PENDING', ...neverReviewed })).toBe('REJECTED');
    expect(metaTemplateStatusMove('IN_APPEAL', { status: 'REJECTED', ...neverReviewed })).toBe('APPEAL_REQUESTED');
  });

  it('leaves the status alone for FLAGGED, PENDING and events it does not know', () => {
    for (const event of ['FLAGGED', 'PENDING', 'SOMETHING_NEW']) expect(metaTemplateStatusMove(event, { status: 'APPROVED', ...approvedByAdmin })).toBeNull();
  });
});
