/**
 * A sender number Meta refuses to send for at all (the error table's `stop_sender`: an expired
 * token, a policy block, a locked account, a payment issue, a number not registered, missing
 * permissions; providers/metaErrors.ts) stops, rather than failing message after message:
 *
 * - the number is marked stopped with Meta's code and reason (`whatsapp_numbers.sending_stopped_*`);
 * - its running and scheduled campaigns pause with `sender_stopped` (the mechanism of
 *   templateHolds.ts: `heldFrom` remembers what they were); their unsent messages stay queued and
 *   those a worker had claimed but not handed over are taken back, so only requests already in
 *   flight can still reach Meta;
 * - the owner and the admins are told once per stop.
 *
 * Saving the owner's business settings (new credentials) or "Resume" (the number's, or a campaign
 * paused for it) marks the number sending again and returns its campaigns to what they were;
 * their queued messages are due at once. Every step is a conditional update, so a repeat (another
 * instance, a second 190 in flight) changes nothing more.
 */
import type { Knex } from 'knex';
import { fillMessage, messages as catalogue } from '@shared/messages';
import type { Logger } from '../logger';
import { PAUSED_HOLD_MS } from './dispatcher';
import type { SendingEngine } from './engine';
import { withConflictRetry } from './messageOutcomes';
import type { NotificationInput } from '../notifications/service';

/** The reason a campaign paused for its stopped sender carries (campaigns.pause_reason). */
export const SENDER_STOPPED = 'sender_stopped';
export const NUMBER_DISCONNECTED = 'number_disconnected';

export interface SenderStopNotices {
  post(userId: number, input: NotificationInput): Promise<void>;
  postToAdmins(input: NotificationInput): Promise<void>;
}

export interface SenderStopOutcome {
  /** False when the number was already stopped (its campaigns still follow). */
  stopped: boolean;
  campaignIds: number[];
}

interface NumberRow {
  id: number | string;
  userId: number | string;
  displayNumber: string;
  label: string;
  sendingStoppedAt: string | Date | null;
}

export class SenderHealth {
  constructor(
    private readonly deps: {
      db: Knex;
      engine: Pick<SendingEngine, 'dispatcher' | 'outcomes' | 'requeueCampaign'>;
      notices: SenderStopNotices;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Told by the dispatcher (never throws: the send path goes on whatever happens here). */
  stopped(numberId: number, error: { code: number; title: string; details?: string }): Promise<SenderStopOutcome | null> {
    return this.stop(numberId, error).catch((failure: unknown) => {
      this.deps.log.error({ err: failure, numberId }, 'sender number not stopped');
      return null;
    });
  }

  /** Marks the number stopped and pauses its campaigns; tells the owner and the admins once. */
  async stop(numberId: number, error: { code: number; title: string; details?: string }): Promise<SenderStopOutcome> {
    const reason = [error.title, error.details].filter(Boolean).join(': ').slice(0, 500);
    const nowIso = this.now().toISOString();
    const stopped =
      (await this.deps.db('whatsapp_numbers').where({ id: numberId }).whereNull('sendingStoppedAt').update({ sendingStoppedAt: nowIso, sendingStoppedCode: error.code, sendingStoppedReason: reason, updatedAt: nowIso })) > 0;
    const campaignIds = await this.pauseCampaigns(numberId);
    if (stopped) {
      this.deps.log.warn({ numberId, code: error.code, reason, campaigns: campaignIds }, 'sender number stopped: Meta refused to send for it');
      const number = (await this.deps.db('whatsapp_numbers').where({ id: numberId }).first('id', 'userId', 'displayNumber', 'label', 'sendingStoppedAt')) as NumberRow | undefined;
      if (number) {
        const userId = Number(number.userId);
        const user = (await this.deps.db('users').where({ id: userId }).first('username')) as { username: string } | undefined;
        const key = `sender:${numberId}:stopped:${nowIso}`;
        await this.deps.notices.post(userId, {
          dedupeKey: key,
          type: 'error',
          kind: 'sender_stopped',
          title: catalogue.senderStops.stoppedTitle,
          message: fillMessage(catalogue.senderStops.stopped, { number: number.displayNumber, code: error.code, reason, campaigns: campaignIds.length }),
        });
        await this.deps.notices.postToAdmins({
          dedupeKey: key,
          type: 'error',
          kind: 'sender_stopped',
          title: catalogue.senderStops.stoppedTitle,
          message: fillMessage(catalogue.senderStops.stoppedAdmin, { number: number.displayNumber, user: user?.username ?? String(userId), code: error.code, reason }),
        });
      }
    }
    return { stopped, campaignIds };
  }

  /**
   * A number disconnected (Embedded Signup removed, or the administrator): its running and
   * scheduled campaigns pause with `number_disconnected`. Answers the paused ids.
   */
  pauseForDisconnected(numberId: number): Promise<number[]> {
    return this.pauseCampaigns(numberId, NUMBER_DISCONNECTED);
  }

  /** Running and scheduled campaigns of the number pause with `reason` (`sender_stopped` unless told). */
  private async pauseCampaigns(numberId: number, reason: string = SENDER_STOPPED): Promise<number[]> {
    const { db, engine } = this.deps;
    const open = (await db('campaigns').where({ senderNumberId: numberId }).whereIn('status', ['running', 'scheduled']).orderBy('id').select('id', 'status')) as { id: number | string; status: string }[];
    const paused: number[] = [];
    for (const campaign of open) {
      const id = Number(campaign.id);
      let held = false;
      await withConflictRetry(() =>
        db.transaction(async (trx) => {
          const nowIso = this.now().toISOString();
          held = (await trx('campaigns').where({ id, status: campaign.status }).update({ status: 'paused', pauseReason: reason, heldFrom: campaign.status, updatedAt: nowIso })) > 0;
          if (!held || campaign.status !== 'running') return;
          // Claimed by a worker but not handed over: back to the queue, tokens cleared, so the
          // worker's handoff finds them gone (as a user's pause does).
          await trx('messages')
            .where({ campaignId: id, status: 'sending' })
            .whereNull('handedAt')
            .update({ status: 'queued', claimToken: null, leaseUntil: null, nextAttemptAt: new Date(Date.now() + PAUSED_HOLD_MS).toISOString(), attempts: trx.raw('attempts - 1'), updatedAt: nowIso });
        }),
      );
      if (!held) continue;
      engine.dispatcher.forgetCampaign(id);
      paused.push(id);
    }
    if (paused.length > 0) engine.outcomes.onCampaignsProgressed?.(paused);
    return paused;
  }

  /**
   * The number sends again: marked sending, its campaigns paused for it return to what they were
   * (running ones send their queued messages at once). Answers the campaigns resumed, or null when
   * the number was not stopped and no campaign waited for it.
   */
  async resume(numberId: number): Promise<number[] | null> {
    const { db, engine } = this.deps;
    const nowIso = this.now().toISOString();
    const cleared = (await db('whatsapp_numbers').where({ id: numberId }).whereNotNull('sendingStoppedAt').update({ sendingStoppedAt: null, sendingStoppedCode: null, sendingStoppedReason: null, updatedAt: nowIso })) > 0;
    engine.dispatcher.forgetNumber(numberId);
    const held = (await db('campaigns').where({ senderNumberId: numberId, status: 'paused', pauseReason: SENDER_STOPPED }).orderBy('id').select('id', 'userId', 'heldFrom')) as { id: number | string; userId: number | string; heldFrom: string | null }[];
    if (!cleared && held.length === 0) return null;
    const resumed: number[] = [];
    for (const campaign of held) {
      const id = Number(campaign.id);
      const back = campaign.heldFrom === 'scheduled' ? 'scheduled' : 'running';
      const changed = await db('campaigns').where({ id, status: 'paused', pauseReason: SENDER_STOPPED }).update({ status: back, pauseReason: null, heldFrom: null, updatedAt: this.now().toISOString() });
      if (changed === 0) continue;
      if (back === 'running') {
        await engine.requeueCampaign(id);
        await engine.outcomes.completeCampaigns([id]);
      }
      resumed.push(id);
    }
    if (cleared) {
      const number = (await db('whatsapp_numbers').where({ id: numberId }).first('id', 'userId', 'displayNumber', 'label', 'sendingStoppedAt')) as NumberRow | undefined;
      if (number) {
        await this.deps.notices.post(Number(number.userId), {
          dedupeKey: `sender:${numberId}:resumed:${nowIso}`,
          type: 'success',
          kind: 'sender_resumed',
          title: catalogue.senderStops.resumedTitle,
          message: fillMessage(catalogue.senderStops.resumed, { number: number.displayNumber, campaigns: resumed.length }),
        });
      }
      this.deps.log.info({ numberId, campaigns: resumed }, 'sender number sending again');
    }
    return resumed;
  }

  /** After the owner's credentials were saved: every stopped number of theirs tries again. */
  async credentialsSaved(userId: number): Promise<void> {
    const numbers = (await this.deps.db('whatsapp_numbers')
      .where({ userId })
      .where((q) => q.whereNotNull('sendingStoppedAt').orWhereExists((c) => c.select(this.deps.db.raw('1')).from('campaigns').whereRaw('campaigns.sender_number_id = whatsapp_numbers.id').where({ 'campaigns.status': 'paused', 'campaigns.pause_reason': SENDER_STOPPED })))
      .select('id')) as { id: number | string }[];
    for (const number of numbers) await this.resume(Number(number.id));
  }

  /** The number of a user, if it is theirs (the owner's "Resume sending"). */
  async numberOf(userId: number, numberId: number): Promise<{ id: number; stopped: boolean } | null> {
    const row = (await this.deps.db('whatsapp_numbers').where({ id: numberId, userId }).first('id', 'sendingStoppedAt')) as { id: number | string; sendingStoppedAt: string | Date | null } | undefined;
    return row ? { id: Number(row.id), stopped: row.sendingStoppedAt !== null } : null;
  }
}
