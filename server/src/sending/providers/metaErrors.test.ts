import { describe, expect, it } from 'vitest';
import { META_ERROR_CODES_PAGE, META_ERROR_TABLE, MISSING_CREDENTIALS_CODE, NETWORK_ERROR_CODE, metaErrorHandling } from './metaErrors';
import { interpretAnswer } from './http';

const answer = (code: number, extra: Record<string, unknown> = {}) => JSON.stringify({ error: { message: `(#${code}) Something`, type: 'OAuthException', code, error_data: { details: 'why' }, fbtrace_id: 'AbC123', ...extra } });

describe('the Meta error table, row by row', () => {
  const expected: [number, string, string | null][] = [
    [130429, 'retry', 'number'],
    [131056, 'retry', 'pair'],
    [131057, 'retry', 'account'],
    [131048, 'retry', 'number'],
    [80007, 'retry', 'account'],
    [4, 'retry', 'account'],
    [131026, 'fail', null],
    [131047, 'fail', null],
    [131051, 'fail', null],
    [131052, 'fail', null],
    [132000, 'fail', null],
    [132005, 'fail', null],
    [132007, 'fail', null],
    [132012, 'fail', null],
    [100, 'fail', null],
    [131009, 'fail', null],
    [190, 'stop_sender', null],
    [368, 'stop_sender', null],
    [131031, 'stop_sender', null],
    [131042, 'stop_sender', null],
    [133010, 'stop_sender', null],
    [10, 'stop_sender', null],
    [200, 'stop_sender', null],
    [3, 'stop_sender', null],
    [132001, 'template', null],
    [132015, 'template', null],
    [132016, 'template', null],
  ];
  it.each(expected)('%i: %s', (code, action, scope) => {
    const handling = metaErrorHandling({ code, httpStatus: 400 });
    expect(handling.action).toBe(action);
    expect(handling.scope).toBe(scope);
    expect(handling.row?.codes).toContain(code);
  });

  it('moves the template to PAUSED for 132015 and to DISABLED for 132016 and 132001', () => {
    expect(metaErrorHandling({ code: 132015 }).templateStatus).toBe('PAUSED');
    expect(metaErrorHandling({ code: 132016 }).templateStatus).toBe('DISABLED');
    expect(metaErrorHandling({ code: 132001 }).templateStatus).toBe('DISABLED');
  });

  it.each([131000, 131016, 2])('%i is retried when transient or 5xx, failed otherwise', (code) => {
    expect(metaErrorHandling({ code, httpStatus: 400, isTransient: true }).action).toBe('retry');
    expect(metaErrorHandling({ code, httpStatus: 503 }).action).toBe('retry');
    expect(metaErrorHandling({ code, httpStatus: 400, isTransient: false }).action).toBe('fail');
    expect(metaErrorHandling({ code, httpStatus: 400 }).action).toBe('fail');
  });

  it('retries network errors, stops a sender without credentials, and judges unknown codes by Meta\'s flag and the HTTP status', () => {
    expect(metaErrorHandling({ code: NETWORK_ERROR_CODE }).action).toBe('retry');
    expect(metaErrorHandling({ code: MISSING_CREDENTIALS_CODE }).action).toBe('stop_sender');
    expect(metaErrorHandling({ code: 999_999, httpStatus: 400 }).action).toBe('fail');
    expect(metaErrorHandling({ code: 999_999, httpStatus: 502 }).action).toBe('retry');
    expect(metaErrorHandling({ code: 999_999, httpStatus: 400, isTransient: true }).action).toBe('retry');
  });

  it('has one row per code, each citing its source', () => {
    const codes = META_ERROR_TABLE.flatMap((row) => row.codes);
    expect(new Set(codes).size).toBe(codes.length);
    for (const row of META_ERROR_TABLE) expect(row.source).toMatch(/^https:\/\/developers\.facebook\.com\//);
    expect(META_ERROR_TABLE.filter((row) => row.source === META_ERROR_CODES_PAGE).length).toBeGreaterThan(30);
  });

  it('reads every field of Meta\'s error object from an answer', () => {
    const result = interpretAnswer(400, answer(131048, { error_subcode: 2494010, is_transient: false }));
    expect(result).toMatchObject({ ok: false, code: 131048, retryable: true, subcode: 2494010, isTransient: false, details: 'why', fbtraceId: 'AbC123', httpStatus: 400 });
    expect(interpretAnswer(401, answer(190))).toMatchObject({ ok: false, code: 190, retryable: false, handling: { action: 'stop_sender' } });
    expect(interpretAnswer(400, answer(131000, { is_transient: true }))).toMatchObject({ retryable: true });
    expect(interpretAnswer(400, answer(131000))).toMatchObject({ retryable: false });
  });
});
