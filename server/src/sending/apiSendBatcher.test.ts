import { afterEach, describe, expect, it, vi } from 'vitest';
import { Template, User } from '../models';
import { ApiSendBatcher, type ApiSendRequest } from './apiSendBatcher';
import { ApiDayCampaignClosed, type AcceptCampaignInput, type AcceptedCampaign, type ApiDayCampaignKey } from './campaignAcceptance';
import type { SenderNumber } from './senderNumbers';

const user = Object.assign(new User(), { id: 7, username: 'batcher' });
const template = Object.assign(new Template(), { id: 3, name: 'order_update', category: 'UTILITY' });
const number: SenderNumber = {
  id: 5,
  userId: 7,
  provider: 'simulator',
  phoneNumberId: 'pn-5',
  displayNumber: '+91 90000 00000',
  label: 'Sandbox',
  messagesPerSecond: 1000,
  isSandbox: true,
  isActive: true,
};

function request(index: number, values: Record<string, string> = {}): ApiSendRequest {
  return { user, apiKeyId: 1, template, number, to: `91900000${String(index).padStart(4, '0')}`, values, headerMedia: null };
}

/** An acceptance that queues every recipient and records the size of each round it was given. */
function recordingAcceptance() {
  const rounds: number[] = [];
  let nextId = 1;
  return {
    rounds,
    openApiDayCampaign: () => Promise.resolve(1),
    accept: (input: AcceptCampaignInput): Promise<AcceptedCampaign> => {
      const count = input.recipients.length;
      rounds.push(count);
      const messageIds = input.recipients.map(() => nextId++);
      return Promise.resolve({
        campaignId: rounds.length,
        statusCodes: new Uint8Array(count),
        accepted: count,
        duplicates: 0,
        repeats: 0,
        invalid: 0,
        suppressed: 0,
        priceUnits: 1,
        totalCostUnits: count,
        messageIds,
      });
    },
  };
}

/** Lets queued callbacks and promise continuations run (no timer of the batcher's fires meanwhile). */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('ApiSendBatcher linger', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a round once nine in ten of the last round are queued again, without waiting out the linger', async () => {
    const acceptance = recordingAcceptance();
    // A round that waited this linger would outlast the test's timeout.
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 1, lingerMs: 60_000 });

    // Ten at once: the first round needs two queued, and all ten are queued before it continues.
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.submit(request(i))));
    expect(first.map((result) => result.status)).toEqual(Array(10).fill('queued'));
    expect(acceptance.rounds).toEqual([10]);

    // Eight of the last ten are not enough: the round keeps waiting for company.
    const second = Array.from({ length: 8 }, (_, i) => batcher.submit(request(100 + i)));
    await turns();
    expect(acceptance.rounds).toEqual([10]);

    // The ninth ends the linger.
    second.push(batcher.submit(request(108)));
    const answered = await Promise.all(second);
    expect(acceptance.rounds).toEqual([10, 9]);
    expect(new Set(answered.map((result) => result.messageId)).size).toBe(9);
  });

  it('holds a lone request for the linger, so requests a moment behind it share its round', async () => {
    vi.useFakeTimers();
    const acceptance = recordingAcceptance();
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 1, lingerMs: 2 });

    const lone = batcher.submit(request(1));
    await vi.advanceTimersByTimeAsync(1);
    expect(acceptance.rounds).toEqual([]);
    const behind = batcher.submit(request(2));
    await expect(Promise.all([lone, behind])).resolves.toHaveLength(2);
    expect(acceptance.rounds).toEqual([2]);

    // After a round of two, one request alone waits the whole linger again.
    const later = batcher.submit(request(3));
    await vi.advanceTimersByTimeAsync(1);
    expect(acceptance.rounds).toEqual([2]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(later).resolves.toMatchObject({ status: 'queued' });
    expect(acceptance.rounds).toEqual([2, 1]);
  });
});

/** An acceptance whose rounds stay open until the test lets them commit, one at a time. */
function heldAcceptance() {
  const rounds: { recipients: string[]; commit: () => void }[] = [];
  let nextId = 1;
  return {
    rounds,
    openApiDayCampaign: () => Promise.resolve(1),
    accept: (input: AcceptCampaignInput): Promise<AcceptedCampaign> =>
      new Promise<AcceptedCampaign>((resolve) => {
        const count = input.recipients.length;
        const messageIds = input.recipients.map(() => nextId++);
        rounds.push({
          recipients: input.recipients.map((recipient) => `${recipient.to}:${JSON.stringify(recipient.variables)}`),
          commit: () =>
            resolve({ campaignId: rounds.length, statusCodes: new Uint8Array(count), accepted: count, duplicates: 0, repeats: 0, invalid: 0, suppressed: 0, priceUnits: 1, totalCostUnits: count, messageIds }),
        });
      }),
  };
}

describe('ApiSendBatcher rounds at once', () => {
  it('never puts one message and its repeat in rounds under way together, so the repeat is judged against the committed first', async () => {
    const acceptance = heldAcceptance();
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 2, lingerMs: 0 });

    const first = batcher.submit(request(1, { name: 'Asha', order: '42' }));
    await vi.waitFor(() => expect(acceptance.rounds).toHaveLength(1));

    // While the first round writes: the same message again (values in another order), the same
    // recipient with other values, and another recipient.
    const repeat = batcher.submit(request(1, { order: '42', name: 'Asha' }));
    const otherValues = batcher.submit(request(1, { '1': 'Ravi' }));
    const other = batcher.submit(request(2, { '1': 'Asha' }));
    await vi.waitFor(() => expect(acceptance.rounds).toHaveLength(2));
    expect(acceptance.rounds[1]?.recipients).toEqual(['919000000001:{"1":"Ravi"}', '919000000002:{"1":"Asha"}']);

    // The repeat waits for the first round's commit, and goes in the round after it.
    await turns();
    expect(acceptance.rounds).toHaveLength(2);
    acceptance.rounds[0]?.commit();
    await vi.waitFor(() => expect(acceptance.rounds).toHaveLength(3));
    expect(acceptance.rounds[2]?.recipients).toEqual(['919000000001:{"order":"42","name":"Asha"}']);
    acceptance.rounds[1]?.commit();
    acceptance.rounds[2]?.commit();
    const answers = await Promise.all([first, repeat, otherValues, other]);
    expect(new Set(answers.map((answer) => answer.messageId)).size).toBe(4);
  });

  it('keeps a repeat within one burst out of that burst\'s round', async () => {
    const acceptance = heldAcceptance();
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 1, lingerMs: 0 });

    const burst = [batcher.submit(request(1)), batcher.submit(request(2)), batcher.submit(request(1))];
    await vi.waitFor(() => expect(acceptance.rounds).toHaveLength(1));
    expect(acceptance.rounds[0]?.recipients).toEqual(['919000000001:{}', '919000000002:{}']);
    acceptance.rounds[0]?.commit();
    await vi.waitFor(() => expect(acceptance.rounds).toHaveLength(2));
    expect(acceptance.rounds[1]?.recipients).toEqual(['919000000001:{}']);
    acceptance.rounds[1]?.commit();
    await expect(Promise.all(burst)).resolves.toHaveLength(3);
  });
});

describe('ApiSendBatcher day campaigns', () => {
  /** An acceptance that opens a campaign per key asked and answers the campaign each send joined. */
  function dayAcceptance(closed: Set<number> = new Set()) {
    const opened: string[] = [];
    const joined: number[] = [];
    let nextMessage = 1;
    return {
      opened,
      joined,
      openApiDayCampaign: (key: ApiDayCampaignKey) => {
        opened.push(`${key.apiKeyId}:${key.template.id}:${key.day}`);
        return Promise.resolve(opened.length);
      },
      accept: (input: AcceptCampaignInput): Promise<AcceptedCampaign> => {
        const campaignId = input.joinCampaignId as number;
        if (closed.has(campaignId)) return Promise.reject(new ApiDayCampaignClosed(campaignId));
        joined.push(campaignId);
        const count = input.recipients.length;
        return Promise.resolve({ campaignId, statusCodes: new Uint8Array(count), accepted: count, duplicates: 0, repeats: 0, invalid: 0, suppressed: 0, priceUnits: 1, totalCostUnits: count, messageIds: input.recipients.map(() => nextMessage++) });
      },
    };
  }

  it('opens the day campaign of a key and template once and remembers it, and another for another key or day', async () => {
    let now = new Date('2026-12-07T06:30:00Z');
    const acceptance = dayAcceptance();
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 1, lingerMs: 0, now: () => now });
    for (let i = 0; i < 3; i++) expect((await batcher.submit(request(i))).campaignId).toBe(1);
    expect((await batcher.submit({ ...request(10), apiKeyId: 2 })).campaignId).toBe(2);
    now = new Date('2026-12-07T18:31:00Z');
    expect((await batcher.submit(request(11))).campaignId).toBe(3);
    expect(acceptance.opened).toEqual(['1:3:2026-12-07', '2:3:2026-12-07', '1:3:2026-12-08']);
  });

  it('opens the next campaign when the remembered one was cancelled meanwhile', async () => {
    const closed = new Set<number>();
    const acceptance = dayAcceptance(closed);
    const batcher = new ApiSendBatcher({ acceptance, onAccepted: () => undefined, parallelRounds: 1, lingerMs: 0 });
    expect((await batcher.submit(request(1))).campaignId).toBe(1);
    closed.add(1);
    expect((await batcher.submit(request(2))).campaignId).toBe(2);
    expect((await batcher.submit(request(3))).campaignId).toBe(2);
    expect(acceptance.joined).toEqual([1, 2, 2]);
  });
});
