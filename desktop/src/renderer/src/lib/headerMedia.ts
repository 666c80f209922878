/** Client-side checks of a template header file (spec 002 §5); the server sniffs the content again. */
import { TEMPLATE_LIMITS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { HEADER_MEDIA_MAX_BYTES, type MediaHeaderType } from '@shared/templates';

const t = messages.templates;

/** What the file picker offers per header type (a hint only: the check below decides). */
export const HEADER_MEDIA_ACCEPT: Record<MediaHeaderType, string> = {
  image: 'image/jpeg,image/png',
  video: 'video/mp4,video/3gpp',
  document: 'application/pdf,.pdf',
};

export const HEADER_MEDIA_MAX_MB: Record<MediaHeaderType, number> = {
  image: TEMPLATE_LIMITS.headerImageMaxMb,
  video: TEMPLATE_LIMITS.headerVideoMaxMb,
  document: TEMPLATE_LIMITS.headerDocumentMaxMb,
};

/** The MIME family each header type takes: documents are application/* (PDF and the like). */
const FAMILY: Record<MediaHeaderType, string> = { image: 'image/', video: 'video/', document: 'application/' };

export function isMediaHeaderType(type: string): type is MediaHeaderType {
  return type === 'image' || type === 'video' || type === 'document';
}

/**
 * The spec's message for a file that cannot be a header of `headerType`, or null when it may be:
 * type first (image, video or application), then that it fits the chosen header type, then size.
 */
export function headerMediaError(file: { type: string; size: number }, headerType: MediaHeaderType): string | null {
  const type = file.type.toLowerCase();
  if (!Object.values(FAMILY).some((family) => type.startsWith(family))) return t.fileTypeInvalid;
  if (!type.startsWith(FAMILY[headerType])) return t.fileTypeMismatch;
  if (file.size > HEADER_MEDIA_MAX_BYTES[headerType]) return fillMessage(t.fileTooLarge, { size: HEADER_MEDIA_MAX_MB[headerType] });
  return null;
}

/** "1.4 MB", "820 KB" for the picked file's line. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
