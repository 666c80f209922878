/**
 * Files of conversations under DATA_DIR: what contacts send (`conversations/<user>/`, served only
 * to their owner through the API) and what users answer with (`media/replies/<user>/`, under an
 * unguessable name, because the provider fetches it by link as it does campaign headers).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONVERSATIONS } from '@shared/constants';

export const INBOUND_MEDIA_FOLDER = 'conversations';
export const REPLY_MEDIA_FOLDER = 'media/replies';

/** Leading bytes of each kept type; a file whose bytes say otherwise is refused. */
function bytesMatch(head: Buffer, mime: string): boolean {
  const at = (offset: number, text: string) => head.subarray(offset, offset + text.length).toString('latin1') === text;
  switch (mime) {
    case 'image/jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'image/png':
      return at(0, '\x89PNG');
    case 'image/webp':
      return at(0, 'RIFF') && at(8, 'WEBP');
    case 'video/mp4':
    case 'video/3gpp':
    case 'audio/mp4':
      return at(4, 'ftyp');
    case 'audio/ogg':
      return at(0, 'OggS');
    case 'audio/amr':
      return at(0, '#!AMR');
    case 'audio/mpeg':
      return at(0, 'ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0);
    case 'audio/aac':
      return head[0] === 0xff && ((head[1] ?? 0) & 0xf0) === 0xf0;
    case 'application/pdf':
      return at(0, '%PDF');
    default:
      return false;
  }
}

/**
 * The extension a file is kept under, when its declared type is one we keep and its bytes agree;
 * null otherwise. `audio/ogg; codecs=opus` (WhatsApp's voice notes) counts as `audio/ogg`.
 */
export function checkedExtension(bytes: Buffer, declaredMime: string): string | null {
  const mime = declaredMime.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = CONVERSATIONS.mediaTypes[mime];
  if (!extension || !bytesMatch(bytes.subarray(0, 16), mime)) return null;
  return extension;
}

/** The Cloud API media type a reply file is sent as. */
export function replyMediaType(extension: string): 'image' | 'video' | 'audio' | 'document' {
  if (extension === 'jpg' || extension === 'png') return 'image';
  if (extension === 'mp4' || extension === '3gp') return 'video';
  if (extension === 'pdf' || extension === 'webp') return 'document';
  return 'audio';
}

/** Writes a contact's file; answers its path relative to DATA_DIR. */
export async function storeInboundFile(dataDir: string, userId: number, messageId: number, extension: string, bytes: Buffer): Promise<string> {
  const relative = `${INBOUND_MEDIA_FOLDER}/${userId}/${messageId}.${extension}`;
  const absolute = path.resolve(dataDir, relative);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, bytes);
  return relative;
}

/** Writes a file a user will answer with; answers its id (`<uuid>.<ext>`), the `media_upload_id`. */
export async function storeReplyFile(dataDir: string, userId: number, extension: string, bytes: Buffer): Promise<string> {
  const id = `${randomUUID()}.${extension}`;
  const absolute = path.resolve(dataDir, REPLY_MEDIA_FOLDER, String(userId), id);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, bytes);
  return id;
}

/** A reply file's id as the upload answered it: a UUID and one of the kept extensions. */
export const REPLY_MEDIA_ID = /^[0-9a-f-]{36}\.(jpg|png|webp|mp4|3gp|aac|m4a|mp3|amr|ogg|pdf)$/;
