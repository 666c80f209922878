/**
 * A small HTTP client for tests that keeps cookies like a browser (per client), so two clients
 * are two people.
 */
export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestClient {
  private readonly cookies = new Map<string, string>();
  private bearer: string | null = null;
  private extraHeaders: Record<string, string> = {};

  constructor(private readonly baseUrl: string) {}

  /** Sends `Authorization: Bearer` (desktop and API clients) instead of cookies. */
  useBearer(token: string | null): this {
    this.bearer = token;
    return this;
  }

  withHeaders(headers: Record<string, string>): this {
    this.extraHeaders = { ...this.extraHeaders, ...headers };
    return this;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Copies this client's cookies to another (a stolen or copied cookie). */
  copyCookiesTo(other: TestClient): void {
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
  }

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const requestHeaders: Record<string, string> = { ...this.extraHeaders, ...headers };
    const isForm = body instanceof FormData;
    // Raw bytes (a resumable upload's part) go as they are.
    const isBytes = body instanceof Uint8Array;
    if (isBytes) requestHeaders['Content-Type'] ??= 'application/octet-stream';
    else if (body !== undefined && typeof body !== 'string' && !isForm) requestHeaders['Content-Type'] = 'application/json';
    if (body !== undefined && typeof body === 'string') requestHeaders['Content-Type'] ??= 'application/json';
    if (this.cookies.size) requestHeaders.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.bearer) requestHeaders.Authorization = `Bearer ${this.bearer}`;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: requestHeaders,
      body: body === undefined ? undefined : isForm || isBytes || typeof body === 'string' ? (body as FormData | Uint8Array<ArrayBuffer> | string) : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (!name) continue;
      const value = rest.join('=');
      const expired = attributes.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // Non-JSON bodies (the web app, downloads) stay text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers);
  }
  patch<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  delete<T = Record<string, unknown>>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
