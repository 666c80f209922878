/**
 * multipart/form-data with at most one file, held in memory (the send screens' spreadsheets and
 * header images, template header media). JSON bodies pass through untouched; the body is read
 * only for a signed-in caller, and multer's limits answer with the catalogue's words.
 */
import multer from '@koa/multer';
import type { Middleware } from 'koa';
import { ValidationError } from '../errors';
import type { AppState } from '../types';
import { requireAuth } from './auth';

export interface SingleFileUploadOptions {
  /** The form field that carries the file. */
  field: string;
  maxBytes: number;
  /** The form fields beside the file: how many, and how large each may be. */
  maxFields: number;
  maxFieldBytes: number;
  /** What a file over `maxBytes` is told. */
  tooLarge: string;
  /** What any other limit (a second file, too many or too large fields) is told. */
  otherLimit: string;
}

/** A file as a route reads it after the upload middleware. */
export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

export function singleFileUpload(options: SingleFileUploadOptions): Middleware<AppState> {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: options.maxBytes, files: 1, fields: options.maxFields, fieldSize: options.maxFieldBytes },
  }).single(options.field);
  return async (ctx, next) => {
    if (!ctx.is('multipart')) return next();
    requireAuth(ctx);
    try {
      await upload(ctx as never, async () => undefined);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'LIMIT_FILE_SIZE') throw ValidationError(options.field, options.tooLarge);
      if (code?.startsWith('LIMIT_')) throw ValidationError(options.field, options.otherLimit);
      throw error;
    }
    return next();
  };
}

/** The file the upload middleware read, if the request carried one. */
export function uploadedFile(ctx: { request: unknown }): UploadedFile | undefined {
  const file = (ctx.request as { file?: UploadedFile }).file;
  return file ? { originalname: file.originalname, buffer: file.buffer, size: file.size } : undefined;
}
