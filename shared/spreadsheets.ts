/**
 * Local spreadsheet handling: the shapes the desktop main process and the browser's
 * Web Worker answer, so the renderer's send screens read one contract in both shells. A file is
 * picked (dialog, drag and drop or recent files), parsed with progress, checked against a mapping
 * (numbers normalised with shared/phone.ts rules, invalid rows with reasons, duplicates inside the
 * file removed), written as a gzip CSV of the normalised rows and uploaded through the resumable
 * uploads API; the send then names the upload's id.
 */
import type { ParameterRule } from './parameterLimits';

/** A file the user chose; `fileId` is opaque (the desktop keeps the path in the main process). */
export interface SpreadsheetFileRef {
  fileId: string;
  filename: string;
  size: number;
}

/** `queued`: the upload arrived and waits for one of the server's parse slots (see `queuePosition`). */
export type SpreadsheetPhase = 'parsing' | 'checking' | 'writing' | 'uploading' | 'queued';

/** Progress of a long step, for progress bars (and the taskbar/dock bar on the desktop). */
export interface SpreadsheetProgress {
  fileId: string;
  phase: SpreadsheetPhase;
  rows: number;
  bytes: number;
  totalBytes: number;
  /** 0..100 */
  percent: number;
  /** In the `queued` phase: the upload's place in the server's parse queue (1 is next). */
  queuePosition?: number;
}

export interface SpreadsheetColumnStats {
  name: string;
  /** Data rows with a value in this column. */
  filled: number;
  empty: number;
  /** Distinct values seen (capped: `distinctCapped` says the count stopped counting). */
  distinct: number;
  distinctCapped: boolean;
  /** Values that read as phone numbers under the shared rules (to suggest the number column). */
  phoneLike: number;
}

/** A parsed file: its header, first rows and figures for the mapping step. */
export interface SpreadsheetSummary {
  fileId: string;
  filename: string;
  size: number;
  /** Data rows (the header row excluded, empty rows skipped). */
  rows: number;
  header: string[];
  /** The first data rows keyed by header (cells as message text, shared/sheetRows.ts cellText). */
  sample: Record<string, string>[];
  columns: SpreadsheetColumnStats[];
}

/** Which column holds the numbers, and which column fills each template variable. */
export interface SpreadsheetMapping {
  recipientColumn: string;
  /** Variable name (without braces) -> column header. Empty for Quick Send. */
  variableMappings: Record<string, string>;
  /**
   * The template's parameter limits (shared/parameterLimits.ts `parameterRule`): a row whose value
   * WhatsApp would refuse is invalid, with the reason acceptance gives. Without it values are not
   * held to them.
   */
  parameterRule?: ParameterRule;
}

export interface InvalidSpreadsheetRow {
  /** 1-based line in the file as the user sees it (the header is line 1). */
  line: number;
  value: string;
  /** A text from the message catalogue (messages.phone.invalid[...] and the like). */
  reason: string;
}

/** A mapping checked over the whole file and the normalised rows written, ready to upload. */
export interface PreparedSpreadsheet {
  /** Opaque id of the normalised gzip CSV (kept by the main process or the worker). */
  preparedId: string;
  fileId: string;
  validRows: number;
  invalidRows: number;
  duplicatesRemoved: number;
  /** The first invalid rows (at most 1,000); all of them are in the downloadable CSV. */
  invalidSample: InvalidSpreadsheetRow[];
  /** Size in bytes of the normalised gzip CSV to upload. */
  preparedSize: number;
}

export type UploadState = 'uploading' | 'paused' | 'complete' | 'failed';

/** An upload the app is doing or can resume (kept in the desktop settings across restarts). */
export interface SpreadsheetUpload {
  preparedId: string;
  uploadId: string;
  filename: string;
  size: number;
  sentBytes: number;
  state: UploadState;
  /** A catalogue text when state is 'failed'. */
  error?: string;
}
