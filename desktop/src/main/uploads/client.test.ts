import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { refusalText, retryAfterMs } from './client';

describe('refusalText', () => {
  it('gives the catalogue text of each refusal, the server own text where it says more', () => {
    expect(refusalText(401, { error: 'Unauthorized' })).toBe(messages.uploadClient.sessionEnded);
    expect(refusalText(403, null)).toBe(messages.uploadClient.forbidden);
    expect(refusalText(404, { error: messages.uploads.notFound })).toBe(messages.uploadClient.notFound);
    expect(refusalText(409, { error: 'Your uploads already hold 2 MB of your 2 MB.' })).toBe('Your uploads already hold 2 MB of your 2 MB.');
    expect(refusalText(409, null)).toBe(messages.uploadClient.conflict);
    expect(refusalText(413, {})).toBe(messages.uploadClient.tooLarge);
    expect(refusalText(422, { error: messages.uploads.checksumMismatch })).toBe(messages.uploadClient.checksumMismatch);
    expect(refusalText(400, { error: 'Part 3 must be exactly 16,384 bytes' })).toBe('The server refused the upload: Part 3 must be exactly 16,384 bytes');
    expect(refusalText(418, null)).toBe('The server refused the upload: HTTP 418');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(['0'], now)).toBe(0);
    expect(retryAfterMs('Tue, 24 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});
