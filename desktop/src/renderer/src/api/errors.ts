import { isAxiosError } from 'axios';
import { messages } from '@shared/messages';
import type { TFieldMessage } from '@shared/schemas/common';
import type { TErrorResponse } from '@shared/types';

/** Every failed call rejects with this: the server's words where it sent some. */
export class ApiError extends Error {
  /** HTTP status, or 0 when no answer arrived (network failure, CORS, server down). */
  readonly status: number;
  /** Stable id from the server (`invalid_credentials`, ...), or `network_error` / `unknown_error`. */
  readonly code: string;
  /** The field the server named, for highlighting it in a form. */
  readonly field: string | undefined;
  readonly details: TFieldMessage[];
  /** The server's `error` text, when it sent one. */
  readonly serverMessage: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    serverMessage?: string;
    field?: string;
    details?: TFieldMessage[];
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.details = init.details ?? [];
    this.serverMessage = init.serverMessage;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

function isErrorBody(value: unknown): value is Partial<TErrorResponse> {
  return typeof value === 'object' && value !== null;
}

function readDetails(value: unknown): TFieldMessage[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is TFieldMessage =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as TFieldMessage).field === 'string' &&
      typeof (item as TFieldMessage).message === 'string',
  );
}

/** Turns whatever a call threw into an ApiError. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isAxiosError(error)) {
    const response = error.response;
    if (!response) {
      return new ApiError({ status: 0, code: 'network_error', message: messages.common.networkError });
    }
    const body: unknown = response.data;
    const parsed = isErrorBody(body) ? body : {};
    const serverMessage = typeof parsed.error === 'string' && parsed.error ? parsed.error : undefined;
    return new ApiError({
      status: response.status,
      code: typeof parsed.code === 'string' ? parsed.code : `http_${response.status}`,
      message: serverMessage ?? (response.status >= 500 ? messages.server.internal : messages.common.unknownError),
      serverMessage,
      field: typeof parsed.field === 'string' ? parsed.field : undefined,
      details: readDetails(parsed.details),
    });
  }
  return new ApiError({
    status: 0,
    code: 'unknown_error',
    message: error instanceof Error && error.message ? error.message : messages.common.unknownError,
  });
}

/**
 * The text to show for a failed call: the server's own words, else `fallback`, or
 * `networkFallback` when no answer arrived at all.
 */
export function errorText(error: unknown, fallback: string, networkFallback: string = messages.common.networkError): string {
  const apiError = toApiError(error);
  if (apiError.serverMessage) return apiError.serverMessage;
  if (apiError.isNetworkError) return networkFallback;
  return fallback;
}

/** Field -> message for a form: the `details` list, plus the single `field` the server named. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const apiError = toApiError(error);
  const result: Record<string, string> = {};
  for (const detail of apiError.details) result[detail.field] ??= detail.message;
  if (apiError.field && !(apiError.field in result)) result[apiError.field] = apiError.message;
  return result;
}
