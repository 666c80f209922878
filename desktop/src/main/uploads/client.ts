/**
 * The desktop's resumable upload client: sends a prepared spreadsheet through
 * `/api/uploads` in the parts the server chose, with progress, pause, retries and resume after a
 * dropped connection or a restart of the app. Runs in the Electron main process; plain Node.
 *
 * The file's SHA-256 is computed streaming before the upload is made. Once the server made it, the
 * upload (its id, the file's path, size, modification time and digest) is kept in the store, so a
 * new run asks the server which parts arrived and sends only the others. A file changed since, an
 * upload the server no longer knows (expired, deleted, another account's) or another server starts
 * again from scratch.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { fillMessage, messages } from '@shared/messages';
import { ZUpload, ZUploadCreated, type TUpload } from '@shared/schemas/uploads';
import type { SpreadsheetProgress, SpreadsheetUpload } from '@shared/spreadsheets';
import type { StoredUpload, UploadStateStore } from './store';
import { bytesReceived, partRange, partsToSend } from '@shared/uploadParts';

/** While completing waits, the upload's parse is asked about this often (is it queued?). */
const PARSE_POLL_MS = 1_000;

export interface UploadSource {
  preparedId: string;
  path: string;
  filename: string;
  size: number;
}

export interface UploadClient {
  /** Resolves when the upload is complete, paused or failed (its `state` says which; never rejects). */
  upload(source: UploadSource, onProgress: (progress: SpreadsheetProgress) => void): Promise<SpreadsheetUpload>;
  /** Stops the upload after aborting the part in flight; what arrived stays on the server. */
  pause(preparedId: string): void;
  /** Resumes a paused or failed upload, or one an earlier run of the app left in the store. */
  resume(preparedId: string, onProgress: (progress: SpreadsheetProgress) => void): Promise<SpreadsheetUpload>;
  /** Uploads not complete: those running now and those in the store. */
  pending(): Promise<SpreadsheetUpload[]>;
}

export interface UploadClientOptions {
  /** The server origin (`https://example.com`), asked at each upload. */
  serverUrl: () => Promise<string>;
  /** Headers that sign the requests in (the desktop's `Authorization: Bearer`), asked per request. */
  authHeaders: () => Promise<Record<string, string>>;
  store: UploadStateStore;
  /** Default: an undici Agent of its own with keep-alive. */
  dispatcher?: Dispatcher;
  /** Tries of one request before the upload fails (network errors, 5xx, 429), and the first wait. */
  retry?: { attempts: number; baseDelayMs: number };
  /** Parts in flight at once (default 1: parts go in order). */
  parallelParts?: number;
  /** Least time between two progress events while bytes move (default 200 ms). */
  progressEveryMs?: number;
}

const DEFAULT_RETRY = { attempts: 6, baseDelayMs: 500 };
const MAX_RETRY_DELAY_MS = 30_000;
/** A Retry-After longer than this is not waited for within one try (the user can resume later). */
const MAX_RETRY_AFTER_MS = 120_000;

/** A refusal the upload cannot get past by trying again: its text is the user's. */
export class UploadRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UploadRefusedError';
  }
}

/** The server kept failing (or could not be reached) through every try. */
class ServerUnavailableError extends Error {
  constructor(readonly attempts: number, cause: unknown) {
    super(fillMessage(messages.uploadClient.serverUnavailable, { attempts }), { cause });
    this.name = 'ServerUnavailableError';
  }
}

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  missingParts?: unknown;
}

/** The catalogue text for a 4xx answer (the server's own catalogue text where it says more). */
export function refusalText(status: number, body: ErrorBody | null): string {
  const serverText = typeof body?.error === 'string' && body.error.length > 0 ? body.error : null;
  switch (status) {
    case 401:
      return messages.uploadClient.sessionEnded;
    case 403:
      return messages.uploadClient.forbidden;
    case 404:
      return messages.uploadClient.notFound;
    case 409:
      return serverText ?? messages.uploadClient.conflict;
    case 413:
      return serverText ?? messages.uploadClient.tooLarge;
    case 422:
      return messages.uploadClient.checksumMismatch;
    default:
      return fillMessage(messages.uploadClient.refused, { reason: serverText ?? `HTTP ${status}` });
  }
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** An answer worth trying again: 429 and 5xx (a network error is too). */
class RetryableStatus extends Error {
  constructor(
    readonly status: number,
    readonly waitMs: number | null,
  ) {
    super(`HTTP ${status}`);
  }
}

interface JsonAnswer {
  status: number;
  body: unknown;
}

/** The SHA-256 (hex) of a file, read as a stream. */
export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), hash, { signal });
  return hash.digest('hex');
}

interface ActiveUpload {
  controller: AbortController;
  source: UploadSource;
  entry: StoredUpload | null;
  sentBytes: number;
}

function asErrorBody(value: unknown): ErrorBody | null {
  return value !== null && typeof value === 'object' ? (value as ErrorBody) : null;
}

export function createUploadClient(options: UploadClientOptions): UploadClient {
  const dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
  const retry = options.retry ?? DEFAULT_RETRY;
  const parallelParts = Math.max(1, options.parallelParts ?? 1);
  const progressEveryMs = options.progressEveryMs ?? 200;
  const active = new Map<string, { upload: ActiveUpload; promise: Promise<SpreadsheetUpload> }>();
  /** Sources of uploads stopped before the server made them (nothing stored yet to resume from). */
  const unstored = new Map<string, UploadSource>();

  // The store is read and written one change at a time, so uploads running together do not lose each other's entries.
  let storeQueue: Promise<unknown> = Promise.resolve();
  function changeStore(change: (uploads: StoredUpload[]) => StoredUpload[]): Promise<void> {
    const next = storeQueue.then(async () => options.store.save(change(await options.store.load())));
    storeQueue = next.catch(() => undefined);
    return next;
  }
  const putEntry = (entry: StoredUpload) => changeStore((uploads) => [...uploads.filter((u) => u.preparedId !== entry.preparedId), entry]);
  const dropEntry = (preparedId: string) => changeStore((uploads) => uploads.filter((u) => u.preparedId !== preparedId));
  async function storedEntry(preparedId: string): Promise<StoredUpload | undefined> {
    await storeQueue;
    return (await options.store.load()).find((u) => u.preparedId === preparedId);
  }

  /**
   * Runs one request, again after network errors, 5xx and 429 with a growing wait (or the wait
   * Retry-After asks for), up to `retry.attempts` tries. `send` answers what the request settled on.
   */
  async function withRetry<T>(signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= retry.attempts; attempt += 1) {
      try {
        return await send();
      } catch (error) {
        if (signal.aborted || error instanceof UploadRefusedError) throw error;
        lastError = error;
        if (attempt === retry.attempts) break;
        const backoff = Math.min(MAX_RETRY_DELAY_MS, retry.baseDelayMs * 2 ** (attempt - 1));
        const asked = error instanceof RetryableStatus ? error.waitMs : null;
        const wait = asked === null ? backoff : Math.min(MAX_RETRY_AFTER_MS, Math.max(asked, retry.baseDelayMs));
        await delay(wait, undefined, { signal });
      }
    }
    throw new ServerUnavailableError(retry.attempts, lastError);
  }

  async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return { ...(await options.authHeaders()), ...extra };
  }

  /** One JSON request; 429 and 5xx throw RetryableStatus, other answers are returned. */
  async function jsonRequest(serverUrl: string, method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown): Promise<JsonAnswer> {
    const answer = await request(`${serverUrl}${path}`, {
      method,
      dispatcher,
      signal,
      headers: await headers(body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.body.text();
    if (answer.statusCode === 429 || answer.statusCode >= 500) throw new RetryableStatus(answer.statusCode, retryAfterMs(answer.headers['retry-after']));
    let parsed: unknown = null;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: answer.statusCode, body: parsed };
  }

  const refused = (answer: JsonAnswer) => {
    const body = asErrorBody(answer.body);
    return new UploadRefusedError(refusalText(answer.status, body), answer.status, typeof body?.code === 'string' ? body.code : undefined);
  };

  /** The server's view of an upload, or null when it does not know it (expired, deleted, another account's). */
  async function serverState(serverUrl: string, uploadId: string, signal: AbortSignal): Promise<TUpload | null> {
    const answer = await withRetry(signal, () => jsonRequest(serverUrl, 'GET', `/api/uploads/${encodeURIComponent(uploadId)}`, signal));
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw refused(answer);
    return ZUpload.parse(answer.body);
  }

  /**
   * After a part's connection failed, asks about the upload with a request that has no body. A
   * server may refuse a part (a session that ended, another account's upload) and close the
   * connection before reading it, and the reset that follows can lose its answer; a GET's answer
   * arrives. The refusal it gives (401, 404...), or null where the upload is still there to send to
   * or the question failed too.
   */
  async function refusalBehindFailure(serverUrl: string, uploadId: string, signal: AbortSignal): Promise<UploadRefusedError | null> {
    try {
      const answer = await jsonRequest(serverUrl, 'GET', `/api/uploads/${encodeURIComponent(uploadId)}`, signal);
      return answer.status >= 400 && answer.status < 500 ? refused(answer) : null;
    } catch {
      return null;
    }
  }

  /** Deletes an upload the client gave up on; a refusal or an unreachable server is not worth a word. */
  async function discard(serverUrl: string, uploadId: string, signal: AbortSignal): Promise<void> {
    try {
      const answer = await request(`${serverUrl}/api/uploads/${encodeURIComponent(uploadId)}`, { method: 'DELETE', dispatcher, signal, headers: await headers() });
      await answer.body.dump();
    } catch {
      // It expires by itself within 24 hours.
    }
  }

  /**
   * One upload from wherever it stands to complete. Pausing aborts `controller`; whatever ends
   * the run, the answer says the state, and the store keeps anything not complete.
   */
  async function run(upload: ActiveUpload, resumeFrom: StoredUpload | undefined, onProgress: (progress: SpreadsheetProgress) => void): Promise<SpreadsheetUpload> {
    const { source, controller } = upload;
    const { signal } = controller;
    const inFlight = new Map<number, number>();
    let confirmedBytes = 0;
    let lastEmit = 0;
    // The file's size on disk once read (a file changed since it was prepared is sent as it is now).
    let totalBytes = source.size;
    const currentBytes = () => {
      let bytes = confirmedBytes;
      for (const sent of inFlight.values()) bytes += sent;
      return Math.min(bytes, totalBytes);
    };
    /** While completing waits for one of the server's parse slots: the upload's place in line. */
    let queuePosition: number | null = null;
    const emit = () => {
      lastEmit = Date.now();
      const bytes = currentBytes();
      upload.sentBytes = bytes;
      onProgress({
        fileId: source.preparedId,
        phase: queuePosition === null ? 'uploading' : 'queued',
        rows: 0,
        bytes,
        totalBytes,
        percent: totalBytes === 0 ? 100 : Math.min(100, Math.floor((bytes / totalBytes) * 1000) / 10),
        ...(queuePosition === null ? {} : { queuePosition }),
      });
    };
    // Between parts' ends, bytes moving still show at least every `progressEveryMs`.
    const ticker = setInterval(() => {
      if (Date.now() - lastEmit >= progressEveryMs) emit();
    }, Math.max(10, Math.floor(progressEveryMs / 2)));
    ticker.unref();

    try {
      let file;
      try {
        file = await stat(source.path);
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        await dropEntry(source.preparedId);
        unstored.delete(source.preparedId);
        throw new UploadRefusedError(missing ? messages.uploadClient.fileMissing : fillMessage(messages.uploadClient.refused, { reason: String(error) }), 0);
      }
      totalBytes = file.size;
      const serverUrl = await options.serverUrl();
      let entry: StoredUpload | null = resumeFrom ?? null;
      // A file changed since its digest was taken, or another server, starts again from scratch;
      // the old upload on this server is deleted so it does not hold the user's quota for a day.
      if (entry && (entry.size !== file.size || entry.mtimeMs !== file.mtimeMs || entry.serverUrl !== serverUrl)) {
        if (entry.uploadId && entry.serverUrl === serverUrl) await discard(serverUrl, entry.uploadId, signal);
        entry = null;
      }
      if (entry?.uploadId && Date.parse(entry.expiresAt) <= Date.now()) entry = { ...entry, uploadId: null };

      let received = new Set<number>();
      if (entry?.uploadId) {
        const state = await serverState(serverUrl, entry.uploadId, signal);
        if (state === null || state.size !== entry.size) {
          entry = { ...entry, uploadId: null };
        } else {
          entry = { ...entry, partSize: state.partSize, partCount: state.partCount, expiresAt: state.expiresAt };
          received = new Set(state.receivedParts);
        }
      }

      if (!entry) {
        emit();
        const sha256 = await sha256OfFile(source.path, signal);
        entry = {
          preparedId: source.preparedId,
          uploadId: null,
          serverUrl,
          path: source.path,
          filename: source.filename,
          size: file.size,
          mtimeMs: file.mtimeMs,
          sha256,
          partSize: file.size,
          partCount: 1,
          expiresAt: new Date(0).toISOString(),
          state: 'uploading',
          sentBytes: 0,
        };
      }
      if (!entry.uploadId) {
        const declared = entry;
        const answer = await withRetry(signal, () =>
          jsonRequest(serverUrl, 'POST', '/api/uploads', signal, { filename: declared.filename, size: declared.size, sha256: declared.sha256 }),
        );
        if (answer.status !== 201) throw refused(answer);
        const created = ZUploadCreated.parse(answer.body);
        entry = { ...entry, uploadId: created.id, partSize: created.partSize, partCount: created.partCount, expiresAt: created.expiresAt };
        received = new Set();
      }
      entry = { ...entry, state: 'uploading', sentBytes: 0 };
      delete entry.error;
      upload.entry = entry;
      unstored.delete(source.preparedId);
      await putEntry(entry);

      const { uploadId, partSize, partCount, size } = entry;
      if (uploadId === null) throw new Error('the upload has no id after it was made');
      confirmedBytes += bytesReceived(received, partSize, size);
      emit();

      /** Sends one part (tries again as withRetry allows); false when the upload turned out complete. */
      const sendPart = async (n: number): Promise<boolean> => {
        const { start, end } = partRange(n, partSize, size);
        const length = end - start;
        const answer = await withRetry(signal, async () => {
          inFlight.set(n, 0);
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              inFlight.set(n, (inFlight.get(n) ?? 0) + chunk.length);
              callback(null, chunk);
            },
          });
          const file = createReadStream(source.path, { start, end: start + length - 1, highWaterMark: 256 * 1024 });
          file.on('error', (error) => counter.destroy(error));
          const body = file.pipe(counter);
          try {
            const res = await request(`${serverUrl}/api/uploads/${encodeURIComponent(uploadId)}/parts/${n}`, {
              method: 'PUT',
              dispatcher,
              signal,
              body,
              headers: await headers({ 'content-type': 'application/octet-stream', 'content-length': String(length), accept: 'application/json' }),
            });
            const text = await res.body.text();
            if (res.statusCode === 429 || res.statusCode >= 500) throw new RetryableStatus(res.statusCode, retryAfterMs(res.headers['retry-after']));
            let parsed: unknown = null;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = null;
            }
            return { status: res.statusCode, body: parsed };
          } catch (error) {
            if (!(error instanceof RetryableStatus) && !signal.aborted) {
              const refusal = await refusalBehindFailure(serverUrl, uploadId, signal);
              if (refusal) throw refusal;
            }
            throw error;
          } finally {
            inFlight.delete(n);
            file.destroy();
            body.destroy();
          }
        });
        if (answer.status === 409 && asErrorBody(answer.body)?.code === 'upload_complete') return false;
        if (answer.status !== 200) throw refused(answer);
        confirmedBytes += length;
        emit();
        return true;
      };

      /**
       * Sends `parts` in order, `parallelParts` at a time; false when the server already had the
       * whole upload. After a failure the other senders stop at their part's end, and the first
       * failure is the answer once they all stopped.
       */
      const sendParts = async (parts: number[]): Promise<boolean> => {
        let next = 0;
        let stillOpen = true;
        let failed = false;
        const senders = await Promise.allSettled(
          Array.from({ length: Math.min(parallelParts, parts.length) }, async () => {
            while (stillOpen && !failed && next < parts.length) {
              const n = parts[next] as number;
              next += 1;
              try {
                if (!(await sendPart(n))) stillOpen = false;
              } catch (error) {
                failed = true;
                throw error;
              }
            }
          }),
        );
        const failure = senders.find((sender): sender is PromiseRejectedResult => sender.status === 'rejected');
        if (failure) throw failure.reason;
        return stillOpen;
      };

      await sendParts(partsToSend(partCount, [...received]));

      /** Asks about the upload while completing waits: the server answers once it has read the file, which may be queued first. */
      const watchParse = async (settled: AbortSignal): Promise<void> => {
        while (!settled.aborted) {
          try {
            await delay(PARSE_POLL_MS, undefined, { signal: settled });
            const answer = await jsonRequest(serverUrl, 'GET', `/api/uploads/${encodeURIComponent(uploadId)}`, signal);
            const state = ZUpload.safeParse(answer.body);
            if (settled.aborted || answer.status !== 200 || !state.success) continue;
            queuePosition = state.data.parse?.state === 'queued' ? state.data.parse.position : null;
            emit();
          } catch {
            // Settled, or the question failed: completing's own answer decides.
          }
        }
      };
      const complete = async (): Promise<JsonAnswer> => {
        const settled = new AbortController();
        const watching = watchParse(settled.signal);
        try {
          return await withRetry(signal, () => jsonRequest(serverUrl, 'POST', `/api/uploads/${encodeURIComponent(uploadId)}/complete`, signal));
        } finally {
          settled.abort();
          await watching;
          queuePosition = null;
        }
      };
      let answer = await complete();
      const stillMissing = answer.status === 409 ? asErrorBody(answer.body)?.missingParts : undefined;
      if (Array.isArray(stillMissing) && stillMissing.length > 0) {
        // Parts the server lost (or never kept) go once more; a second refusal is the user's to see.
        const parts = stillMissing.filter((n): n is number => Number.isInteger(n) && n >= 1 && n <= partCount);
        confirmedBytes -= bytesReceived(parts, partSize, size);
        await sendParts(parts);
        answer = await complete();
        const again = answer.status === 409 ? asErrorBody(answer.body)?.missingParts : undefined;
        if (Array.isArray(again) && again.length > 0) {
          throw new UploadRefusedError(fillMessage(messages.uploadClient.partsStillMissing, { parts: again.slice(0, 20).join(', ') }), 409, 'upload_incomplete');
        }
      }
      if (answer.status !== 200) {
        // The parts did not make the file: the next try sends the whole file under a new upload.
        if (answer.status === 422) {
          await discard(serverUrl, uploadId, signal);
          entry = { ...entry, uploadId: null };
        }
        upload.entry = entry;
        throw refused(answer);
      }
      await dropEntry(source.preparedId);
      confirmedBytes = size;
      emit();
      return { preparedId: source.preparedId, uploadId, filename: source.filename, size, sentBytes: size, state: 'complete' };
    } catch (error) {
      const paused = signal.aborted;
      const text = paused
        ? undefined
        : error instanceof UploadRefusedError || error instanceof ServerUnavailableError
          ? error.message
          : fillMessage(messages.uploadClient.refused, { reason: error instanceof Error ? error.message : String(error) });
      const sentBytes = currentBytes();
      const entry = upload.entry;
      if (entry) {
        const kept: StoredUpload = { ...entry, state: paused ? 'paused' : 'failed', sentBytes, ...(text ? { error: text } : {}) };
        if (paused) delete kept.error;
        await putEntry(kept).catch(() => undefined);
      } else if (!(error instanceof UploadRefusedError && error.status === 0)) {
        unstored.set(source.preparedId, source);
      }
      return {
        preparedId: source.preparedId,
        uploadId: entry?.uploadId ?? '',
        filename: source.filename,
        size: source.size,
        sentBytes,
        state: paused ? 'paused' : 'failed',
        ...(text ? { error: text } : {}),
      };
    } finally {
      clearInterval(ticker);
    }
  }

  function start(source: UploadSource, resumeFrom: StoredUpload | undefined, onProgress: (progress: SpreadsheetProgress) => void): Promise<SpreadsheetUpload> {
    const running = active.get(source.preparedId);
    if (running) return running.promise;
    const upload: ActiveUpload = { controller: new AbortController(), source, entry: resumeFrom ?? null, sentBytes: resumeFrom?.sentBytes ?? 0 };
    const promise = run(upload, resumeFrom, onProgress).finally(() => active.delete(source.preparedId));
    active.set(source.preparedId, { upload, promise });
    return promise;
  }

  const sourceOf = (entry: StoredUpload): UploadSource => ({ preparedId: entry.preparedId, path: entry.path, filename: entry.filename, size: entry.size });

  return {
    async upload(source, onProgress) {
      const running = active.get(source.preparedId);
      if (running) return running.promise;
      const stored = await storedEntry(source.preparedId);
      // The same prepared file again continues where it stood; another file under the id starts anew.
      return start(source, stored && stored.path === source.path ? stored : undefined, onProgress);
    },

    pause(preparedId) {
      active.get(preparedId)?.upload.controller.abort();
    },

    async resume(preparedId, onProgress) {
      const running = active.get(preparedId);
      if (running) return running.promise;
      const stored = await storedEntry(preparedId);
      if (stored) return start(sourceOf(stored), stored, onProgress);
      const source = unstored.get(preparedId);
      if (source) return start(source, undefined, onProgress);
      return { preparedId, uploadId: '', filename: '', size: 0, sentBytes: 0, state: 'failed', error: messages.uploadClient.unknownUpload };
    },

    async pending() {
      await storeQueue;
      const stored = await options.store.load();
      const answers = new Map<string, SpreadsheetUpload>();
      for (const entry of stored) {
        answers.set(entry.preparedId, {
          preparedId: entry.preparedId,
          uploadId: entry.uploadId ?? '',
          filename: entry.filename,
          size: entry.size,
          sentBytes: entry.sentBytes,
          // One left 'uploading' by a run that ended without a word (a crash) waits to be resumed.
          state: entry.state === 'failed' ? 'failed' : 'paused',
          ...(entry.error ? { error: entry.error } : {}),
        });
      }
      for (const [preparedId, source] of unstored) {
        if (!answers.has(preparedId)) answers.set(preparedId, { preparedId, uploadId: '', filename: source.filename, size: source.size, sentBytes: 0, state: 'paused' });
      }
      for (const [preparedId, { upload }] of active) {
        answers.set(preparedId, {
          preparedId,
          uploadId: upload.entry?.uploadId ?? '',
          filename: upload.source.filename,
          size: upload.source.size,
          sentBytes: upload.sentBytes,
          state: 'uploading',
        });
      }
      return [...answers.values()];
    },
  };
}
