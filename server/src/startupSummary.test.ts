import { describe, expect, it } from 'vitest';
import { startupSummary, type StartupSummaryInput } from './startupSummary';

const brand = { name: 'Sandesh', supportPhone: '', supportEmail: '', supportAddress: '' };
const base: StartupSummaryInput = {
  url: 'http://127.0.0.1:3000',
  admin: { username: 'admin', created: true, generatedPassword: 'pn0pzuawFIwBZLrr' },
  config: { brand, simulatorEnabled: true, platformCloudApi: null, providers: { whatsappApiVersion: 'v23.0' } },
  now: new Date('2026-12-07T07:30:00Z'),
};

describe('startupSummary', () => {
  it('ends a first start with the URL, the generated password, the simulator inbox and how to stop', () => {
    expect(startupSummary(base).split('\n')).toEqual([
      '',
      '  Sandesh is running at http://127.0.0.1:3000',
      '  Admin: admin (password: pn0pzuawFIwBZLrr — shown once)',
      '  Reset codes and other platform messages: http://127.0.0.1:3000/simulator/messages (add ?to=<phone digits> for one number)',
      '  Graph API: v23.0 (Meta answers it until 2027-10-08)',
      '  Stop: Ctrl+C',
      '',
      '',
    ]);
  });

  it('names ADMIN_PASSWORD as the password of an admin created from it, and never prints it', () => {
    const text = startupSummary({ ...base, admin: { username: 'owner', created: true, generatedPassword: null } });
    expect(text).toContain('Admin: owner (password from ADMIN_PASSWORD)');
  });

  it('says an admin from an earlier start keeps its password', () => {
    const text = startupSummary({ ...base, admin: { username: 'admin', created: false, generatedPassword: null } });
    expect(text).toContain('Admin: admin (created on an earlier start; its password is unchanged)');
  });

  it("sends reset codes from the platform's number when one is configured, and says when none can be sent", () => {
    const platformCloudApi = { phoneNumberId: '1', accessToken: 't', otpTemplate: 'otp', inviteTemplate: 'invite' };
    expect(startupSummary({ ...base, config: { ...base.config, platformCloudApi } })).toContain("sent on WhatsApp from the platform's number");
    expect(startupSummary({ ...base, config: { ...base.config, simulatorEnabled: false } })).toContain('not sent (no simulator and no platform number configured)');
  });

  it('warns in the summary when the configured Graph API version retires within 90 days', () => {
    const config = { ...base.config, providers: { whatsappApiVersion: 'v21.0' } };
    expect(startupSummary({ ...base, config })).toContain('WARNING Graph API: v21.0 is retired by Meta on 2027-01-21 (45 days left): set WHATSAPP_API_VERSION to a newer version');
    expect(startupSummary({ ...base, config: { ...base.config, providers: { whatsappApiVersion: 'v26.0' } } })).toContain('  Graph API: v26.0\n');
  });
});
