/**
 * Background loops and a database that goes away: a PostgreSQL failover or restart (or
 * `pg_terminate_backend`) ends every connection at once, and every loop's next statement fails
 * until the pools reconnect. Each loop keeps going through it: it catches the failure, logs it
 * once for the whole outage rather than once per tick, waits longer after each failure in a row,
 * and says when it works again.
 */
import type { Logger } from '../logger';

/** SQLSTATE classes and codes meaning the connection, not the statement, failed. */
const LOST_CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);
const LOST_CONNECTION_MESSAGE =
  /connection terminated|terminating connection|client has encountered a connection error|connection (?:is )?(?:closed|ended)|not queryable|timeout acquiring a connection|server closed the connection/i;

/** Whether an error (or the driver error it wraps) says the database connection was lost. */
export function isConnectionLoss(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, nativeError, cause } = error as { code?: unknown; message?: unknown; nativeError?: unknown; cause?: unknown };
  if (typeof code === 'string' && (LOST_CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message)) return true;
  return isConnectionLoss(nativeError, depth + 1) || isConnectionLoss(cause, depth + 1);
}

/**
 * What a log line keeps of an error: driver errors carry their pg client (kilobytes of pool state
 * per line otherwise).
 */
export function errorSummary(error: unknown): { message: string; code?: string; stack?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { message: error.message, ...(typeof code === 'string' ? { code } : {}), ...(error.stack ? { stack: error.stack } : {}) };
}

export interface OutageBackoff {
  /** The pause after the first failure; it doubles with each failure in a row. */
  firstMs: number;
  /** The longest pause. */
  maxMs: number;
  /**
   * For failures reported as events (no turn succeeds to end the outage): a failure this long
   * after the previous one starts a new outage, and is logged again.
   */
  quietMs: number;
}

const DEFAULT_BACKOFF: OutageBackoff = { firstMs: 250, maxMs: 10_000, quietMs: 60_000 };

/** One background loop's failures in a row: logged once per outage, with a growing pause. */
export class OutageLog {
  private failures = 0;
  private firstAt = 0;
  private lastAt = 0;
  private readonly backoff: OutageBackoff;

  constructor(
    private readonly log: Logger,
    /** What failed, in the log: "applying status events". */
    private readonly what: string,
    backoff: Partial<OutageBackoff> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.backoff = { ...DEFAULT_BACKOFF, ...backoff };
  }

  /** Whether the last turn failed. */
  get failing(): boolean {
    return this.failures > 0;
  }

  /**
   * A failed turn. The first of an outage is logged (a lost connection as a warning, anything
   * else as an error), the rest at debug level. Answers how long to wait before the next turn.
   */
  failed(error: unknown, context: Record<string, unknown> = {}): number {
    const now = this.now();
    if (this.failures > 0 && now - this.lastAt > this.backoff.quietMs) this.failures = 0;
    this.lastAt = now;
    this.failures += 1;
    const lost = isConnectionLoss(error);
    if (this.failures === 1) {
      this.firstAt = now;
      const fields = { ...context, err: errorSummary(error), connectionLost: lost };
      if (lost) this.log.warn(fields, `${this.what} failed: the database connection was lost; retrying with backoff`);
      else this.log.error(fields, `${this.what} failed; retrying with backoff`);
    } else {
      this.log.debug({ ...context, err: errorSummary(error), failures: this.failures }, `${this.what} failed again`);
    }
    return this.pauseMs();
  }

  /** The pause before the next turn after the failures so far (0 when the last turn worked). */
  pauseMs(): number {
    if (this.failures === 0) return 0;
    return Math.min(this.backoff.maxMs, this.backoff.firstMs * 2 ** Math.min(this.failures - 1, 20));
  }

  /** For a loop on a fixed interval: whether the pause after the last failure has passed. */
  ready(): boolean {
    return this.failures === 0 || this.now() - this.lastAt >= this.pauseMs();
  }

  /** Runs one turn of an interval loop unless backing off, and records how it went. */
  tick(turn: () => Promise<unknown>): Promise<void> {
    if (!this.ready()) return Promise.resolve();
    return turn().then(
      () => this.recovered(),
      (error: unknown) => void this.failed(error),
    );
  }

  /** A turn that worked: ends an outage under way, saying so once. */
  recovered(): void {
    if (this.failures === 0) return;
    this.log.warn({ failures: this.failures, outageMs: this.now() - this.firstAt }, `${this.what} works again`);
    this.failures = 0;
  }
}
