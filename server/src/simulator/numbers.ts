/**
 * The simulator's business numbers as Meta describes them: `GET /{version}/{phone-number-id}`
 * answers the number's health (quality rating, messaging limit tier, throughput level, display
 * name status), each settable per number for tests and demos; the `phone_number_quality_update`
 * and `account_update` webhooks can be posted; and the `pricing` each status carries is Meta's
 * per-message pricing by default, or a category told per number (to test reconciliation).
 *
 * Sources: Meta's OpenAPI file (WhatsAppBusinessPhoneNumber: quality_rating, messaging_limit_tier,
 * name_status), Meta's throughput page (`throughput.level`), the phone_number_quality_update and
 * status webhook references; see docs/decisions/2026-12-07-number-health-and-meta-billing.md.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import { Agent } from 'undici';
import { postWebhook } from './signedWebhookPost';

/** A number's health in Meta's words (the fields of `GET /{phone-number-id}`). */
export interface SimulatorNumberHealth {
  quality_rating: string;
  messaging_limit_tier: string;
  throughput: { level: string };
  name_status: string;
}

/** What a number reports as Meta's health until told otherwise: a healthy new business number. */
export const DEFAULT_NUMBER_HEALTH: SimulatorNumberHealth = {
  quality_rating: 'GREEN',
  messaging_limit_tier: 'TIER_1K',
  throughput: { level: 'STANDARD' },
  name_status: 'APPROVED',
};

/** The throughput Meta gives each level: 80 messages a second by default, 1,000 when upgraded. */
export const THROUGHPUT_MPS: Readonly<Record<string, number>> = { STANDARD: 80, HIGH: 1_000 };

/**
 * The pricing a number's statuses report. By default Meta's per-message pricing (`PMP`): billable,
 * the template's own category, type `regular`. `category` overrides the category of every
 * `everyNth` message sent from the number (1: all), so a test can see Meta bill a different one.
 */
export interface SimulatorBilling {
  category: string;
  everyNth?: number;
}

export interface SimulatorPricing {
  billable: boolean;
  pricing_model: string;
  category: string;
  type: string;
}

export class SimulatorNumbers {
  private readonly health = new Map<string, SimulatorNumberHealth>();
  private readonly billing = new Map<string, SimulatorBilling>();
  private readonly sent = new Map<string, number>();
  private readonly profiles = new Map<string, { display_phone_number: string; verified_name: string }>();
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 2 });

  constructor(
    private readonly options: {
      accessToken?: string | undefined;
      webhook: () => { url: string; appSecret: string } | null;
    },
  ) {}

  /** Sets (part of) a number's health; what is not given keeps its value. */
  setHealth(phoneNumberId: string, health: Partial<Omit<SimulatorNumberHealth, 'throughput'>> & { throughput?: string }): SimulatorNumberHealth {
    const current = this.healthOf(phoneNumberId);
    const { throughput, ...rest } = health;
    const next: SimulatorNumberHealth = { ...current, ...rest, throughput: throughput ? { level: throughput } : current.throughput };
    this.health.set(phoneNumberId, next);
    return next;
  }

  /** A number's display number and verified name, as a finished Embedded Signup sets them. */
  setProfile(phoneNumberId: string, profile: { display_phone_number: string; verified_name: string }): void {
    this.profiles.set(phoneNumberId, profile);
  }

  healthOf(phoneNumberId: string): SimulatorNumberHealth {
    return this.health.get(phoneNumberId) ?? DEFAULT_NUMBER_HEALTH;
  }

  /** The rate the number was told to have (its throughput level), or null when never set. */
  rateOf(phoneNumberId: string): number | null {
    const set = this.health.get(phoneNumberId);
    return set ? (THROUGHPUT_MPS[set.throughput.level] ?? null) : null;
  }

  /** Bill a different category for this number's messages (null: back to Meta's default). */
  setBilling(phoneNumberId: string, billing: SimulatorBilling | null): void {
    if (billing) this.billing.set(phoneNumberId, billing);
    else this.billing.delete(phoneNumberId);
    this.sent.delete(phoneNumberId);
  }

  /**
   * The `pricing` of a message's statuses, fixed when the message is accepted. `templateCategory`:
   * the template's category as Meta keeps it (upper case), or null when unknown (then `utility`).
   */
  pricingFor(phoneNumberId: string, templateCategory: string | null): SimulatorPricing {
    const count = (this.sent.get(phoneNumberId) ?? 0) + 1;
    this.sent.set(phoneNumberId, count);
    const own = (templateCategory ?? 'UTILITY').toLowerCase();
    const billing = this.billing.get(phoneNumberId);
    const overridden = billing && count % Math.max(1, billing.everyNth ?? 1) === 0;
    return { billable: true, pricing_model: 'PMP', category: overridden ? billing.category.toLowerCase() : own, type: 'regular' };
  }

  /**
   * Posts one of Meta's number-health webhooks for a business account, signed as the status
   * webhooks are. `value` is the change's value as Meta sends it (e.g. `{display_phone_number,
   * event: 'THROUGHPUT_UPGRADE', current_limit}` or `{phone_number, event}`). `appSecret` signs
   * instead of the simulator's own secret (a customer's business account is signed by its app).
   */
  async postHealthWebhook(wabaId: string, field: 'phone_number_quality_update' | 'account_update', value: Record<string, unknown>, appSecret?: string): Promise<Error | null> {
    const target = this.options.webhook();
    if (!target) return new Error('The simulator has no webhook address');
    // A business's own app signs its account's webhooks: `appSecret` stands in for it.
    const webhook = appSecret ? { url: target.url, appSecret } : target;
    const body = { object: 'whatsapp_business_account', entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ value, field }] }] };
    return postWebhook(this.agent, webhook, JSON.stringify(body));
  }

  /** `GET /:version/:phoneNumberId`, registered after every other route of the layout. */
  register<StateT>(router: Router<StateT>): void {
    router.get('/:version/:phoneNumberId', async (ctx: Koa.Context) => {
      const header = ctx.get('Authorization');
      const token = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header)?.[1] ?? (typeof ctx.query.access_token === 'string' ? ctx.query.access_token : undefined);
      if (!token || (this.options.accessToken !== undefined && token !== this.options.accessToken)) {
        ctx.status = 401;
        ctx.body = { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 } };
        return;
      }
      const id = ctx.params.phoneNumberId ?? '';
      const health = this.healthOf(id);
      const fields = typeof ctx.query.fields === 'string' ? ctx.query.fields.split(',').map((f) => f.trim()) : null;
      // Meta answers the requested fields with the id; without `fields`, its defaults.
      const profile = this.profiles.get(id) ?? { display_phone_number: id, verified_name: 'Simulator business' };
      const all: Record<string, unknown> = { id, ...profile, status: 'CONNECTED', ...health };
      ctx.body = fields ? Object.fromEntries([['id', id], ...fields.filter((f) => f in all).map((f) => [f, all[f]])]) : { id, display_phone_number: id, verified_name: all.verified_name, quality_rating: health.quality_rating };
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
