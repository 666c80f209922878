import type { Middleware } from 'koa';
import { messages } from '@shared/messages';
import type { TErrorResponse } from '@shared/types';
import { AppError } from '../errors';
import type { AppState } from '../types';

function isHttpError(error: unknown): error is { status: number; type?: string; expose?: boolean } {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

/** Turns every thrown error into the JSON error shape; unexpected ones are logged and hidden. */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let status = 500;
      let body: TErrorResponse = { error: messages.server.internal, code: 'internal_error' };
      if (error instanceof AppError) {
        status = error.status;
        body = { error: error.message, code: error.code, ...error.extra };
        if (error.field) body.field = error.field;
        if (error.details) body.details = error.details;
        for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      } else if (isHttpError(error) && error.status === 413) {
        status = 413;
        body = { error: messages.validation.bodyTooLarge, code: 'body_too_large' };
      } else if (isHttpError(error) && error.status >= 400 && error.status < 500) {
        status = error.status;
        body = { error: messages.validation.invalidRequest, code: 'bad_request' };
      } else {
        ctx.state.log?.error({ err: error }, 'unhandled error');
      }
      ctx.status = status;
      ctx.body = body;
    }
  };
}
