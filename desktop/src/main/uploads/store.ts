/**
 * Where the upload client keeps the uploads it has not finished, so that a new run of the app
 * resumes them: the app's settings file (settings.ts, `pendingUploads`).
 */
import type { PendingUpload, SettingsStore } from '../settings';

export type StoredUpload = PendingUpload;

export interface UploadStateStore {
  load(): Promise<StoredUpload[]>;
  save(uploads: StoredUpload[]): Promise<void>;
}

/** The pending uploads kept in the desktop settings (checked by zod on the way in and out). */
export function settingsUploadStore(settings: Pick<SettingsStore, 'getPendingUploads' | 'setPendingUploads'>): UploadStateStore {
  return {
    load: () => settings.getPendingUploads(),
    save: (uploads) => settings.setPendingUploads(uploads),
  };
}
