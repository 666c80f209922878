/**
 * Quick Send's form: its fields as react-hook-form holds them, and the checks a send runs before
 * the cost preview, in the order the screen reports them (one toast, the first problem). Some
 * checks depend on what the page knows besides the fields (the template's variables once
 * loaded, the numbers counted, the spreadsheet read), passed in as `QuickSendChecks`.
 */
import { z } from 'zod';
import { fillMessage, messages } from '@shared/messages';
import { ZQuickSendRequest } from '@shared/schemas/sending';
import { DEFAULT_TEMPLATE_LANGUAGE } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { firstMissingVariable, variablesPayload } from './quickSend';
import { resolveSchedule, SEND_NOW } from './schedule';
import type { SendVariable } from './setup';

const s = messages.sending;

/** A chosen header image and the object URL its preview shows it through. */
interface ChosenImage {
  file: File;
  url: string;
}

/**
 * Where the numbers come from: typed or pasted, a spreadsheet read on this computer, or the
 * contact book (a segment or tags, sent through the audience send with its own preview).
 */
export const RECIPIENT_SOURCES = ['typed', 'spreadsheet', 'contacts'] as const;
export type RecipientSource = (typeof RECIPIENT_SOURCES)[number];

const ZQuickSendFields = z.object({
  numberId: z.string(),
  language: z.string(),
  template: z.custom<TTemplate | null>(),
  campaignName: z.string(),
  source: z.enum(RECIPIENT_SOURCES),
  recipientsText: z.string(),
  /** The header image of a template that has one, with the object URL its preview uses. */
  image: z.custom<ChosenImage | null>(),
  values: z.record(z.string(), z.string()),
  /** Send now, or at a time in IST. */
  schedule: z.object({ mode: z.enum(['now', 'later']), local: z.string() }),
});
export type TQuickSendForm = z.input<typeof ZQuickSendFields>;

/** The fields a send checks, in the order their problems are told. */
export const QUICK_SEND_CHECK_ORDER = ['numberId', 'template', 'recipientsText', 'image', 'values', 'schedule'] as const;

/** `?source=contacts` (the contact screens' links) opens Quick Send on the Contacts source. */
export function recipientSourceFromQuery(value: string | null): RecipientSource {
  return RECIPIENT_SOURCES.find((source) => source === value) ?? 'typed';
}

export function emptyQuickSendForm(): TQuickSendForm {
  return {
    numberId: '',
    language: DEFAULT_TEMPLATE_LANGUAGE,
    template: null,
    campaignName: '',
    source: 'typed',
    recipientsText: '',
    image: null,
    values: {},
    schedule: SEND_NOW,
  };
}

/**
 * The issue of a send tried while the template's variables are still loading: never shown (the
 * spinner in their step says so), it only stops the send.
 */
export const VARIABLES_LOADING = 'variables-loading';

/** What the page knows besides the fields. */
export interface QuickSendChecks {
  /** Numbers to send to: valid typed ones, or the spreadsheet's rows. */
  count: number;
  /** Typed entries that are not numbers, to say so when none is valid. */
  invalidTyped: number;
  /** The spreadsheet's column of numbers ('' before one is chosen). */
  sheetColumn: string;
  /** The chosen template's details: its variables are known once loaded. */
  details: { status: 'pending' | 'error' | 'success'; failure: string };
  variables: readonly SendVariable[];
  needsImage: boolean;
  now?: () => Date;
}

/**
 * The form's schema for a send: the first problem as the issue of its field, otherwise the values
 * the send takes, the variables and the campaign fields checked with the server's own
 * `ZQuickSendRequest` rules. `checksNow` is read when a send is checked, not when the form is made.
 */
export function quickSendFormSchema(checksNow: () => QuickSendChecks) {
  return ZQuickSendFields.transform((form, context) => {
    const checks = checksNow();
    const problem = (field: (typeof QUICK_SEND_CHECK_ORDER)[number], message: string) => {
      context.addIssue({ code: 'custom', path: [field], message });
      return z.NEVER;
    };
    const fromSheet = form.source === 'spreadsheet';
    if (!form.numberId || !form.template || checks.count === 0) {
      const field = !form.numberId ? 'numberId' : !form.template ? 'template' : 'recipientsText';
      return problem(field, !fromSheet && checks.count === 0 && checks.invalidTyped > 0 ? s.noValidRecipients : s.missingFields);
    }
    if (fromSheet && !checks.sheetColumn) return problem('recipientsText', messages.spreadsheets.recipientColumnRequired);
    if (checks.details.status !== 'success') return problem('template', checks.details.status === 'error' ? checks.details.failure : VARIABLES_LOADING);
    if (checks.needsImage && !form.image) return problem('image', s.imageRequired);
    const missing = firstMissingVariable(checks.variables, form.values);
    if (missing) return problem('values', fillMessage(s.variableMissing, { name: missing.index }));
    const schedule = resolveSchedule(form.schedule, checks.now?.());
    if (!schedule.ok) return problem('schedule', schedule.problem);
    const variables = variablesPayload(checks.variables, form.values);
    const server = ZQuickSendRequest.safeParse({
      phone_number_id: form.numberId,
      template_name: form.template.name,
      language: form.language,
      recipients_text: '',
      variables,
      campaign_name: form.campaignName,
    });
    if (!server.success) return problem('template', server.error.issues[0]?.message ?? s.missingFields);
    return { ...form, template: form.template, variables, scheduledAt: schedule.scheduledAt };
  });
}
export type TQuickSendChecked = z.output<ReturnType<typeof quickSendFormSchema>>;
