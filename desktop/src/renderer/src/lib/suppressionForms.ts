/**
 * The suppression list screen's two forms, checked by the schemas the server runs on the same
 * requests (POST /api/suppressions, PUT /api/suppressions/keywords), so a number or a keyword
 * list the server would refuse is named under its field before it is sent.
 */
import { z } from 'zod';
import { ZCreateSuppressionRequest, ZOptOutKeywordsRequest } from '@shared/schemas/suppressions';
import { textFieldsCheckedBy } from '../components/form/useSchemaForm';

export const ZAddSuppressionForm = textFieldsCheckedBy(['phone', 'reason'], ZCreateSuppressionRequest);

/** One keyword a line; blank lines are not keywords. */
export function keywordLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The keywords as typed, one a line; every message of the list's rules is shown under the box. */
export const ZOptOutKeywordsForm = z.object({ keywords: z.string() }).transform((form, context) => {
  const result = ZOptOutKeywordsRequest.safeParse({ keywords: keywordLines(form.keywords) });
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.addIssue({ code: 'custom', path: ['keywords'], message: issue.message });
  return z.NEVER;
});
