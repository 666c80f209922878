import { AxiosError, type AxiosAdapter, type AxiosResponse } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPost, http, setUnauthorizedHandler } from './client';
import { ApiError } from './errors';

/** Answers each `METHOD url` as listed, as the server would (a 4xx rejects as axios does). */
function serverAnswering(routes: Record<string, { status: number; data: unknown }>): { adapter: AxiosAdapter; asked: string[] } {
  const asked: string[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const key = `${(config.method ?? 'get').toUpperCase()} ${config.url ?? ''}`;
    asked.push(key);
    const answer = routes[key];
    if (!answer) throw new Error(`not expected: ${key}`);
    const response: AxiosResponse = { data: answer.data, status: answer.status, statusText: '', headers: {}, config, request: {} };
    if (answer.status >= 400) throw new AxiosError('Request failed', AxiosError.ERR_BAD_REQUEST, config, {}, response);
    return response;
  };
  return { adapter, asked };
}

const tooLarge = { status: 413, data: { success: false, error: 'The request is too large.', code: 'body_too_large' } };
const send = 'POST /api/whatsapp/send-custom-messages';

describe('the API client on a body too large', () => {
  const adapterBefore = http.defaults.adapter;
  afterEach(() => {
    http.defaults.adapter = adapterBefore;
    setUnauthorizedHandler(null);
  });

  it('says the session ended, and signs out once, when the 413 came because there was no session', async () => {
    const server = serverAnswering({ [send]: tooLarge, 'GET /api/auth/me': { status: 401, data: { success: false, error: 'Your session has expired.', code: 'session_expired' } } });
    http.defaults.adapter = server.adapter;
    let signedOut = 0;
    setUnauthorizedHandler(() => (signedOut += 1));
    const refusal = await apiPost('/api/whatsapp/send-custom-messages', { recipients: [] }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 401, code: 'session_expired', message: 'Your session has expired.' });
    expect(signedOut).toBe(1);
    expect(server.asked).toEqual([send, 'GET /api/auth/me']);
  });

  it('keeps the 413 for a signed-in caller whose body is simply too large', async () => {
    const server = serverAnswering({ [send]: tooLarge, 'GET /api/auth/me': { status: 200, data: { user: { id: 1 } } } });
    http.defaults.adapter = server.adapter;
    let signedOut = 0;
    setUnauthorizedHandler(() => (signedOut += 1));
    const refusal = await apiPost('/api/whatsapp/send-custom-messages', { recipients: [] }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 413, code: 'body_too_large', message: 'The request is too large.' });
    expect(signedOut).toBe(0);
  });
});
