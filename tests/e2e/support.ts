import { randomBytes } from 'node:crypto';
import { request, type APIRequestContext } from '@playwright/test';

/** The Graph API version the servers under test are configured with (config.ts's default unless set). */
export const API_VERSION = process.env.WHATSAPP_API_VERSION ?? 'v23.0';

export const ADMIN = { username: 'e2e_admin', password: 'e2e-admin-pass' } as const;

export function unique(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export function uniquePhone(): string {
  return `91${9_000_000_000 + Math.floor(Math.random() * 999_999_999)}`;
}

/** An API client signed in as the e2e admin, to make accounts quickly. */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const response = await api.post('/api/auth/login', { data: ADMIN });
  if (!response.ok()) throw new Error(`admin login failed: ${response.status()}`);
  return api;
}

export async function createUser(
  baseURL: string,
  overrides: Partial<{ username: string; password: string; phoneNumber: string; role: 'user' | 'admin'; name: string }> = {},
) {
  const api = await adminApi(baseURL);
  const username = overrides.username ?? unique('user');
  const user = {
    name: overrides.name ?? 'Priya Sharma',
    email: `${username}@example.in`,
    username,
    password: overrides.password ?? 'user-pass-123',
    phoneNumber: overrides.phoneNumber ?? uniquePhone(),
    role: overrides.role ?? 'user',
  };
  const response = await api.post('/api/admin/users', { data: user });
  if (response.status() !== 201) throw new Error(`create user failed: ${response.status()} ${await response.text()}`);
  const created = (await response.json()) as { user: { id: number } };
  await api.dispose();
  return { ...user, id: created.user.id };
}

/** The latest code the simulator delivered to a phone. */
export async function latestCode(baseURL: string, phone: string): Promise<string> {
  const api = await request.newContext({ baseURL });
  const response = await api.get(`/simulator/messages?to=${phone}`);
  const body = (await response.json()) as { data: { text: string }[] };
  await api.dispose();
  const code = /\b(\d{6})\b/.exec(body.data[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}
