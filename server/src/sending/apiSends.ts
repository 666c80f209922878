/**
 * The public API's sends: one message (gathered with others into rounds by ApiSendBatcher, or a
 * campaign of its own when scheduled), and a batch of messages or a segment's contacts. Values come
 * from named fields (apiFields.ts); screening and acceptance are those of every send.
 */
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { checkPhone, normalisePhone } from '@shared/phone';
import type { TApiSendBatchRequest, TApiSendRequest } from '@shared/schemas/sending';
import { ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { TemplateService } from '../templates/service';
import type { MessageRow } from '../db/rows/messages';
import type { WalletAfterDebit } from '../wallet/service';
import { LookupCache } from '../lookupCache';
import type { AcceptCampaignInput, CampaignAcceptance } from './campaignAcceptance';
import type { RecipientRow } from './acceptance/messageRows';
import type { SenderNumber } from './senderNumbers';
import { ApiSendBatcher, PARALLEL_ROUNDS } from './apiSendBatcher';
import { checkScheduleTime } from './schedule';
import { screenEntries, setAsideRows } from './sendScreening';
import { apiHeaderMedia, apiValueReader, findApiTemplate } from './apiFields';
import type { AudienceSends } from './audienceSends';
import type { SendAccepted, SendCore } from './service';

/** How long the public API reuses a user's template and sender number lookups. */
const API_LOOKUP_TTL_MS = 5_000;

export class ApiSends {
  private readonly apiBatcher: ApiSendBatcher;
  /** Integrators call in bursts: the same template and number are looked up once every few seconds. */
  private readonly apiLookups = new LookupCache({ ttlMs: API_LOOKUP_TTL_MS, maxEntries: 10_000 });

  constructor(
    private readonly deps: {
      db: Knex;
      /** Numbers and acceptance, as every send takes them (SendingService). */
      sending: SendCore;
      templates: Pick<TemplateService, 'findUsable'>;
      acceptance: CampaignAcceptance;
      /** A send to a segment through the API reads its contacts as the app's send to a segment does. */
      audience: Pick<AudienceSends, 'segmentRecipients'>;
      duplicateWindowHours: number;
      /** How long a round of single sends waits for company (LINGER_MS, by database). */
      lingerMs: number;
      /** The dispatcher looks now instead of at its next poll. */
      onAccepted: () => void;
      /**
       * The public API charged this user's wallet (the web routes run their own low-balance check).
       * Called after the commit; must not wait.
       */
      onApiSpent?: (userId: number, walletAfter?: WalletAfterDebit) => void;
      /** The clock the public API's sends are given their Indian day by (tests move it). */
      apiClock?: () => Date;
    },
  ) {
    this.apiBatcher = new ApiSendBatcher({
      acceptance: deps.acceptance,
      onAccepted: deps.onAccepted,
      parallelRounds: PARALLEL_ROUNDS,
      lingerMs: deps.lingerMs,
      onSpent: deps.onApiSpent,
      ...(deps.apiClock ? { now: deps.apiClock } : {}),
    });
  }

  /** One message through the public API with the key `apiKeyId` (its sends of the day share a campaign). */
  async apiSend(user: User, input: TApiSendRequest, apiKeyId: number): Promise<{ messageId: string; campaignId: number; status: string; scheduledAt?: Date }> {
    const template = await this.apiLookups.get(`template:${user.id}:${input.templatename}:${input.language ?? ''}`, () => this.apiTemplate(user, input.templatename, input.language));
    const to = normalisePhone(input.recipient_number);
    if (!to) throw ValidationError('recipient_number', messages.publicApi.invalidRecipient);
    const values = apiValueReader(template)(input);
    const number = await this.apiLookups.get(`number:${user.id}`, () => this.deps.sending.defaultNumber(user));
    const headerMedia = await this.apiLookups.get(`media:${template.id}`, () => apiHeaderMedia(template));
    if (input.scheduled_at) return this.apiSendScheduled(user, template, number, { to, variables: values }, headerMedia, checkScheduleTime(input.scheduled_at, 'api'));
    return this.apiBatcher.submit({ user, apiKeyId, template, number, to, values, headerMedia });
  }

  /** A scheduled API send is a campaign of its own (the batcher groups sends that go now). */
  private async apiSendScheduled(
    user: User,
    template: Template,
    number: SenderNumber,
    recipient: RecipientRow,
    headerMedia: AcceptCampaignInput['headerMedia'],
    scheduledAt: Date,
  ): Promise<{ messageId: string; campaignId: number; status: string; scheduledAt: Date }> {
    const result = await this.deps.sending.accept({
      user,
      template,
      senderNumberId: number.id,
      name: `API scheduled - ${template.name}`,
      source: 'api',
      recipients: [recipient],
      invalidCount: 0,
      inSendDuplicates: 0,
      headerMedia,
      scheduledAt,
    });
    if (result.accepted > 0) this.deps.onApiSpent?.(user.id, result.walletAfter);
    const row = (await this.deps.db('messages').where({ campaignId: result.campaignId }).first('id', 'status')) as Pick<MessageRow, 'id' | 'status'>;
    return { messageId: `msg_${row.id}`, campaignId: result.campaignId, status: row.status === 'queued' ? 'scheduled' : row.status, scheduledAt };
  }

  async apiSendBatch(user: User, input: TApiSendBatchRequest): Promise<SendAccepted> {
    const template = await this.apiTemplate(user, input.templatename, input.language);
    const number = await this.deps.sending.defaultNumber(user);
    const valuesOf = apiValueReader(template);
    const segment = input.segment_id !== undefined ? await this.deps.audience.segmentRecipients(user, input.segment_id, valuesOf, input.variables ?? {}, input.fallbacks ?? {}) : null;
    // Values are read (and a missing one refused) for every row with a valid number: a row repeats
    // an earlier one only when its values do too, so they are known before repeats are screened.
    const screened =
      segment?.screened ??
      screenEntries(
        (function* () {
          let row = 0;
          for (const entry of input.messages ?? []) {
            row += 1;
            yield { row, raw: entry.recipient_number, values: checkPhone(entry.recipient_number).ok ? valuesOf(entry as Record<string, unknown>) : {} };
          }
        })(),
      );
    if (screened.recipients.length === 0) throw ValidationError('messages', messages.publicApi.invalidRecipient);
    const result = await this.deps.sending.accept({
      user,
      template,
      senderNumberId: number.id,
      name: segment ? `API segment - ${template.name}` : `API batch - ${template.name}`,
      source: 'api',
      recipients: screened.recipients,
      invalidCount: screened.invalid,
      inSendDuplicates: screened.inSendDuplicates,
      headerMedia: await apiHeaderMedia(template),
      scheduledAt: input.scheduled_at && checkScheduleTime(input.scheduled_at, 'api'),
    });
    if (result.accepted > 0) this.deps.onApiSpent?.(user.id, result.walletAfter);
    if (segment) {
      // Beside acceptance, not in it: the rule stays the one every send takes, and the segment is a label.
      await this.deps.db('campaigns')
        .where('id', result.campaignId)
        .update({ segmentId: segment.segmentId, segmentFilter: JSON.stringify(segment.filter) });
    }
    return {
      campaign: result,
      setAside: setAsideRows(screened, result.statusCodes, this.deps.duplicateWindowHours),
      ...(segment ? { optedOutExcluded: segment.optedOut } : {}),
    };
  }

  private apiTemplate(user: User, name: string, language: string | undefined): Promise<Template> {
    return findApiTemplate(this.deps.templates, user, name, language);
  }
}
