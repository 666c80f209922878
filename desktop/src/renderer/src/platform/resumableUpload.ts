/**
 * The browser's client of the resumable uploads API: create, put parts of the server's
 * size, ask what arrived, complete. What an upload has done is kept in localStorage under the
 * file's SHA-256, so picking the same file again after a reload continues where it stopped. Its
 * dependencies (fetch, storage, the wait between attempts) are passed in, so the rules below are
 * tested without a browser.
 */
import { fillMessage, messages } from '@shared/messages';
import { ZUpload, ZUploadCompleted, ZUploadCreated, type TUploadCompleted, type TUploadParse } from '@shared/schemas/uploads';
import { z } from 'zod';
import { bytesReceived, partRange, partsToSend } from '@shared/uploadParts';

const m = messages.sheetScreens;

/** A part that fails is sent again this many times in all before the upload stops as failed. */
export const PART_ATTEMPTS = 4;
/** While completing waits, the upload's parse is asked about this often (is it queued?). */
export const PARSE_POLL_MS = 1_000;
/** localStorage keys of upload states start with this. */
export const UPLOAD_STATE_PREFIX = 'sandesh.upload.';

/** Wait before attempt `attempt` (2, 3, ...) of a part: 0.5 s, 1 s, 2 s... up to 8 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** Math.max(0, attempt - 2));
}

const ZSavedUpload = z.object({
  uploadId: z.string().min(1),
  size: z.number().int().positive(),
  partSize: z.number().int().positive(),
  partCount: z.number().int().positive(),
  expiresAt: z.string(),
});
export type SavedUpload = z.infer<typeof ZSavedUpload>;

export function uploadStateKey(sha256: string): string {
  return `${UPLOAD_STATE_PREFIX}${sha256}`;
}

/**
 * A kept upload state worth resuming: well formed, of a file of this size, and not expired (the
 * server deletes uploads 24 hours after they started). Anything else reads as none.
 */
export function readSavedUpload(raw: string | null, size: number, now: Date): SavedUpload | null {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const saved = ZSavedUpload.safeParse(parsed);
  if (!saved.success || saved.data.size !== size) return null;
  const expires = Date.parse(saved.data.expiresAt);
  if (!Number.isFinite(expires) || expires <= now.getTime()) return null;
  return saved.data;
}

export interface UploadStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface UploadDependencies {
  fetch: typeof fetch;
  storage: UploadStorage;
  /** Waits between attempts of a part; resolves early when the signal aborts. */
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  /** Origin of the API without a trailing slash ('' for the page's own). */
  baseUrl: string;
}

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  partsDone: number;
  partCount: number;
  /** The part the upload continued from after a reload (1-based), or null for a fresh upload. */
  resumedFrom: number | null;
}

export type UploadOutcome = { state: 'complete'; uploadId: string; completed: TUploadCompleted } | { state: 'paused'; uploadId: string; sentBytes: number };

/** An error whose message is for the user (a catalogue text or the server's own). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** The hex SHA-256 of a blob (the whole normalised file: it is compressed, so it fits in memory). */
export async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The server's refusals (expired, not ours, wrong size, signed out) do not get better by trying again. */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

async function serverError(response: Response): Promise<UploadError> {
  let text = fillMessage(m.serverRefused, { status: response.status });
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) text = body.error;
  } catch {
    // Not JSON: the status says enough.
  }
  return new UploadError(text, response.status);
}

/**
 * Uploads `blob` as `filename`, resuming a kept upload of the same bytes. Stops between parts when
 * `shouldPause()` answers true (answering 'paused'); a call with the same blob later continues.
 */
export async function uploadResumable(
  blob: Blob,
  filename: string,
  deps: UploadDependencies,
  options: {
    shouldPause: () => boolean;
    onProgress: (progress: UploadProgress) => void;
    sha256?: string;
    /** While completing waits: the server's parse of the upload (queued with its place, or reading). */
    onParse?: (parse: TUploadParse | null) => void;
  },
): Promise<UploadOutcome> {
  const url = (path: string) => `${deps.baseUrl}${path}`;
  const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const sha256 = options.sha256 ?? (await sha256Hex(blob));
  const key = uploadStateKey(sha256);

  let saved = readSavedUpload(deps.storage.getItem(key), blob.size, deps.now());
  let received: number[] = [];
  let resumedFrom: number | null = null;
  if (saved) {
    const answer = await deps.fetch(url(`/api/uploads/${encodeURIComponent(saved.uploadId)}`), { headers: { Accept: 'application/json' }, credentials: 'include' });
    if (answer.ok) {
      const upload = ZUpload.parse(await answer.json());
      received = upload.receivedParts;
      resumedFrom = partsToSend(saved.partCount, received)[0] ?? saved.partCount;
    } else if (answer.status === 404) {
      // Expired or removed on the server: start again.
      deps.storage.removeItem(key);
      saved = null;
    } else {
      throw await serverError(answer);
    }
  }
  if (!saved) {
    const created = await deps.fetch(url('/api/uploads'), {
      method: 'POST',
      headers: json,
      credentials: 'include',
      body: JSON.stringify({ filename, size: blob.size, sha256 }),
    });
    if (created.status !== 201) throw await serverError(created);
    const upload = ZUploadCreated.parse(await created.json());
    saved = { uploadId: upload.id, size: blob.size, partSize: upload.partSize, partCount: upload.partCount, expiresAt: upload.expiresAt };
    deps.storage.setItem(key, JSON.stringify(saved));
  }
  const { uploadId, partSize, partCount } = saved;

  let sentBytes = bytesReceived(received, partSize, blob.size);
  let partsDone = new Set(received).size;
  const report = () => options.onProgress({ sentBytes, totalBytes: blob.size, partsDone, partCount, resumedFrom });
  report();

  /**
   * After a part's connection failed, asks about the upload with a request that has no body. A
   * server may refuse a part (a session that ended, another account's upload) and close the
   * connection before reading it, and the reset that follows can lose its answer; a GET's answer
   * arrives. Its refusal, or null where the upload is still there or the question failed too.
   */
  const refusalBehindFailure = async (): Promise<UploadError | null> => {
    try {
      const answer = await deps.fetch(url(`/api/uploads/${encodeURIComponent(uploadId)}`), { headers: { Accept: 'application/json' }, credentials: 'include' });
      return isRefusal(answer.status) ? await serverError(answer) : null;
    } catch {
      return null;
    }
  };

  const sendPart = async (n: number): Promise<void> => {
    const { start, end } = partRange(n, partSize, blob.size);
    for (let attempt = 1; ; attempt += 1) {
      let failure: UploadError;
      try {
        const answer = await deps.fetch(url(`/api/uploads/${encodeURIComponent(uploadId)}/parts/${n}`), {
          method: 'PUT',
          headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
          credentials: 'include',
          body: blob.slice(start, end),
        });
        if (answer.ok) return;
        failure = await serverError(answer);
        if (isRefusal(answer.status)) throw failure;
      } catch (caught) {
        if (caught instanceof UploadError && isRefusal(caught.status)) throw caught;
        if (!(caught instanceof UploadError)) {
          const refusal = await refusalBehindFailure();
          if (refusal) throw refusal;
        }
        failure = caught instanceof UploadError ? caught : new UploadError(messages.common.networkErrorRetry, 0);
      }
      if (attempt >= PART_ATTEMPTS) throw new UploadError(`${fillMessage(m.partFailed, { n, attempts: PART_ATTEMPTS })} ${failure.message}`, failure.status);
      await deps.sleep(retryDelayMs(attempt + 1));
    }
  };

  const sendParts = async (parts: readonly number[]): Promise<boolean> => {
    for (const n of parts) {
      if (options.shouldPause()) return false;
      await sendPart(n);
      const { start, end } = partRange(n, partSize, blob.size);
      sentBytes += end - start;
      partsDone += 1;
      report();
    }
    return true;
  };

  if (!(await sendParts(partsToSend(partCount, received)))) return { state: 'paused', uploadId, sentBytes };

  /**
   * Completing answers once the server has read the file, which waits while the server's parse
   * slots are all taken: asking about the upload meanwhile says whether it is queued, and where.
   */
  const watchParse = async (settled: () => boolean): Promise<void> => {
    const onParse = options.onParse;
    if (!onParse) return;
    while (!settled()) {
      await deps.sleep(PARSE_POLL_MS);
      if (settled()) return;
      try {
        const answer = await deps.fetch(url(`/api/uploads/${encodeURIComponent(uploadId)}`), { headers: { Accept: 'application/json' }, credentials: 'include' });
        if (!answer.ok) continue;
        const upload = ZUpload.parse(await answer.json());
        if (!settled()) onParse(upload.parse ?? null);
      } catch {
        // A question that failed changes nothing: completing's own answer decides.
      }
    }
  };
  const completeOnce = async (): Promise<Response> => {
    let settled = false;
    void watchParse(() => settled);
    try {
      return await deps.fetch(url(`/api/uploads/${encodeURIComponent(uploadId)}/complete`), { method: 'POST', headers: json, credentials: 'include', body: '{}' });
    } finally {
      settled = true;
    }
  };

  // Completing twice is harmless; a 409 names parts the server lost: send those once more.
  for (let round = 0; round < 2; round += 1) {
    const completed = await completeOnce();
    if (completed.ok) {
      deps.storage.removeItem(key);
      return { state: 'complete', uploadId, completed: ZUploadCompleted.parse(await completed.json()) };
    }
    if (completed.status === 409 && round === 0) {
      const body = (await completed.clone().json().catch(() => ({}))) as { details?: { missingParts?: unknown }; missingParts?: unknown };
      const missing = body.missingParts ?? body.details?.missingParts;
      if (Array.isArray(missing) && missing.every((n) => typeof n === 'number')) {
        sentBytes -= bytesReceived(missing, partSize, blob.size);
        partsDone -= missing.length;
        if (!(await sendParts(missing))) return { state: 'paused', uploadId, sentBytes };
        continue;
      }
    }
    if (completed.status === 422 || completed.status === 404) deps.storage.removeItem(key);
    throw await serverError(completed);
  }
  throw new UploadError(messages.common.networkErrorRetry, 0);
}
