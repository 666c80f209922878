/**
 * Sends to an audience of contacts rather than to a list or a sheet: the app's send to a segment
 * or to tagged contacts (with its preview), and the entries a send to a segment through the API
 * takes. Each mapped field takes the contact's attribute, else its fallback; opted-out contacts
 * are left out and counted; what remains goes through the same screening and acceptance as any send.
 */
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import type { PriceCategory } from '@shared/pricing';
import type { TAudienceSendRequest, TSegmentFilter } from '@shared/schemas/contacts';
import { NotFoundError, ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { CostQuote, PricingService } from '../pricing/service';
import type { TemplateService } from '../templates/service';
import type { AcceptCampaignInput, AcceptedCampaign } from './campaignAcceptance';
import type { SenderNumber } from './senderNumbers';
import { checkScheduleTime } from './schedule';
import { setAsideRows, type ScreenedEntries } from './sendScreening';
import { apiHeaderMedia, apiValueReader, findApiTemplate } from './apiFields';
import type { SendAccepted, SendCore, UploadedImage } from './service';

/**
 * Where a send to a segment reads its recipients, a page at a time: numbers and the attribute
 * values named, opt-outs left out and counted.
 */
export interface SegmentRecipientSource {
  recipients(
    ownerId: number,
    segmentId: number,
    attributeNames: readonly string[],
    onPage: (page: { phone: string; values: Record<string, string | null> }[]) => void,
  ): Promise<{ segment: { id: number; filter: unknown }; optedOut: number }>;
  /** The same for a filter not saved as a segment (the app's send to tagged contacts). */
  recipientsOf?(
    ownerId: number,
    filter: TSegmentFilter,
    attributeNames: readonly string[],
    onPage: (page: { phone: string; values: Record<string, string | null> }[]) => void,
  ): Promise<{ optedOut: number }>;
}

/** What a send to an audience would do, before it is sent. */
export interface AudiencePreview {
  recipients: number;
  optedOut: number;
  usingFallback: number;
  category: string;
  quote: CostQuote;
  /** The first recipient and its template values, for a sample of the message. */
  sample: { phone: string; values: Record<string, string> } | null;
}

/** A segment's contacts as a send's recipients, with what the campaign keeps of the segment. */
export interface SegmentRecipients {
  screened: ScreenedEntries;
  segmentId: number;
  filter: unknown;
  optedOut: number;
}

/** A variable mapped to a contact's attribute: `attr:first_name` (`attr:name` is the contact's name). */
const ATTRIBUTE_VARIABLE = /^attr:([A-Za-z][A-Za-z0-9_]*)$/;

/** How one template field is filled: from an attribute (else its fallback), or with the same text for everyone. */
interface FieldSource {
  field: string;
  attribute: string | undefined;
  text: string;
  fallback: string | undefined;
}

/** The fields' sources, worked out once per send rather than once per contact. */
function fieldSources(variables: Record<string, string>, fallbacks: Record<string, string>): FieldSource[] {
  return Object.entries(variables).map(([field, spec]) => ({ field, attribute: ATTRIBUTE_VARIABLE.exec(spec)?.[1], text: spec, fallback: fallbacks[field] }));
}

/**
 * A contact's fields for the template: each mapped field takes the contact's attribute
 * (`attr:<name>`), else its fallback; any other text is the same for everyone. `fellBack` says a
 * fallback (or nothing) stood in for a missing attribute.
 */
function contactFields(contact: { values: Record<string, string | null> }, sources: readonly FieldSource[]): { fields: Record<string, string>; fellBack: boolean } {
  const fields: Record<string, string> = {};
  let fellBack = false;
  for (const source of sources) {
    const own = source.attribute === undefined ? source.text : contact.values[source.attribute];
    const value = own ?? source.fallback;
    if (own === null || own === undefined) fellBack = true;
    if (value !== undefined && value !== null) fields[source.field] = value;
  }
  return { fields, fellBack };
}

/**
 * A segment's contacts made recipients as their pages arrive, with no entry between a contact and
 * its recipient row. A contact's number is stored in its one form and is its owner's only contact
 * with it, so the screening a typed list or a sheet goes through (numbers as written, repeats within
 * the send) has nothing to find here, and read again as typed, a stored number of another country
 * that looks like an Indian mobile without its code would be sent to India. Each contact's values
 * go through the template's rule (`valuesOf`), so a missing or refused value refuses the send as in
 * any other. Without `valuesOf` (a preview) the contacts are only counted.
 */
class AudienceRecipients {
  readonly screened: ScreenedEntries = { recipients: [], rows: [], skipped: [], invalid: 0, missingValues: 0, inSendDuplicates: 0 };
  count = 0;
  usingFallback = 0;
  first: { phone: string; fields: Record<string, string> } | null = null;

  private readonly sources: FieldSource[];

  constructor(
    variables: Record<string, string>,
    fallbacks: Record<string, string>,
    private readonly valuesOf: ((fields: Record<string, unknown>) => Record<string, string>) | null,
  ) {
    this.sources = fieldSources(variables, fallbacks);
  }

  readonly add = (page: readonly { phone: string; values: Record<string, string | null> }[]): void => {
    const { recipients, rows } = this.screened;
    for (const contact of page) {
      const { fields, fellBack } = contactFields(contact, this.sources);
      if (fellBack) this.usingFallback += 1;
      this.count += 1;
      if (this.first === null) this.first = { phone: contact.phone, fields };
      if (this.valuesOf === null) continue;
      recipients.push({ to: contact.phone, variables: this.valuesOf(fields) });
      rows.push(this.count);
    }
  };
}

export class AudienceSends {
  constructor(
    private readonly deps: {
      db: Knex;
      /** Numbers and acceptance, as every send takes them (SendingService). */
      sending: SendCore;
      templates: Pick<TemplateService, 'findUsable'>;
      pricing: Pick<PricingService, 'quote'>;
      duplicateWindowHours: number;
      /** A segment's recipients for a send to it (contacts/segments.ts). */
      segments?: SegmentRecipientSource;
    },
  ) {}

  /**
   * The app's send to a segment or to tagged contacts, or with `dry_run` its preview: the
   * recipients (opted-out contacts left out and counted), how many take a fallback, and the cost.
   * The campaign keeps the filter as it was, as a send to a segment by the API does. A header
   * image uploaded with the send is used as Quick Send uses it; otherwise the template's own.
   */
  async audienceSend(user: User, input: TAudienceSendRequest, image?: UploadedImage): Promise<{ kind: 'preview'; preview: AudiencePreview } | { kind: 'accepted'; accepted: SendAccepted }> {
    const source = this.deps.segments;
    if (!source?.recipientsOf) throw NotFoundError(messages.contacts.segmentNotFound, 'segment_not_found');
    const template = await this.apiTemplate(user, input.templatename, input.language);
    const number = input.phone_number_id ? await this.resolveNumber(user, input.phone_number_id) : await this.defaultNumber(user);
    // Checked before the preview too, so a preview never shows a send that would be refused.
    const scheduledAt = input.scheduledAt && checkScheduleTime(input.scheduledAt, 'app');
    const variables = input.variables ?? {};
    const fallbacks = input.fallbacks ?? {};
    const attributeOf = (spec: string) => ATTRIBUTE_VARIABLE.exec(spec)?.[1];
    const names = [...new Set(Object.values(variables).flatMap((spec) => attributeOf(spec) ?? []))];
    const tags = input.tags ?? [];
    const filter: TSegmentFilter = input.segment_id !== undefined ? {} : input.tags_match === 'all' ? { tags_all: tags } : { tags_any: tags };
    const apiValues = apiValueReader(template);
    const audience = new AudienceRecipients(variables, fallbacks, input.dry_run ? null : apiValues);
    const found =
      input.segment_id !== undefined
        ? await source.recipients(user.id, input.segment_id, names, audience.add)
        : { segment: null, ...(await source.recipientsOf(user.id, filter, names, audience.add)) };
    if (input.dry_run) {
      const quote = await this.deps.pricing.quote(user.id, template.category.toLowerCase() as PriceCategory, audience.count);
      const first = audience.first;
      const sample = first ? { phone: first.phone, values: apiValues(first.fields) } : null;
      return { kind: 'preview', preview: { recipients: audience.count, optedOut: found.optedOut, usingFallback: audience.usingFallback, category: template.category, quote, sample } };
    }
    const screened = audience.screened;
    if (screened.recipients.length === 0) throw ValidationError('segment_id', messages.publicApi.invalidRecipient);
    const headerMedia = image ? await this.deps.sending.headerMedia(template, image) : await this.apiHeaderMedia(template);
    let result: AcceptedCampaign;
    try {
      result = await this.accept({
        user,
        template,
        senderNumberId: number.id,
        name: input.campaign_name || `Segment - ${template.name}`,
        source: 'quick',
        recipients: screened.recipients,
        invalidCount: screened.invalid,
        inSendDuplicates: screened.inSendDuplicates,
        headerMedia,
        scheduledAt,
      });
    } catch (error) {
      // As in Quick Send: an image stored for a send that acceptance refuses is removed.
      await this.deps.sending.discardUploadedHeader(headerMedia);
      throw error;
    }
    await this.deps.db('campaigns')
      .where('id', result.campaignId)
      .update({ segmentId: found.segment?.id ?? null, segmentFilter: JSON.stringify(found.segment?.filter ?? filter) });
    return { kind: 'accepted', accepted: { campaign: result, setAside: setAsideRows(screened, result.statusCodes, this.deps.duplicateWindowHours), optedOutExcluded: found.optedOut } };
  }

  /**
   * A segment's contacts as a send's recipients (the API's send to a segment): each mapped field
   * takes the contact's attribute (`attr:<name>`), else its fallback; any other text is the same
   * for everyone; `valuesOf` is the template's rule for a send's values.
   */
  async segmentRecipients(
    user: User,
    segmentId: number,
    valuesOf: (fields: Record<string, unknown>) => Record<string, string>,
    variables: Record<string, string>,
    fallbacks: Record<string, string>,
  ): Promise<SegmentRecipients> {
    if (!this.deps.segments) throw NotFoundError(messages.contacts.segmentNotFound, 'segment_not_found');
    const attributeOf = (spec: string) => ATTRIBUTE_VARIABLE.exec(spec)?.[1];
    const names = [...new Set(Object.values(variables).flatMap((spec) => attributeOf(spec) ?? []))];
    const audience = new AudienceRecipients(variables, fallbacks, valuesOf);
    const found = await this.deps.segments.recipients(user.id, segmentId, names, audience.add);
    return { screened: audience.screened, segmentId: found.segment.id, filter: found.segment.filter, optedOut: found.optedOut };
  }

  private apiTemplate(user: User, name: string, language: string | undefined): Promise<Template> {
    return findApiTemplate(this.deps.templates, user, name, language);
  }

  private apiHeaderMedia(template: Template): Promise<AcceptCampaignInput['headerMedia']> {
    return apiHeaderMedia(template);
  }

  private resolveNumber(user: User, phoneNumberId: string): Promise<SenderNumber> {
    return this.deps.sending.resolveNumber(user, phoneNumberId);
  }

  private defaultNumber(user: User): Promise<SenderNumber> {
    return this.deps.sending.defaultNumber(user);
  }

  private accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
    return this.deps.sending.accept(input);
  }
}
