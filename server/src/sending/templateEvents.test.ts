import { describe, expect, it } from 'vitest';
import { metaTemplateStatusMove } from './templateEvents';

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
