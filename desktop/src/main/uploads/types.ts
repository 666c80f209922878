/**
 * The desktop upload client's interface (issue 16, built by the "upload-client" work): resumable
 * uploads of a prepared file through `/api/uploads`. The IPC handlers in ../ipc/spreadsheets.ts
 * code against exactly these shapes.
 */
import type { SpreadsheetProgress, SpreadsheetUpload } from '@shared/spreadsheets';

export interface UploadSource {
  preparedId: string;
  path: string;
  filename: string;
  size: number;
}

export interface UploadClient {
  upload(source: UploadSource, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetUpload>;
  pause(preparedId: string): void;
  resume(preparedId: string, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetUpload>;
  pending(): Promise<SpreadsheetUpload[]>;
}
