import { describe, expect, it } from 'vitest';
import type { TConnectSetup } from '@shared/schemas/whatsappConnections';
import { isSignupOrigin, readSessionInfo } from './embeddedSignup';

const live: TConnectSetup = { enabled: true, sandbox: false, app_id: '1', config_id: '2', sdk_url: 'https://connect.facebook.net/en_US/sdk.js', graph_version: 'v23.0' };
const sandbox: TConnectSetup = { ...live, sandbox: true, sdk_url: '/simulator/embedded-signup/sdk.js' };

describe('readSessionInfo', () => {
  it("reads Meta's JSON string and ignores every other message", () => {
    const finish = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', version: '3', data: { phone_number_id: '22', waba_id: '11' } });
    expect(readSessionInfo(finish)).toEqual({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id: '22', waba_id: '11' } });
    expect(readSessionInfo({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_SETUP' } })?.event).toBe('CANCEL');
    expect(readSessionInfo('not json')).toBeNull();
    expect(readSessionInfo({ type: 'SOMETHING_ELSE', event: 'FINISH' })).toBeNull();
  });
});

describe('isSignupOrigin', () => {
  it('accepts facebook.com over https only when live', () => {
    expect(isSignupOrigin('https://www.facebook.com', live, 'https://app.example.in/user/dashboard')).toBe(true);
    expect(isSignupOrigin('https://facebook.com', live, 'https://app.example.in/')).toBe(true);
    expect(isSignupOrigin('https://evilfacebook.com', live, 'https://app.example.in/')).toBe(false);
    expect(isSignupOrigin('http://www.facebook.com', live, 'https://app.example.in/')).toBe(false);
    expect(isSignupOrigin('https://app.example.in', live, 'https://app.example.in/')).toBe(false);
  });

  it("accepts the simulator's origin in the sandbox, nothing else", () => {
    expect(isSignupOrigin('http://127.0.0.1:3000', sandbox, 'http://127.0.0.1:3000/user/dashboard')).toBe(true);
    expect(isSignupOrigin('https://www.facebook.com', sandbox, 'http://127.0.0.1:3000/user/dashboard')).toBe(false);
  });
});
