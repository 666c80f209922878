/**
 * Resumable uploads: a client declares a file (name, size, SHA-256), sends it in parts
 * of the size the server chose, in any order and as often as it likes, asks which parts arrived
 * after a broken connection, and completes it: the parts are put together, the checksum checked
 * and the file read in a parse worker (CSV, gzip-compressed CSV, .xlsx) for its columns, its row
 * count and a sample. Uploads are deleted 24 hours after they started, finished or not.
 *
 * Rows live in `uploads`; files under `DATA_DIR/uploads/<id>/` (files.ts). Several instances must
 * share DATA_DIR (or send one upload's requests to one instance) for the parts to meet.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { UPLOADS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { ZUploadId, type TCreateUploadRequest, type TUploadStatus } from '@shared/schemas/uploads';
import { forUpdateIfSupported } from '../db/dialect';
import { nowIso } from '../db/columns';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import type { ParseRunStatus } from '../spreadsheets/parseWorkerPool';
import type { SpreadsheetParses } from '../spreadsheets/spreadsheetParses';
import { spreadsheetFileBatches, summariseSpreadsheetFile } from '../spreadsheets/read';
import { detectUploadKind, SNIFF_BYTES } from './fileKind';
import { PartSizeError, UploadFiles } from './files';

const MB = 1024 * 1024;
const HOUR_MS = 60 * 60_000;

export interface UploadRecord {
  id: string;
  userId: number;
  filename: string;
  size: number;
  sha256: string;
  partSize: number;
  partCount: number;
  status: TUploadStatus;
  createdAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
}

/** An upload with the parts that arrived (all of them once it is complete). */
export interface UploadState extends UploadRecord {
  receivedParts: number[];
  /** Its parse on this instance (completing it, or a send reading it): waiting for a slot, or reading. */
  parse: ParseRunStatus | null;
}

export interface UploadSummary {
  id: string;
  /** Data rows (the header row is not counted). */
  rows: number;
  columns: string[];
  sample: Record<string, string>[];
}

/** A row of `uploads` as knex answers it (camelCase; numbers as strings from PostgreSQL's bigint). */
interface UploadRow {
  id: string;
  userId: number | string;
  filename: string;
  size: number | string;
  sha256: string;
  partSize: number | string;
  partCount: number | string;
  status: TUploadStatus;
  createdAt: string | Date;
  expiresAt: string | Date;
  completedAt: string | Date | null;
}

function toRecord(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    userId: Number(row.userId),
    filename: row.filename,
    size: Number(row.size),
    sha256: row.sha256,
    partSize: Number(row.partSize),
    partCount: Number(row.partCount),
    status: row.status,
    createdAt: new Date(row.createdAt),
    expiresAt: new Date(row.expiresAt),
    completedAt: row.completedAt === null ? null : new Date(row.completedAt),
  };
}

/** Bytes part `n` (from 1) of an upload must carry: the part size, the last one the remainder. */
export function partBytes(size: number, partSize: number, n: number): number {
  const partCount = Math.ceil(size / partSize);
  return n < partCount ? partSize : size - partSize * (partCount - 1);
}

/** The parts of 1..partCount not in `received` (sorted). */
export function missingParts(partCount: number, received: readonly number[]): number[] {
  const have = new Set(received);
  const missing: number[] = [];
  for (let n = 1; n <= partCount; n += 1) if (!have.has(n)) missing.push(n);
  return missing;
}

const megabytes = (bytes: number) => formatIndianNumber(Math.ceil(bytes / MB));
const notFound = () => NotFoundError(messages.uploads.notFound, 'upload_not_found');

export interface UploadServiceDeps {
  db: Knex;
  dataDir: string;
  partSizeBytes: number;
  maxBytes: number;
  userQuotaBytes: number;
  /** The parse workers and each user's parse slots (shared with the send screens' uploads). */
  spreadsheets: SpreadsheetParses;
  log: Logger;
  /** The time uploads are created and expire by (tests move it by hand). */
  now?: () => Date;
}

/** Batches of 1,000 rows the parse worker may read ahead of a send from an upload. */
const SEND_READ_AHEAD_BATCHES = 10;

export class UploadService {
  readonly files: UploadFiles;
  private readonly now: () => Date;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(private readonly deps: UploadServiceDeps) {
    this.files = new UploadFiles(path.join(deps.dataDir, 'uploads'));
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Declares an upload. Refused with 413 past the largest file, and with 409 when the user's
   * unexpired uploads and this one would pass the quota (checked under a lock on the user's row,
   * so two requests at once cannot both squeeze in).
   */
  async create(userId: number, input: TCreateUploadRequest): Promise<UploadRecord> {
    const { maxBytes, userQuotaBytes, partSizeBytes } = this.deps;
    if (input.size > maxBytes) throw new AppError(413, 'upload_too_large', fillMessage(messages.uploads.tooLarge, { max: megabytes(maxBytes) }), 'size');
    const now = this.now();
    const row: UploadRow = {
      id: randomUUID(),
      userId,
      filename: input.filename,
      size: input.size,
      sha256: input.sha256,
      partSize: partSizeBytes,
      partCount: Math.ceil(input.size / partSizeBytes),
      status: 'receiving',
      createdAt: nowIso(now),
      expiresAt: nowIso(new Date(now.getTime() + UPLOADS.expiryHours * HOUR_MS)),
      completedAt: null,
    };
    await this.deps.db.transaction(async (trx) => {
      await forUpdateIfSupported(trx('users').where({ id: userId }).select('id'), trx);
      const [sum] = await trx('uploads').where('userId', userId).andWhere('expiresAt', '>', nowIso(now)).sum({ total: 'size' });
      const used = Number(sum?.total ?? 0);
      if (used + input.size > userQuotaBytes) {
        throw new AppError(409, 'upload_quota_exceeded', fillMessage(messages.uploads.quotaExceeded, { used: megabytes(used), max: megabytes(userQuotaBytes) }), 'size');
      }
      await trx('uploads').insert(row);
    });
    return toRecord(row);
  }

  /** The user's unexpired upload, or 404 (another user's upload is not there for this one). */
  private async owned(userId: number, id: string): Promise<UploadRecord> {
    const row = (await this.deps.db('uploads').where({ id, userId }).andWhere('expiresAt', '>', nowIso(this.now())).first()) as UploadRow | undefined;
    if (!row) throw notFound();
    return toRecord(row);
  }

  async get(userId: number, id: string): Promise<UploadState> {
    const upload = await this.owned(userId, id);
    const receivedParts =
      upload.status === 'complete' ? Array.from({ length: upload.partCount }, (_, i) => i + 1) : await this.files.receivedParts(id);
    return { ...upload, receivedParts, parse: this.deps.spreadsheets.status(id) };
  }

  /**
   * Stores part `n` from `body` (streamed to disk). `declaredBytes` (the request's Content-Length)
   * lets a wrong size be refused before a byte is read; without it the count decides.
   */
  async putPart(userId: number, id: string, n: number, body: Readable, declaredBytes: number | null): Promise<{ n: number; size: number }> {
    const upload = await this.owned(userId, id);
    if (upload.status === 'complete') throw ConflictError('upload_complete', messages.uploads.alreadyComplete);
    if (n > upload.partCount) {
      throw BadRequestError('part_out_of_range', fillMessage(messages.uploads.partOutOfRange, { n, count: upload.partCount }), 'n');
    }
    const expected = partBytes(upload.size, upload.partSize, n);
    const wrongSize = () => BadRequestError('part_wrong_size', fillMessage(messages.uploads.partWrongSize, { n, expected: formatIndianNumber(expected) }), 'n');
    if (declaredBytes !== null && declaredBytes !== expected) throw wrongSize();
    try {
      return { n, size: await this.files.writePart(id, n, body, expected) };
    } catch (error) {
      if (error instanceof PartSizeError) throw wrongSize();
      throw error;
    }
  }

  /**
   * Completes an upload: 409 with the missing parts, 422 when the parts do not make the declared
   * file, else the file's summary. Completing again (an answer lost on the way) reads it again.
   */
  async complete(userId: number, id: string, signal?: AbortSignal): Promise<UploadSummary> {
    const upload = await this.owned(userId, id);
    if (upload.status !== 'complete') await this.assemble(upload);
    const release = this.deps.spreadsheets.acquire(userId);
    try {
      const kind = detectUploadKind(await this.files.head(id, SNIFF_BYTES), upload.filename);
      const summary = await summariseSpreadsheetFile({ path: this.files.filePath(id), ...kind }, UPLOADS.sampleRows, { maxRows: UPLOADS.maxRows }, {
        pool: this.deps.spreadsheets.pool,
        signal,
        tag: id,
      });
      if (summary.truncated) throw new AppError(413, 'too_many_rows', fillMessage(messages.uploads.tooManyRows, { max: formatIndianNumber(UPLOADS.maxRows) }), 'file');
      return { id, rows: summary.rows, columns: summary.columns, sample: summary.sample };
    } finally {
      release();
    }
  }

  /**
   * The rows of a completed upload, the header row first, in the parse worker's batches (a send
   * from an upload): another user's, an unknown or an expired upload is 404, one not
   * completed yet 409. Reading holds one of the user's parse slots, like completing does.
   * `firstColumnOnly` sends only each row's first cell across (quick send's default column).
   */
  async *rowBatches(userId: number, id: string, options: { firstColumnOnly: boolean; signal?: AbortSignal | undefined }): AsyncGenerator<string[][]> {
    // An id that cannot be an upload's never reaches the database (PostgreSQL types the column) or a path.
    if (!ZUploadId.safeParse(id).success) throw notFound();
    const upload = await this.owned(userId, id);
    if (upload.status !== 'complete') throw ConflictError('upload_not_completed', messages.uploads.notCompleted);
    const release = this.deps.spreadsheets.acquire(userId);
    try {
      const kind = detectUploadKind(await this.files.head(id, SNIFF_BYTES), upload.filename);
      const rows = spreadsheetFileBatches({ path: this.files.filePath(id), ...kind }, { maxRows: UPLOADS.maxRows }, {
        pool: this.deps.spreadsheets.pool,
        firstColumnOnly: options.firstColumnOnly,
        signal: options.signal,
        // A send writes its recipients 5,000 at a time: ten batches ahead (a few MB) keep the
        // worker parsing on the other core while the main thread writes a chunk.
        readAhead: SEND_READ_AHEAD_BATCHES,
        tag: id,
      });
      // yield* passes an early stop on, ending the parse and its worker.
      const { truncated } = yield* rows;
      // Completing refused such a file; it is refused the same way here should it ever get through.
      if (truncated) throw new AppError(413, 'too_many_rows', fillMessage(messages.uploads.tooManyRows, { max: formatIndianNumber(UPLOADS.maxRows) }), 'file');
    } finally {
      release();
    }
  }

  private async assemble(upload: UploadRecord): Promise<void> {
    const { id } = upload;
    const missing = missingParts(upload.partCount, await this.files.receivedParts(id));
    if (missing.length > 0) {
      throw new AppError(409, 'upload_incomplete', fillMessage(messages.uploads.partsMissing, { parts: missing.slice(0, 20).join(', ') + (missing.length > 20 ? ', ...' : '') }), undefined, undefined, undefined, {
        missingParts: missing,
      });
    }
    let assembled: { temporary: string; sha256: string };
    try {
      assembled = await this.files.assemble(id, upload.partCount);
    } catch (error) {
      // A twin request completed it meanwhile and removed the parts.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (await this.files.hasFile(id))) return;
      throw error;
    }
    if (assembled.sha256 !== upload.sha256) {
      await this.files.dropAssembled(assembled.temporary);
      throw new AppError(422, 'checksum_mismatch', messages.uploads.checksumMismatch, 'sha256');
    }
    // File, then row, then parts: a crash in between leaves either the parts (completed again from
    // them) or a recorded file, never a receiving upload without its parts.
    await this.files.keepAssembled(assembled.temporary, id);
    await this.deps.db('uploads').where({ id, status: 'receiving' }).update({ status: 'complete', completedAt: nowIso(this.now()) });
    await this.files.removeParts(id);
  }

  /** Deletes one of the user's uploads and its files (frees its share of the quota at once). */
  async remove(userId: number, id: string): Promise<void> {
    await this.owned(userId, id);
    await this.files.remove(id);
    await this.deps.db('uploads').where({ id, userId }).delete();
  }

  /**
   * Deletes expired uploads, files first so a row never outlives a failed delete, and upload
   * folders no row names any more (a user deleted with uploads in flight). Every instance runs it;
   * two at once only delete the same things twice.
   */
  async sweepExpired(): Promise<number> {
    const now = this.now();
    let removed = 0;
    for (;;) {
      const ids = (await this.deps.db('uploads').where('expiresAt', '<=', nowIso(now)).orderBy('expiresAt').limit(200).pluck('id')) as string[];
      if (ids.length === 0) break;
      for (const id of ids) await this.files.remove(id);
      removed += await this.deps.db('uploads').whereIn('id', ids).delete();
      if (ids.length < 200) break;
    }
    const old = await this.files.foldersOlderThan(new Date(now.getTime() - UPLOADS.expiryHours * HOUR_MS));
    if (old.length > 0) {
      const known = new Set((await this.deps.db('uploads').whereIn('id', old).pluck('id')) as string[]);
      for (const id of old) if (!known.has(id)) await this.files.remove(id);
    }
    return removed;
  }

  /** Sweeps now and then every `UPLOADS.sweepEveryMs`. */
  start(): void {
    if (this.sweepTimer) return;
    const failures = new OutageLog(this.deps.log, 'the upload sweep');
    const sweep = () => {
      if (this.sweeping) return;
      this.sweeping = failures
        .tick(() => this.sweepExpired())
        .finally(() => {
          this.sweeping = null;
        });
    };
    sweep();
    this.sweepTimer = setInterval(sweep, UPLOADS.sweepEveryMs);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
  }
}
