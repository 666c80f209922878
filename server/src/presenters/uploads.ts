import type { TUpload, TUploadCompleted, TUploadCreated, TUploadPartReceived } from '@shared/schemas/uploads';
import type { UploadRecord, UploadState, UploadSummary } from '../uploads/service';

/** `POST /api/uploads`: what the client needs to send the parts. */
export function presentUploadCreated(upload: UploadRecord): TUploadCreated {
  return { id: upload.id, partSize: upload.partSize, partCount: upload.partCount, expiresAt: upload.expiresAt.toISOString() };
}

/** `GET /api/uploads/{id}`: enough to resume after a broken connection or a restart. */
export function presentUpload(upload: UploadState): TUpload {
  return {
    id: upload.id,
    filename: upload.filename,
    size: upload.size,
    partSize: upload.partSize,
    partCount: upload.partCount,
    receivedParts: upload.receivedParts,
    status: upload.status,
    expiresAt: upload.expiresAt.toISOString(),
    parse: upload.parse,
  };
}

export function presentUploadPart(part: { n: number; size: number }): TUploadPartReceived {
  return { n: part.n, size: part.size };
}

export function presentUploadCompleted(summary: UploadSummary): TUploadCompleted {
  return { id: summary.id, rows: summary.rows, columns: summary.columns, sample: summary.sample };
}
