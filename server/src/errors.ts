/**
 * Error factories with stable codes. The error middleware turns an AppError into
 * `{error, code, field?, details?}` with its status; anything else becomes a 500.
 */
import { messages } from '@shared/messages';
import type { TFieldMessage } from '@shared/schemas/common';
import type { TErrorResponse } from '@shared/types';

export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly field?: string,
    public readonly details?: TFieldMessage[],
    public readonly headers?: Record<string, string>,
    /** More fields of the error body beside `{error, code, field?, details?}`. */
    public readonly extra?: Pick<TErrorResponse, 'missingParts'>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const ValidationError = (field: string | undefined, message: string, details?: TFieldMessage[]) =>
  new AppError(400, 'validation_error', message, field, details);

export const BadRequestError = (code: string, message: string, field?: string) =>
  new AppError(400, code, message, field);

export const UnauthorizedError = (message: string = messages.auth.authenticationRequired, code = 'unauthorized') =>
  new AppError(401, code, message);

export const ForbiddenError = (message: string = messages.auth.adminRequired, code = 'forbidden') =>
  new AppError(403, code, message);

export const NotFoundError = (message: string = messages.server.notFound, code = 'not_found') =>
  new AppError(404, code, message);

export const ConflictError = (code: string, message: string, field?: string) =>
  new AppError(409, code, message, field, field ? [{ field, message }] : undefined);

export const PayloadTooLargeError = () => new AppError(413, 'body_too_large', messages.validation.bodyTooLarge);

export const TooManyRequestsError = (message: string, retryAfterSeconds: number, code = 'too_many_requests') =>
  new AppError(429, code, message, undefined, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export const ServiceUnavailableError = (code: string, message: string) => new AppError(503, code, message);

export const UnsupportedMediaTypeError = (message: string) => new AppError(415, 'unsupported_media_type', message);
