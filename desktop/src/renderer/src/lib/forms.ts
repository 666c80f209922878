import type { z } from 'zod';
import { zodIssuesToFieldErrors } from '@shared/schemas/common';

export type FieldErrors = Record<string, string>;

export type FormValidation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** Runs the shared schema a form and the server both use; errors come back per field. */
export function validateForm<S extends z.ZodType>(schema: S, values: unknown): FormValidation<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: zodIssuesToFieldErrors(result.error) };
}

/** A field's error goes away as soon as the field is edited (spec 000 §5). */
export function withoutField(errors: FieldErrors, field: string): FieldErrors {
  if (!(field in errors)) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}
