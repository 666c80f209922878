/**
 * No body is read before the caller is known, and oversize bodies are refused
 * from their Content-Length. Each attack declares a large body and sends only its first bytes:
 * a server that reads bodies before authenticating waits for the rest and never answers (the
 * request's deadline then fails the test); a fixed one answers at once.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const MB = 1024 * 1024;
const ANSWER_DEADLINE_MS = 20_000;

interface PartialAnswer {
  status: number;
  body: string;
}

/** Declares `declaredBytes` of body, sends `firstBytes` of it, and waits for the answer. */
function partialRequest(url: string, path: string, headers: Record<string, string>, declaredBytes: number, firstBytes: Buffer): Promise<PartialAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const request = http.request(
      { method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, headers: { ...headers, 'Content-Length': String(declaredBytes) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(deadline);
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    const deadline = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer from ${path} while its body was incomplete: the server waited to read it`));
    }, ANSWER_DEADLINE_MS);
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.write(firstBytes);
    // The rest of the body is never sent.
  });
}

describe.skipIf(postgresUnavailable)('request bodies: authentication first, limits by route', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const jsonStart = Buffer.from('{"username":"someone","recipients":["9198', 'utf8');

  it('answers an unauthenticated 40 MB POST /api/send/batch with 401 without reading it', async () => {
    const answer = await partialRequest(server.url, '/api/send/batch', { 'Content-Type': 'application/json' }, 40 * MB, jsonStart);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'invalid_api_key' });
  });

  it('answers a 40 MB POST /api/send/batch with a wrong key with 401 without reading it', async () => {
    const answer = await partialRequest(server.url, '/api/send/batch', { 'Content-Type': 'application/json', Authorization: 'Bearer sk_wrong_key_0123456789abcdef' }, 40 * MB, jsonStart);
    expect(answer.status).toBe(401);
  });

  it('refuses an unauthenticated 40 MB quick send with 413 from its Content-Length', async () => {
    const answer = await partialRequest(server.url, '/api/whatsapp/bulk-customize-send', { 'Content-Type': 'application/json' }, 40 * MB, jsonStart);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_too_large' });
  });

  it('answers an unauthenticated JSON call of a signed-in route with 401 without reading it', async () => {
    const answer = await partialRequest(server.url, '/api/keys', { 'Content-Type': 'application/json' }, 512 * 1024, Buffer.from('{"name":"', 'utf8'));
    expect(answer.status).toBe(401);
  });

  it('answers an unauthenticated 9 MB spreadsheet upload with 401 without reading it', async () => {
    const boundary = 'sandeshboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="list.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nPK`, 'utf8');
    for (const path of ['/api/whatsapp/parse-excel', '/api/whatsapp/import-recipients', '/api/templates']) {
      const answer = await partialRequest(server.url, path, { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, 4 * MB, head);
      expect(answer.status, path).toBe(401);
    }
  });

  it('refuses a signed-in upload or JSON body larger than its route takes with 413 at once', async () => {
    const { client } = await signedInClient(server);
    const cookie = `sandesh_session=${client.cookie('sandesh_session')}`;
    const tooBigSheet = await partialRequest(server.url, '/api/whatsapp/parse-excel', { Cookie: cookie, 'Content-Type': 'multipart/form-data; boundary=x' }, 30 * MB, Buffer.from('--x\r\n'));
    expect(tooBigSheet.status).toBe(413);
    const tooBigJson = await partialRequest(server.url, '/api/templates', { Cookie: cookie, 'Content-Type': 'application/json' }, 2 * MB, Buffer.from('{"name":"'));
    expect(tooBigJson.status).toBe(413);
  });

  it('gives the send calls their large limit once the caller is signed in', async () => {
    const { client } = await signedInClient(server);
    const recipients = Array.from({ length: 120_000 }, (_, i) => `9198${String(i).padStart(8, '0')}`);
    const res = await client.post('/api/whatsapp/send-custom-messages', { phone_number_id: 'none', template_name: 'missing', recipients });
    expect(JSON.stringify(recipients).length).toBeGreaterThan(MB);
    expect(res.status).not.toBe(413);
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});
