/** Resumable uploads from the desktop main process. */
export { createUploadClient, refusalText, retryAfterMs, sha256OfFile, UploadRefusedError } from './client';
export type { UploadClient, UploadClientOptions, UploadSource } from './client';
export { settingsUploadStore } from './store';
export type { StoredUpload, UploadStateStore } from './store';
export { desktopAuthHeaders } from './auth';
