/**
 * Waiting in tests: ask again until the answer is the one wanted or a deadline passes. Never a
 * fixed sleep standing in for "long enough": on a loaded machine any fixed wait is too short.
 */
import type { TCampaign } from '@shared/schemas/sending';
import type { TestClient } from './client';

export interface PollOptions {
  /** What is awaited, for the error when the deadline passes. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Calls `probe` until `done` accepts its answer, and answers that value. A probe that throws
 * (a server restarting) is asked again; past the deadline the last answer or error is reported.
 */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, options: PollOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${options.what}: not reached after ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** Polls GET /api/campaigns/{id} until `done` accepts the campaign. */
export async function waitForCampaign(
  client: TestClient,
  id: number,
  done: (campaign: TCampaign) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<TCampaign> {
  const response = await pollUntil(
    () => client.get<{ data: TCampaign }>(`/api/campaigns/${id}`),
    (res) => res.status === 200 && done(res.body.data),
    { what: `campaign ${id}`, timeoutMs: options.timeoutMs ?? 20_000, intervalMs: options.intervalMs ?? 50 },
  );
  return response.body.data;
}

/** Every message has left the queue: nothing queued or being sent, and the campaign completed. */
export const campaignSettled = (campaign: TCampaign): boolean => campaign.status === 'completed' && campaign.counts.queued === 0 && campaign.counts.sending === 0;
