/**
 * TEMPORARY BRIDGE (issue 16): the upload client is built on the "upload-client" branch. Until it
 * is merged, uploads answer the catalogue's "not available" text and nothing is pending. The lead
 * replaces this file with the real module's index on merge (its options add the pending-upload
 * store kept in the settings).
 */
import { messages } from '@shared/messages';
import type { UploadClient } from './types';

export type { UploadClient, UploadSource } from './types';

export interface UploadClientOptions {
  /** The server origin, asked at each upload. */
  serverUrl: () => Promise<string>;
  /** Headers that sign the requests in (the desktop's `Authorization: Bearer`), asked per request. */
  authHeaders: () => Promise<Record<string, string>>;
}

export function createUploadClient(options: UploadClientOptions): UploadClient {
  void options;
  const unavailable = (): Promise<never> => Promise.reject(new Error(messages.desktopFiles.notAvailable));
  return {
    upload: unavailable,
    pause: () => undefined,
    resume: unavailable,
    pending: () => Promise.resolve([]),
  };
}
