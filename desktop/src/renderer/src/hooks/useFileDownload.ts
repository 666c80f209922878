import { useState } from 'react';
import { errorText } from '../api/client';
import { errorToast, type ToastId } from '../lib/toasts';
import { saveFile } from '../platform/files';

/**
 * A screen's file downloads (PDFs, CSV exports): which one is on its way, so its button waits,
 * and a toast in the screen's own words when the server refuses or the network fails.
 */
export function useFileDownload(toastId: ToastId, failedText: string) {
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (key: string, fetchFile: () => Promise<{ blob: Blob; filename: string }>) => {
    setBusy(key);
    try {
      const { blob, filename } = await fetchFile();
      saveFile(blob, filename);
    } catch (caught) {
      errorToast(toastId, errorText(caught, failedText));
    } finally {
      setBusy(null);
    }
  };
  return { busy, download };
}
