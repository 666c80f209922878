import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { fillMessage, messages } from '@shared/messages';
import { HEADER_MEDIA_MAX_BYTES, type MediaHeaderType } from '@shared/templates';
import { ValidationError } from '../errors';

/** What WhatsApp accepts per header type, by the file's real content (not its name). */
const ACCEPTED: Record<MediaHeaderType, readonly string[]> = {
  image: ['image/jpeg', 'image/png'],
  video: ['video/mp4', 'video/3gpp'],
  document: ['application/pdf'],
};

export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

export interface StoredMedia {
  /** Relative to DATA_DIR. */
  relativePath: string;
  mime: string;
  name: string;
  size: number;
}

function headerTypeOf(mime: string): MediaHeaderType | null {
  for (const [type, mimes] of Object.entries(ACCEPTED) as [MediaHeaderType, readonly string[]][]) {
    if (mimes.includes(mime)) return type;
  }
  return null;
}

/**
 * Checks an uploaded header file by its content: the sniffed type must be an accepted image,
 * video or document, match the chosen header type, and fit that type's size limit.
 */
export async function inspectHeaderMedia(file: UploadedFile, headerType: MediaHeaderType): Promise<{ mime: string; extension: string }> {
  const sniffed = await fileTypeFromBuffer(file.buffer);
  const sniffedType = sniffed ? headerTypeOf(sniffed.mime) : null;
  if (!sniffed || !sniffedType) throw ValidationError('headerMedia', messages.templates.fileTypeInvalid);
  if (sniffedType !== headerType) throw ValidationError('headerMedia', messages.templates.fileTypeMismatch);
  const limit = HEADER_MEDIA_MAX_BYTES[headerType];
  if (file.size > limit) {
    throw ValidationError('headerMedia', fillMessage(messages.templates.fileTooLarge, { size: Math.round(limit / 1024 / 1024) }));
  }
  return { mime: sniffed.mime, extension: sniffed.ext };
}

export class TemplateMediaStore {
  constructor(private readonly dataDir: string) {}

  async save(userId: number, file: UploadedFile, headerType: MediaHeaderType): Promise<StoredMedia> {
    const { mime, extension } = await inspectHeaderMedia(file, headerType);
    const relativePath = path.join('media', 'templates', String(userId), `${randomUUID()}.${extension}`);
    const absolute = this.resolve(relativePath);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, file.buffer, { mode: 0o600 });
    const safeName = path.basename(file.originalname).replace(/[^\w.\- ]+/g, '_').slice(0, 200) || `header.${extension}`;
    return { relativePath, mime, name: safeName, size: file.size };
  }

  /** Absolute path of a stored file; refuses anything outside the media folder. */
  resolve(relativePath: string): string {
    const root = path.resolve(this.dataDir, 'media');
    const absolute = path.resolve(this.dataDir, relativePath);
    if (!absolute.startsWith(root + path.sep)) throw new Error(`media path outside the media folder: ${relativePath}`);
    return absolute;
  }

  async remove(relativePath: string | null): Promise<void> {
    if (!relativePath) return;
    await rm(this.resolve(relativePath), { force: true });
  }
}
