import { describe, expect, it } from 'vitest';
import { GRAPH_API_RETIREMENTS, retirementWarning, versionRetirement } from './graphApiVersions';

describe('Graph API version retirement', () => {
  it("holds Meta's announced dates", () => {
    expect(GRAPH_API_RETIREMENTS).toMatchObject({ 'v21.0': '2027-01-21', 'v22.0': '2027-05-20', 'v23.0': '2027-10-08', 'v24.0': '2028-02-18', 'v25.0': '2028-07-29' });
  });

  it('warns from 90 days before the date, not 91', () => {
    expect(retirementWarning('v21.0', new Date('2026-10-22T23:00:00Z'))).toBeNull();
    expect(versionRetirement('v21.0', new Date('2026-10-22T12:00:00Z'))).toEqual({ version: 'v21.0', availableUntil: '2027-01-21', daysLeft: 91, warn: false });
    expect(retirementWarning('v21.0', new Date('2026-10-23T00:00:00Z'))).toBe(
      'WHATSAPP_API_VERSION v21.0 is retired by Meta on 2027-01-21 (in 90 days): sends will fail after that day. Set WHATSAPP_API_VERSION to a newer version.',
    );
  });

  it('warns about v21.0 today and not about the default v23.0', () => {
    const today = new Date('2026-12-07T07:30:00Z');
    expect(retirementWarning('v21.0', today)).toContain('in 45 days');
    expect(retirementWarning('v23.0', today)).toBeNull();
  });

  it('says a past date has passed, and says nothing of a version without an announced date', () => {
    expect(retirementWarning('v22.0', new Date('2027-05-21T00:00:00Z'))).toContain('was retired by Meta on 2027-05-20');
    expect(retirementWarning('v26.0', new Date('2027-05-21T00:00:00Z'))).toBeNull();
    expect(versionRetirement('v26.0', new Date())).toBeNull();
  });
});
