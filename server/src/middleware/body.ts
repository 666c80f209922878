/**
 * Request bodies are read only after the caller is known. A body larger than
 * its route allows is refused from its `Content-Length` before a byte of it is read; a body on a
 * route that needs a session is not read at all when there is none (the route answers 401); the
 * public send API's bodies are read by the route after its API key is accepted; multipart
 * uploads are read by the route after `requireAuth`, and so are the raw parts of a resumable
 * upload (at most the part size). JSON is capped per route: the small default
 * everywhere, the send limit only on the send calls of a signed-in caller.
 */
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { messages } from '@shared/messages';
import { BadRequestError, PayloadTooLargeError } from '../errors';
import type { AppState } from '../types';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `512kb` / `1mb` (the only forms config.ts accepts) in bytes. */
export function byteSize(value: string): number {
  const match = /^(\d+)(kb|mb)$/i.exec(value);
  if (!match) throw new Error(`not a byte size: ${value}`);
  return Number(match[1]) * (match[2]!.toLowerCase() === 'mb' ? 1024 * 1024 : 1024);
}

/** A JSON body parser with the catalogue's answer for malformed JSON and 413 for too large. */
export function jsonBody(limitBytes: number): Middleware<AppState> {
  return bodyParser({
    enableTypes: ['json'],
    // DELETE too: deleting the account carries the owner's password in its body, never in the URL.
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    jsonLimit: limitBytes,
    onError: (error: Error & { status?: number }) => {
      if (error.status === 413) throw PayloadTooLargeError();
      throw BadRequestError('invalid_json', messages.validation.invalidJson);
    },
  }) as Middleware<AppState>;
}

export interface BodyRules {
  /** Bytes for JSON bodies unless a rule below says otherwise (JSON_BODY_LIMIT). */
  jsonLimit: number;
  /** Bytes for the send calls' bodies once their caller is authenticated (SEND_BODY_LIMIT). */
  sendLimit: number;
  /** Paths that take a body from anonymous callers (sign-in, sign-up, resets, webhooks). */
  publicPaths: (path: string) => boolean;
  /** Session send calls whose JSON or multipart may be as large as `sendLimit`. */
  sendPaths: ReadonlySet<string>;
  /** API-key routes: they read their own body after the key is checked, up to this many bytes. */
  apiKeyPaths: ReadonlyMap<string, number>;
  /** API-key routes with a parameter in their path (`/api/conversations/{phone}/messages`), read the same way. */
  apiKeyPatterns?: readonly (readonly [RegExp, number])[];
  /** Multipart upload routes and the most bytes each takes (file and fields). */
  uploadLimit: (path: string) => number | null;
  /**
   * Routes that stream their raw body themselves (resumable upload parts) and the most bytes each
   * takes; the body is never parsed here, and is read only for a signed-in caller.
   */
  rawLimit: (path: string) => number | null;
}

export function bodyGate(rules: BodyRules): Middleware<AppState> {
  const small = jsonBody(rules.jsonLimit);
  const large = jsonBody(rules.sendLimit);
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const path = ctx.path;
    const signedIn = ctx.state.auth !== null;
    const multipart = Boolean(ctx.is('multipart'));
    const rawLimit = rules.rawLimit(path);
    const apiKeyLimit = rules.apiKeyPaths.get(path) ?? rules.apiKeyPatterns?.find(([pattern]) => pattern.test(path))?.[1] ?? null;
    const limit =
      rawLimit ??
      apiKeyLimit ??
      (multipart ? rules.uploadLimit(path) : null) ??
      (signedIn && rules.sendPaths.has(path) ? rules.sendLimit : rules.jsonLimit);
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) {
      // The unread body is not drained: the connection closes after the answer.
      ctx.set('Connection', 'close');
      throw PayloadTooLargeError();
    }
    if (apiKeyLimit !== null) return next();
    if (rawLimit !== null) {
      if (!signedIn) ctx.set('Connection', 'close');
      return next();
    }
    if (!signedIn && !rules.publicPaths(path)) {
      ctx.set('Connection', 'close');
      return next();
    }
    if (multipart) return next();
    return (limit > rules.jsonLimit ? large : small)(ctx, next);
  };
}

/** How long a refused body may take to arrive before its connection is cut instead. */
const DISCARD_DEADLINE_MS = 30_000;

/**
 * Reads what is left of a refused request's body and drops it, so that the answer is not lost.
 * A server that closes a connection with a body still arriving makes the kernel reset it, and a
 * reset throws away the answer the client has not read yet: under load a desktop upload saw "the
 * server did not answer" where the answer was 404. Only for a signed-in caller's declared length
 * (which the gate bounded); false when the body could not be read in time (the socket is gone).
 */
export async function discardRest(req: IncomingMessage, deadlineMs = DISCARD_DEADLINE_MS): Promise<boolean> {
  if (req.readableEnded) return true;
  if (req.destroyed) return false;
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  try {
    await pipeline(req, sink, { signal: AbortSignal.timeout(deadlineMs) });
    return true;
  } catch {
    return false;
  }
}
