/**
 * Saving a file the app received (report exports). A link download with a blob URL works in the
 * browser and in Electron alike (Electron shows its own Save dialog for it), so both shells share
 * this until the desktop bridge offers a save method of its own.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL only has to outlive it by a moment.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
