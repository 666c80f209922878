import { z } from 'zod';
import { UPLOADS } from '../constants';
import { fillMessage, messages } from '../messages';

/**
 * Resumable uploads: create, put parts, ask what arrived, complete with a checksum.
 * The server chooses the part size; parts are numbered from 1, the last one holds the remainder.
 */

const m = messages.uploads;

export const ZCreateUploadRequest = z
  .object({
    filename: z
      .string({ error: m.filenameRequired })
      .trim()
      .min(1, { error: m.filenameRequired })
      .max(UPLOADS.filenameMaxLength, { error: fillMessage(m.filenameTooLong, { max: UPLOADS.filenameMaxLength }) }),
    size: z.number({ error: m.sizeInvalid }).int({ error: m.sizeInvalid }).min(1, { error: m.sizeInvalid }).max(Number.MAX_SAFE_INTEGER, { error: m.sizeInvalid }),
    sha256: z
      .string({ error: m.checksumInvalid })
      .trim()
      .regex(/^[0-9a-fA-F]{64}$/, { error: m.checksumInvalid })
      .transform((digest) => digest.toLowerCase()),
  })
  .meta({
    id: 'CreateUploadRequest',
    examples: [{ filename: 'recipients.csv.gz', size: 52_428_800, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }],
  });
export type TCreateUploadRequest = z.infer<typeof ZCreateUploadRequest>;

/** An upload's id: a random UUID (it also names the upload's folder on disk). */
export const ZUploadId = z.uuid({ error: m.notFound });

/** A part number in a path; the range of one upload is checked against its part count. */
export const ZPartNumber = z.coerce.number().int().min(1).max(UPLOADS.maxParts);

export const ZUploadCreated = z.object({
  id: z.string(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  expiresAt: z.string(),
});
export type TUploadCreated = z.infer<typeof ZUploadCreated>;

export const UPLOAD_STATUSES = ['receiving', 'complete'] as const;
export type TUploadStatus = (typeof UPLOAD_STATUSES)[number];

/**
 * Where the upload's parse stands on the instance answering: waiting for one of the instance's
 * parse slots (`position` 1 is next), or reading. Null when no parse of it is in flight there.
 */
export const ZUploadParse = z.discriminatedUnion('state', [
  z.object({ state: z.literal('queued'), position: z.number().int().min(1) }),
  z.object({ state: z.literal('parsing') }),
]);
export type TUploadParse = z.infer<typeof ZUploadParse>;

/** What `GET /api/uploads/{id}` answers, so a client can resume: the parts that arrived. */
export const ZUpload = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number().int(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  receivedParts: z.array(z.number().int()),
  status: z.enum(UPLOAD_STATUSES),
  expiresAt: z.string(),
  parse: ZUploadParse.nullable().optional(),
});
export type TUpload = z.infer<typeof ZUpload>;

export const ZUploadPartReceived = z.object({ n: z.number().int(), size: z.number().int() });
export type TUploadPartReceived = z.infer<typeof ZUploadPartReceived>;

/** A completed upload: its data rows counted, its columns, and its first rows keyed by column. */
export const ZUploadCompleted = z.object({
  id: z.string(),
  rows: z.number().int(),
  columns: z.array(z.string()),
  sample: z.array(z.record(z.string(), z.string())),
});
export type TUploadCompleted = z.infer<typeof ZUploadCompleted>;
