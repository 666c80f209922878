/**
 * The server's spreadsheet reading: the parse worker pool with the configured
 * memory cap, and a bound on the parses one user has in flight. A request holds its slot from
 * before its upload is read until its answer is written (or the client goes away), so the bound
 * also caps the uploads a user can keep in memory at once. Slots are per server instance.
 *
 * Across users the pool runs at most `maxRunning` parses at once; the rest wait their turn in a
 * queue (first in, first out) and a tagged one (an upload's id) can say where it stands.
 */
import { fillMessage, messages } from '@shared/messages';
import { TooManyRequestsError } from '../errors';
import { ParseWorkerPool, type ParseRunStatus } from './parseWorkerPool';
import { importRecipients, type RecipientImportResult } from './recipientsImport';
import { readSpreadsheet, type SpreadsheetData, type SpreadsheetInput } from './read';

/** What a client is told to wait before trying again: about as long as a large parse takes. */
const RETRY_AFTER_SECONDS = 5;

export class SpreadsheetParses {
  readonly pool: ParseWorkerPool;
  private readonly inFlightByUser = new Map<number, number>();

  constructor(private readonly settings: { workerMemoryMb: number; perUser: number; maxRunning?: number; workerBufferMb?: number }) {
    this.pool = new ParseWorkerPool({ memoryMb: settings.workerMemoryMb, maxRunning: settings.maxRunning, bufferMb: settings.workerBufferMb });
  }

  /** Where the parse tagged `tag` (an upload's id) stands, or null when none is queued or running. */
  status(tag: string): ParseRunStatus | null {
    return this.pool.status(tag);
  }

  /**
   * Takes one of the user's parse slots, or refuses with 429 when all are taken. The returned
   * function gives it back; calling it more than once is harmless.
   */
  acquire(userId: number): () => void {
    const held = this.inFlightByUser.get(userId) ?? 0;
    if (held >= this.settings.perUser) {
      throw TooManyRequestsError(fillMessage(messages.sending.tooManyParses, { max: this.settings.perUser }), RETRY_AFTER_SECONDS, 'too_many_parses');
    }
    this.inFlightByUser.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlightByUser.get(userId) ?? 1) - 1;
      if (left > 0) this.inFlightByUser.set(userId, left);
      else this.inFlightByUser.delete(userId);
    };
  }

  /** Slots the user holds now (tests and diagnostics). */
  inFlight(userId: number): number {
    return this.inFlightByUser.get(userId) ?? 0;
  }

  /** The first sheet keyed by its header row (parse-excel). */
  read(file: SpreadsheetInput, signal?: AbortSignal): Promise<SpreadsheetData> {
    return readSpreadsheet(file, {}, { pool: this.pool, signal });
  }

  /** The numbers of the first column (import-recipients). */
  importRecipients(file: SpreadsheetInput, signal?: AbortSignal): Promise<RecipientImportResult> {
    return importRecipients(file, {}, { pool: this.pool, signal });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
