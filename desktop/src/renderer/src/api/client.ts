import axios, { type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { DESKTOP_CLIENT_HEADER, DESKTOP_CLIENT_VALUE, DEVICE_ID_HEADER } from '@shared/constants';
import { platform } from '../platform';
import { ApiError, toApiError } from './errors';

/** The server's code for a body over its route's limit (server/src/errors.ts). */
const BODY_TOO_LARGE = 'body_too_large';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * A 401 from this call is an expected answer (wrong password, "no session yet"), not a sign
     * that the session ended: do not run the unauthorized handler.
     */
    skipUnauthorizedHandler?: boolean;
  }
}

type UnauthorizedHandler = () => void;

let unauthorizedHandler: UnauthorizedHandler | null = null;
/** Desktop only: the bearer token (the web sends its httpOnly cookie instead). */
let authToken: string | null = null;

/** The session layer decides what a 401 means for the app; the client only reports it. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

type NetworkTroubleHandler = () => void;
let networkTroubleHandler: NetworkTroubleHandler | null = null;

/** Told when a request got no answer at all (the offline banner checks the server then). */
export function setNetworkTroubleHandler(handler: NetworkTroubleHandler | null): void {
  networkTroubleHandler = handler;
}

export function setAuthToken(token: string | null): void {
  authToken = token;
}

export const http = axios.create({
  headers: { Accept: 'application/json' },
  withCredentials: platform.kind === 'web',
  timeout: 30_000,
});

http.interceptors.request.use(async (config: InternalAxiosRequestConfig) => {
  config.baseURL = await platform.serverUrl();
  if (platform.kind === 'desktop') {
    config.headers.set(DESKTOP_CLIENT_HEADER, DESKTOP_CLIENT_VALUE);
    if (authToken) config.headers.set('Authorization', `Bearer ${authToken}`);
    // Read by sign-in: this install is one device across launches.
    const deviceId = await platform.deviceId();
    if (deviceId) config.headers.set(DEVICE_ID_HEADER, deviceId);
  }
  return config;
});

/**
 * The server's 401 when the session has ended, else null; asked with a call whose 401 is expected.
 * A body larger than a caller without a session may send is refused with 413 before the session
 * is looked at (the send calls' large limit is a signed-in caller's): a large send made
 * after the session ended would otherwise read "too large" where the answer is "sign in again".
 */
async function sessionEndedError(): Promise<ApiError | null> {
  try {
    await http.get('/api/auth/me', { skipUnauthorizedHandler: true });
    return null;
  } catch (error) {
    return error instanceof ApiError && error.status === 401 ? error : null;
  }
}

http.interceptors.response.use(
  (response) => response,
  async (error: unknown) => {
    let apiError = toApiError(error);
    const config: AxiosRequestConfig | undefined = axios.isAxiosError(error) ? error.config : undefined;
    if (apiError.status === 413 && apiError.code === BODY_TOO_LARGE && !config?.skipUnauthorizedHandler) apiError = (await sessionEndedError()) ?? apiError;
    if (apiError.status === 401 && !config?.skipUnauthorizedHandler) unauthorizedHandler?.();
    // No response and not cancelled by the app: the network or the server is gone.
    if (axios.isAxiosError(error) && !error.response && error.code !== 'ERR_CANCELED') networkTroubleHandler?.();
    return Promise.reject(apiError);
  },
);

export async function apiGet<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  return (await http.get<T>(url, config)).data;
}

/**
 * A POST without a body still sends `{}` as JSON: the server refuses a POST authenticated by the
 * session cookie that does not declare JSON (or an upload), as a forged form would not
 * (server/src/middleware/crossSite.ts).
 */
export async function apiPost<T>(url: string, body: unknown = {}, config?: AxiosRequestConfig): Promise<T> {
  return (await http.post<T>(url, body, config)).data;
}

export async function apiPut<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await http.put<T>(url, body, config)).data;
}

export async function apiPatch<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await http.patch<T>(url, body, config)).data;
}

export async function apiDelete<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  return (await http.delete<T>(url, config)).data;
}

export interface UploadOptions {
  /** Called with the share sent so far (0 to 1) while the body goes up. */
  onProgress?: (fraction: number) => void;
  /** Milliseconds; large files and the parse behind them outlast the default 30 s. */
  timeout?: number;
}

/**
 * POST a multipart body, reporting upload progress. axios reports it from XMLHttpRequest's
 * upload events, which exist in the browser and in Electron's renderer alike.
 */
export async function apiUpload<T>(url: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  const { onProgress, timeout } = options;
  const response = await http.post<T>(url, body, {
    ...(timeout !== undefined ? { timeout } : {}),
    onUploadProgress: onProgress
      ? (event) => {
          if (event.total) onProgress(Math.min(1, event.loaded / event.total));
        }
      : undefined,
  });
  return response.data;
}

export { ApiError, errorText, serverFieldErrors, toApiError } from './errors';
