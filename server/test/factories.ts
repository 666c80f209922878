/**
 * Factories: each test makes the accounts it needs, with unique names, and signs them in.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@shared/constants';
import type { User } from '../src/models';
import type { TestServer } from './server';
import { TestClient } from './client';

export interface BuildUserOptions {
  role?: Role;
  name?: string;
  username?: string;
  email?: string;
  password?: string;
  phoneNumber?: string;
  creditRupees?: number;
}

let sequence = 0;

export function uniqueName(prefix = 'user'): string {
  sequence += 1;
  return `${prefix}_${sequence}_${randomBytes(3).toString('hex')}`;
}

/** A random valid Indian mobile number: 91 + 10 digits. */
export function uniquePhone(): string {
  return `91${9_000_000_000 + Math.floor(Math.random() * 999_999_999)}`;
}

export async function buildUser(server: TestServer, options: BuildUserOptions = {}): Promise<User & { plainPassword: string }> {
  const username = options.username ?? uniqueName(options.role === 'admin' ? 'admin' : 'user');
  const password = options.password ?? 'secret-pass-1';
  const user = await server.services.users.create(
    {
      name: options.name ?? 'Test Person',
      email: options.email ?? `${username}@example.com`,
      username,
      password,
      phoneNumber: options.phoneNumber,
      role: options.role ?? 'user',
      creditRupees: options.creditRupees ?? 0,
    },
    { userId: null },
    'admin',
  );
  return Object.assign(user, { plainPassword: password });
}

/** A client signed in as a new user (or the given one). */
export async function signedInClient(server: TestServer, options: BuildUserOptions = {}): Promise<{ client: TestClient; user: User & { plainPassword: string } }> {
  const user = await buildUser(server, options);
  const client = new TestClient(server.url);
  const response = await client.post('/api/auth/login', { username: user.username, password: user.plainPassword });
  if (response.status !== 200) throw new Error(`login failed in factory: ${response.status} ${JSON.stringify(response.body)}`);
  return { client, user };
}
