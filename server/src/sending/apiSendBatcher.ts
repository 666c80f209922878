/**
 * Group commit for the public send API. Each `POST /api/send` is one message, and accepting it
 * alone costs a whole transaction (debit, ledger row, message row). Under load, the requests that
 * arrive while one acceptance runs are accepted together in the next one: one debit per user, key,
 * template and number, each request still answered only after its message is committed. At low
 * load a batch holds a single request and nothing waits.
 *
 * Every send of one user, API key, template and number on one Indian day joins one campaign, the
 * day's (CampaignAcceptance.openApiDayCampaign), rather than making a campaign (and a "completed"
 * notice) per call. Its id is remembered here per key, template, number and day, so the hot path
 * does not look it up per call.
 */
import { AppError } from '../errors';
import type { Template, User } from '../models';
import { istDay } from '../istCalendar';
import { ApiDayCampaignClosed, apiDayCampaignName, type AcceptCampaignInput, type AcceptedCampaign, type CampaignAcceptance } from './campaignAcceptance';
import { dedupeKey } from './acceptance/dedupeKeys';
import { ACCEPTED_STATUS_BY_CODE } from './acceptance/messageRows';
import type { SenderNumber } from './senderNumbers';
import type { WalletAfterDebit } from '../wallet/service';
import type { DatabaseKind } from '../db/knex';

export interface ApiSendRequest {
  user: User;
  /** The API key the call authenticated with: its sends of the day share a campaign. */
  apiKeyId: number;
  template: Template;
  number: SenderNumber;
  to: string;
  values: Record<string, string>;
  headerMedia: AcceptCampaignInput['headerMedia'];
}

export interface ApiSendResult {
  messageId: string;
  campaignId: number;
  status: string;
}

interface Pending extends ApiSendRequest {
  /** The message's Duplicate Blocked identity (user, template, recipient, values). */
  duplicateKey: string;
  /** The Indian day the request came on (YYYY-MM-DD): its campaign is that day's. */
  day: string;
  resolve(result: ApiSendResult): void;
  reject(error: unknown): void;
}

/** Requests accepted in one transaction at most (a burst beyond waits for the next round). */
const MAX_BATCH = 1_000;
/** The queue length at which a round stops waiting for company. */
const LINGER_UNTIL = 64;
/**
 * A round also stops waiting once this share of the last round's requests is queued again. Under
 * load the clients of a round come back together; the few slowest would otherwise hold the rest
 * for the whole linger. On PostgreSQL this served more requests a second than a fixed linger; on
 * SQLite it changed nothing (docs/decisions/2026-12-07-figures-out-of-code-comments.md).
 */
const LINGER_UNTIL_SHARE_OF_LAST = 0.9;
/**
 * How long a round waits for company, by database: SQLite's writes are quick enough that a longer
 * wait left the server idle, while PostgreSQL's round trips gain from gathering a little longer
 * (the runs that chose them: docs/decisions/2026-12-07-figures-out-of-code-comments.md).
 */
export const LINGER_MS = { sqlite: 1, postgresql: 2 } as const satisfies Record<DatabaseKind, number>;
/**
 * Rounds at once. With one, every request that arrived while a round wrote waited for that round
 * and then for its own linger; with two, the next round gathers and reads while the one before it
 * writes. Two rounds were ahead of one on both databases on a 2-core machine, and never behind
 * (docs/decisions/2026-12-07-figures-out-of-code-comments.md).
 */
export const PARALLEL_ROUNDS = 2;

export class ApiSendBatcher {
  private queue: Pending[] = [];
  private rounds = 0;
  private lastRoundSize = 0;
  /** The Duplicate Blocked identities of the messages in the rounds under way. */
  private readonly inFlight = new Set<string>();
  /** End the lingers under way once enough requests are queued (called on each submit; one per round lingering). */
  private readonly lingerChecks = new Set<() => void>();
  /** The day campaigns' ids by user, key, template, number and day; forgotten when the day turns. */
  private readonly dayCampaigns = new Map<string, number>();
  private dayCampaignsDay = '';

  /**
   * `parallelRounds`: rounds at once (PARALLEL_ROUNDS). Rounds of one user still queue on the
   * wallet row for their debits, and twins of one message never share a round or run in two at
   * once (`take`).
   */
  constructor(
    private readonly deps: {
      acceptance: Pick<CampaignAcceptance, 'accept' | 'openApiDayCampaign'>;
      onAccepted: () => void;
      parallelRounds: number;
      lingerMs: number;
      /**
       * After a round committed: once per user whose wallet it charged (the low-balance check),
       * with what the user's last debit of the round left where the write answered it.
       */
      onSpent?: (userId: number, walletAfter: WalletAfterDebit | undefined) => void;
      /** The clock the day of a send is read from (tests move it past midnight in India). */
      now?: () => Date;
    },
  ) {}

  submit(request: ApiSendRequest): Promise<ApiSendResult> {
    return new Promise<ApiSendResult>((resolve, reject) => {
      const duplicateKey = dedupeKey(request.user.id, request.template.id, request.to, request.values);
      const day = istDay(this.deps.now?.() ?? new Date());
      this.queue.push({ ...request, duplicateKey, day, resolve, reject });
      for (const check of this.lingerChecks) check();
      if (this.rounds < this.deps.parallelRounds) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.rounds += 1;
    try {
      while (this.queue.length > 0) {
        // Requests still on their way (key check, parsing) join this round if they come within a
        // moment; on SQLite they would otherwise each start a round of their own.
        await this.linger();
        const batch = this.take();
        // A round beside this one may have taken everything while it lingered, or holds the twin of
        // every message left: that round drains the rest once it has committed.
        if (batch.length === 0) break;
        this.lastRoundSize = batch.length;
        try {
          await this.acceptRound(batch);
        } finally {
          for (const item of batch) this.inFlight.delete(item.duplicateKey);
        }
      }
    } finally {
      this.rounds -= 1;
    }
  }

  /**
   * The next round's requests, in the order they came. A message whose twin (the same Duplicate
   * Blocked identity) is in this round or in a round under way waits in the queue for a later
   * round, which judges it against the committed twin, exactly as if it had come later. Within a
   * round this is what keeps a repeat out: the round's read sees only committed messages. Between
   * rounds, acceptance's locks would also hold (duplicateLocks.ts), but a round that met its twin
   * there would be refused and accepted again in a transaction, the slower way.
   */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const left: Pending[] = [];
    for (const item of this.queue) {
      if (batch.length < MAX_BATCH && !this.inFlight.has(item.duplicateKey)) {
        this.inFlight.add(item.duplicateKey);
        batch.push(item);
      } else left.push(item);
    }
    this.queue = left;
    return batch;
  }

  private async acceptRound(batch: Pending[]): Promise<void> {
    const groups = new Map<string, Pending[]>();
    for (const item of batch) {
      const key = dayCampaignKey(item);
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    let accepted = false;
    const spenders = new Map<number, WalletAfterDebit | undefined>();
    for (const group of groups.values()) {
      const result = await this.acceptGroup(group);
      if (result.accepted) {
        accepted = true;
        spenders.set((group[0] as Pending).user.id, result.walletAfter);
      }
    }
    if (accepted) this.deps.onAccepted();
    for (const [userId, walletAfter] of spenders) this.deps.onSpent?.(userId, walletAfter);
  }

  /** Waits `lingerMs` for company, or until as many requests as the last round nearly took are queued. */
  private async linger(): Promise<void> {
    const enough = Math.min(LINGER_UNTIL, Math.max(2, Math.floor(this.lastRoundSize * LINGER_UNTIL_SHARE_OF_LAST)));
    if (this.queue.length >= enough) return;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (this.queue.length >= enough) done();
      };
      const done = () => {
        clearTimeout(timer);
        this.lingerChecks.delete(check);
        resolve();
      };
      const timer = setTimeout(done, this.deps.lingerMs);
      this.lingerChecks.add(check);
    });
  }

  /** Answers whether anything was queued for sending, and what the last debit left where it is known. */
  private async acceptGroup(group: Pending[]): Promise<GroupAccepted> {
    try {
      return await this.acceptTogether(group);
    } catch (error) {
      // One request's wallet cannot cover the group: accept them one by one, so those that fit go.
      if (group.length > 1 && error instanceof AppError && error.code === 'insufficient_balance') {
        let accepted = false;
        let walletAfter: WalletAfterDebit | undefined;
        for (const item of group) {
          try {
            const single = await this.acceptTogether([item]);
            if (single.accepted) ({ walletAfter } = single);
            accepted = single.accepted || accepted;
          } catch (refused) {
            item.reject(refused);
          }
        }
        return { accepted, walletAfter };
      }
      for (const item of group) item.reject(error);
      return { accepted: false, walletAfter: undefined };
    }
  }

  /** The id of the group's day campaign, opened on its first send (and again after it was cancelled). */
  private async dayCampaign(first: Pending): Promise<number> {
    if (first.day !== this.dayCampaignsDay) {
      this.dayCampaigns.clear();
      this.dayCampaignsDay = first.day;
    }
    const key = dayCampaignKey(first);
    const known = this.dayCampaigns.get(key);
    if (known !== undefined) return known;
    const id = await this.deps.acceptance.openApiDayCampaign({
      user: first.user,
      template: first.template,
      senderNumberId: first.number.id,
      apiKeyId: first.apiKeyId,
      day: first.day,
      headerMedia: first.headerMedia,
    });
    if (first.day === this.dayCampaignsDay) this.dayCampaigns.set(key, id);
    return id;
  }

  private async acceptTogether(group: Pending[]): Promise<GroupAccepted> {
    const first = group[0] as Pending;
    const accept = async (joinCampaignId: number) =>
      // No two of the group share a Duplicate Blocked identity (`take`), so none can block another.
      this.deps.acceptance.accept({
        user: first.user,
        template: first.template,
        senderNumberId: first.number.id,
        name: apiDayCampaignName(first.template.name, first.day),
        source: 'api',
        recipients: group.map((item) => ({ to: item.to, variables: item.values })),
        invalidCount: 0,
        inSendDuplicates: 0,
        headerMedia: first.headerMedia,
        returnMessageIds: true,
        joinCampaignId,
      });
    let result: AcceptedCampaign;
    try {
      result = await accept(await this.dayCampaign(first));
    } catch (error) {
      if (!(error instanceof ApiDayCampaignClosed)) throw error;
      // The day's campaign was cancelled since it was remembered: the sends open the next one.
      this.dayCampaigns.delete(dayCampaignKey(first));
      result = await accept(await this.dayCampaign(first));
    }
    // Acceptance answers the ids in recipient order, and each recipient's fate as its status code.
    group.forEach((item, index) => {
      const id = result.messageIds?.[index];
      const status = ACCEPTED_STATUS_BY_CODE[result.statusCodes[index] ?? -1];
      if (id !== undefined && status) item.resolve({ messageId: `msg_${id}`, campaignId: result.campaignId, status });
      else item.reject(new Error(`message row ${index} of campaign ${result.campaignId} not found`));
    });
    return { accepted: result.accepted > 0, walletAfter: result.walletAfter };
  }
}

/** A request's day campaign: its user, key, template, number and Indian day. */
function dayCampaignKey(item: Pending): string {
  return `${item.user.id}:${item.apiKeyId}:${item.template.id}:${item.number.id}:${item.day}`;
}

interface GroupAccepted {
  accepted: boolean;
  walletAfter: WalletAfterDebit | undefined;
}
