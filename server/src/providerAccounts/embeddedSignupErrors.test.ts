import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { SignupGraphError, signupFailureFor } from './embeddedSignupErrors';

const e = messages.whatsappConnect.errors;

describe('signupFailureFor', () => {
  it('reads an OAuth code error by its subcode, and only at the exchange', () => {
    expect(signupFailureFor('exchange', new SignupGraphError(400, 100, 36007, 'expired'))).toEqual({ code: 'meta_code_expired', message: e.codeExpired, upstream: false });
    expect(signupFailureFor('exchange', new SignupGraphError(400, 100, 36009, 'used'))).toMatchObject({ code: 'meta_code_used', message: e.codeUsed });
    expect(signupFailureFor('exchange', new SignupGraphError(400, 100, null, 'bad'))).toMatchObject({ code: 'meta_code_invalid' });
    expect(signupFailureFor('subscribe', new SignupGraphError(400, 100, 36007, 'x'))).toMatchObject({ code: 'meta_waba_not_found' });
  });

  it('tells the platform, not the business, when our app secret is wrong; elsewhere code 1 is Meta being unavailable', () => {
    expect(signupFailureFor('exchange', new SignupGraphError(400, 1, null, 'Error validating client secret.'))).toMatchObject({ code: 'meta_app_misconfigured', upstream: true });
    expect(signupFailureFor('register', new SignupGraphError(500, 1, null, 'unknown'))).toMatchObject({ code: 'meta_unavailable', upstream: true });
  });

  it('maps registration codes to their own texts', () => {
    expect(signupFailureFor('register', new SignupGraphError(400, 133005, null, 'PIN'))).toMatchObject({ message: e.pinMismatch, upstream: false });
    expect(signupFailureFor('register', new SignupGraphError(429, 133016, null, 'limit'))).toMatchObject({ message: e.registerRateLimit, upstream: true });
  });

  it('says Meta was unreachable when no answer came, and quotes an unknown code with its reason', () => {
    expect(signupFailureFor('read', new SignupGraphError(null, null, null, 'ECONNREFUSED'))).toEqual({ code: 'meta_unavailable', message: e.unavailable, upstream: true });
    expect(signupFailureFor('read', new SignupGraphError(400, 4242, null, 'Odd'))).toEqual({ code: 'meta_refused', message: 'Meta refused the step (4242: Odd).', upstream: true });
  });
});
