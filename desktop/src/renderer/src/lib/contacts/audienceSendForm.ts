/**
 * The Contacts recipient source of the send screens: a segment or tagged contacts, and where each
 * template variable comes from (a contact's attribute with a fallback, or a fixed text). The
 * fields are checked in the order the screen reports them, then as the server checks the request,
 * with the shared `ZAudienceSendRequest`. What the page owns (template, number, campaign name,
 * schedule) is read through `contextNow` when a preview or a send is checked.
 */
import { z } from 'zod';
import { fillMessage, messages } from '@shared/messages';
import { AUDIENCE_TAG_MATCHES, ZAudienceSendRequest, type TAudienceSendRequest } from '@shared/schemas/contacts';
import { splitTags } from './contactImport';

const s = messages.contactScreens;

/** A variable's source when it is a text every contact gets (the select's first option). */
export const FIXED_TEXT = '';
export const AUDIENCE_KINDS = ['segment', 'tags'] as const;

const ZVariableSource = z.object({ source: z.string(), text: z.string(), fallback: z.string() });
export type VariableSource = z.infer<typeof ZVariableSource>;
export const EMPTY_VARIABLE_SOURCE: VariableSource = { source: FIXED_TEXT, text: '', fallback: '' };

const ZAudienceFields = z.object({
  audience: z.enum(AUDIENCE_KINDS),
  segmentId: z.string(),
  tags: z.string(),
  tagsMatch: z.enum(AUDIENCE_TAG_MATCHES),
  /** Keyed by the template's variable ("1", "2", ...), held whole so that its keys stay keys. */
  variables: z.record(z.string(), ZVariableSource),
});
export type TAudienceForm = z.input<typeof ZAudienceFields>;

/** The fields whose problems the screen reports, in that order. */
export const AUDIENCE_CHECK_ORDER = ['segmentId', 'tags', 'variables'] as const;

/** What the page knows besides these fields. */
export interface AudienceSendContext {
  templateName: string;
  language: string;
  numberId: string;
  campaignName: string;
  /** The template's variables, once its details are loaded. */
  variables: readonly string[];
  scheduledAt?: string;
}

/** An empty form, or one opened for a segment or tags (`?segment=` / `?tags=` from the contact screens). */
export function emptyAudienceForm(initial: { segment?: string | null; tags?: string | null } = {}): TAudienceForm {
  return {
    audience: initial.tags && !initial.segment ? 'tags' : 'segment',
    segmentId: initial.segment ?? '',
    tags: initial.tags ?? '',
    tagsMatch: 'any',
    variables: {},
  };
}

export function audienceSendFormSchema(contextNow: () => AudienceSendContext) {
  return ZAudienceFields.transform((form, issues): TAudienceSendRequest => {
    const context = contextNow();
    const problem = (field: (typeof AUDIENCE_CHECK_ORDER)[number], message: string) => {
      issues.addIssue({ code: 'custom', path: [field], message });
      return z.NEVER;
    };
    const tags = splitTags(form.tags);
    if (form.audience === 'segment' && form.segmentId === '') return problem('segmentId', s.segmentRequired);
    if (form.audience === 'tags' && tags.length === 0) return problem('tags', s.tagsRequired);
    const variables: Record<string, string> = {};
    const fallbacks: Record<string, string> = {};
    for (const variable of context.variables) {
      const entry = form.variables[variable] ?? EMPTY_VARIABLE_SOURCE;
      if (entry.source === FIXED_TEXT) {
        if (entry.text.trim() === '') return problem('variables', fillMessage(s.fixedTextRequired, { variable: `{{${variable}}}` }));
        variables[variable] = entry.text.trim();
      } else {
        variables[variable] = entry.source;
        if (entry.fallback.trim() !== '') fallbacks[variable] = entry.fallback.trim();
      }
    }
    const request = ZAudienceSendRequest.safeParse({
      templatename: context.templateName,
      language: context.language,
      ...(context.numberId ? { phone_number_id: context.numberId } : {}),
      ...(context.campaignName.trim() ? { campaign_name: context.campaignName.trim() } : {}),
      ...(form.audience === 'segment' ? { segment_id: Number(form.segmentId) } : { tags, tags_match: form.tagsMatch }),
      variables,
      fallbacks,
      ...(context.scheduledAt ? { scheduledAt: context.scheduledAt } : {}),
    });
    if (!request.success) return problem(form.audience === 'segment' ? 'segmentId' : 'tags', request.error.issues[0]?.message ?? messages.sending.missingFields);
    return request.data;
  });
}
