import type { z } from 'zod';
import { messages } from '@shared/messages';
import { zodIssuesToDetails } from '@shared/schemas/common';
import { ValidationError } from '../errors';

/**
 * Parses input with a shared schema. On failure answers 400 with the first message as `error`,
 * its field as `field`, and every field's first message in `details`.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const details = zodIssuesToDetails(result.error);
  const first = details[0];
  throw ValidationError(first?.field, first?.message ?? messages.validation.invalidRequest, details);
}
