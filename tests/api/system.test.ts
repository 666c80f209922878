import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { TestClient } from '../../server/test/client';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('server foundation', () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ JSON_BODY_LIMIT: '2kb' });
    client = new TestClient(server.url);
    const web = path.join(server.dataDir, 'no-web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(web, 'assets', 'main-abc123.js'), 'console.log(1)');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET /api/health answers the database kind and version', async () => {
    const response = await client.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      database: { kind: testDatabaseKind() === 'postgres' ? 'postgresql' : 'sqlite', version: expect.stringMatching(/^\d+\.\d+/) },
    });
  });

  it('GET /api/public-config answers the brand and support details', async () => {
    const response = await client.get('/api/public-config');
    expect(response.body).toMatchObject({ brandName: 'Sandesh', environment: 'test', support: { email: 'support@sandesh.example' } });
  });

  it('answers unknown API paths with 404 JSON', async () => {
    for (const [method, url] of [['GET', '/api/nothing-here'], ['POST', '/api/auth/nothing'], ['GET', '/api']] as const) {
      const response = await client.request(method, url);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: messages.server.routeNotFound, code: 'route_not_found' });
    }
  });

  it('answers a malformed JSON body with 400', async () => {
    const response = await client.request('POST', '/api/auth/login', '{"username": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: messages.validation.invalidJson, code: 'invalid_json' });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await client.post('/api/auth/login', { username: 'x'.repeat(5000), password: 'y' });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: messages.validation.bodyTooLarge, code: 'body_too_large' });
  });

  it('sends security headers and a request id', async () => {
    const response = await client.get('/api/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await client.request('GET', '/api/health', undefined, { 'X-Request-Id': 'trace-12345678' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-12345678');
  });

  it('allows the desktop app origin by CORS and no other', async () => {
    const desktop = await client.request('OPTIONS', '/api/auth/login', undefined, {
      Origin: 'app://sandesh',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,authorization,x-client',
    });
    expect(desktop.headers.get('access-control-allow-origin')).toBe('app://sandesh');
    const stranger = await client.request('OPTIONS', '/api/auth/login', undefined, { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the web app with a fallback to index.html for client routes', async () => {
    for (const route of ['/', '/user/dashboard', '/admin/users/5/settings', '/no/such/page']) {
      const response = await client.get(route);
      expect(response.status).toBe(200);
      expect(String(response.body)).toContain('<title>app</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await client.get('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await client.get('/assets/missing.js')).status).toBe(404);
  });

  it('creates the first admin from ADMIN_USERNAME/ADMIN_PASSWORD', async () => {
    const response = await new TestClient(server.url).post('/api/auth/login', { username: 'root_admin', password: 'admin-password-1' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { role: 'admin' } });
  });
});

describe.skipIf(postgresUnavailable)('production mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', LOG_LEVEL: 'silent', COOKIE_SECURE: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('never exposes the simulator outbox', async () => {
    const response = await new TestClient(server.url).get('/simulator/messages?to=919876543210');
    expect(response.status).toBe(404);
  });

  it('says plainly that codes cannot be sent without a provider', async () => {
    const response = await new TestClient(server.url).post('/api/auth/forgot-password', { username: 'anyone', phone: '919876543210' });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ error: messages.auth.otpSendFailed });
  });
});
