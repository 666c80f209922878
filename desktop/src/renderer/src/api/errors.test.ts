import { describe, expect, it } from 'vitest';
import { ApiError, errorText, serverFieldErrors, toApiError } from './errors';

/** The shape axios rejects with; `isAxiosError` is how axios itself recognises it. */
function axiosFailure(response?: { status: number; data: unknown }) {
  return Object.assign(new Error('Request failed'), { isAxiosError: true, response, config: {} });
}

describe('toApiError', () => {
  it('carries the server error text, code, field and details', () => {
    const error = toApiError(
      axiosFailure({
        status: 409,
        data: {
          error: 'Username is already taken',
          code: 'username_taken',
          field: 'username',
          details: [{ field: 'username', message: 'Username is already taken' }, { bad: true }],
        },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('Username is already taken');
    expect(error.serverMessage).toBe('Username is already taken');
    expect(error.code).toBe('username_taken');
    expect(error.field).toBe('username');
    expect(error.details).toEqual([{ field: 'username', message: 'Username is already taken' }]);
    expect(error.isNetworkError).toBe(false);
  });

  it('marks a request without an answer as a network error', () => {
    const error = toApiError(axiosFailure());
    expect(error.status).toBe(0);
    expect(error.isNetworkError).toBe(true);
    expect(error.message).toBe('Network error occurred');
  });

  it('falls back to catalogue texts when the body is not the error shape', () => {
    expect(toApiError(axiosFailure({ status: 502, data: '<html>Bad gateway</html>' })).message).toBe(
      'Something went wrong on our side. Please try again.',
    );
    const notFound = toApiError(axiosFailure({ status: 404, data: {} }));
    expect(notFound.code).toBe('http_404');
    expect(notFound.serverMessage).toBeUndefined();
  });

  it('wraps errors that did not come from axios', () => {
    expect(toApiError(new Error('boom')).message).toBe('boom');
    expect(toApiError('weird').message).toBe('Unknown error');
  });
});

describe('errorText', () => {
  it('prefers the server text, then the network fallback, then the screen fallback', () => {
    const server = axiosFailure({ status: 401, data: { error: 'Invalid username or password', code: 'x' } });
    expect(errorText(server, 'Login failed')).toBe('Invalid username or password');
    expect(errorText(axiosFailure(), 'Login failed')).toBe('Network error occurred');
    expect(errorText(axiosFailure(), 'x', 'Network error. Please try again.')).toBe('Network error. Please try again.');
    expect(errorText(axiosFailure({ status: 500, data: {} }), 'Login failed')).toBe('Login failed');
  });
});

describe('serverFieldErrors', () => {
  it('maps details and the named field to form fields', () => {
    const error = axiosFailure({
      status: 400,
      data: {
        error: 'Invalid email format',
        code: 'validation',
        field: 'email',
        details: [{ field: 'phoneNumber', message: 'Bad phone' }],
      },
    });
    expect(serverFieldErrors(error)).toEqual({ phoneNumber: 'Bad phone', email: 'Invalid email format' });
    expect(serverFieldErrors(axiosFailure())).toEqual({});
  });
});
