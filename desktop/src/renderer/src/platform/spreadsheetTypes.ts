import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary, SpreadsheetUpload } from '@shared/spreadsheets';

/**
 * Spreadsheets read on this computer, one interface for both shells: the desktop's
 * bridge (`window.desktop.spreadsheets`, a worker thread of the main process) and the browser's Web
 * Worker. The method names are DesktopSpreadsheets' own; calls answer their value or throw an Error
 * whose message is a catalogue text (the desktop's BridgeResult unwrapped). The native-only calls
 * (notifications) stay on the bridge.
 */
export interface SpreadsheetAccess {
  /**
   * The shell's own open dialog (desktop), null where the page offers its file input instead (web).
   * Answers null when the user cancels.
   */
  readonly pick: (() => Promise<SpreadsheetFileRef | null>) | null;
  /** The largest file this shell can read, in bytes; null when it reads from disk as it goes (desktop). */
  readonly maxFileBytes: number | null;
  /** A file dropped on a send screen or chosen with the page's file input. */
  openDropped(file: File): Promise<SpreadsheetFileRef>;
  /** Recently opened spreadsheets, newest first (empty on the web: the browser keeps no paths). */
  recent(): Promise<SpreadsheetFileRef[]>;
  /** Reads the whole file: header, sample, rows counted, column statistics. */
  parse(fileId: string): Promise<SpreadsheetSummary>;
  /** Checks the mapping over every row and writes the normalised rows as gzip CSV. */
  prepare(fileId: string, mapping: SpreadsheetMapping): Promise<PreparedSpreadsheet>;
  /** Saves every invalid row with its reason as CSV; false when the user cancelled. */
  saveInvalidRows(preparedId: string): Promise<boolean>;
  /** Uploads the normalised file through the resumable uploads API; answers when it completes or pauses. */
  upload(preparedId: string): Promise<SpreadsheetUpload>;
  pauseUpload(preparedId: string): Promise<void>;
  resumeUpload(preparedId: string): Promise<SpreadsheetUpload>;
  /** Progress of parse, prepare and upload; answers the unsubscribe. */
  onProgress(listener: (progress: SpreadsheetProgress) => void): () => void;
  /** The taskbar/dock progress bar (0..1, -1 removes it); nothing on the web. */
  setTaskbarProgress(fraction: number): void;
}
