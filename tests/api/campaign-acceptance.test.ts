import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { buildTemplate, buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';
import { BLOCKING_STATUSES } from '../../server/src/sending/acceptance/messageRows';
import { pgDuplicateProbe } from '../../server/src/sending/acceptance/postgresStore';
import { runSingleStatement, singleStatement } from '../../server/src/db/singleStatement';

/** A node of PostgreSQL's JSON plan, as far as these tests read it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode | undefined): PlanNode[] {
  return node ? [node, ...(node.Plans ?? []).flatMap(planNodes)] : [];
}

describe.skipIf(postgresUnavailable)('accepting a campaign (the sending engine core)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Acceptance alone: a dispatcher beside it would move the rows on before the test reads them.
    server = await startTestServer({ DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const recipients = (numbers: string[]) => numbers.map((to, i) => ({ to, variables: { '1': `Name ${i}`, '2': `C${i}` } }));

  async function balanceUnits(userId: number): Promise<number> {
    return server.services.wallet.balance(userId);
  }

  /** pg-boss's schema beside the test's own (sending/engine.ts). */
  const pgBossSchema = () => {
    const { database } = server.config;
    return `"${(database.kind === 'postgresql' ? database.schema : undefined) ?? 'public'}_pgboss"`;
  };

  /** Queue jobs naming a message that does not exist: what a refused send's jobs would be had they been kept. */
  async function jobsWithoutMessages(): Promise<number> {
    const result = (await server.db.raw(
      `select count(*)::int as n from ${pgBossSchema()}.job j
        where j.name = 'dispatch-messages' and exists (
          select 1 from jsonb_array_elements_text(j.data->'messageIds') as id where not exists (select 1 from messages m where m.id = id::bigint))`,
    )) as { rows: { n: number }[] };
    return result.rows[0]?.n ?? 0;
  }

  it('charges billable recipients at the effective price in one transaction and queues them', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    expect(sender).toMatchObject({ provider: 'simulator', isSandbox: true, messagesPerSecond: server.config.sending.sandboxMessagesPerSecond });
    const accepted = await server.services.campaignAcceptance.accept({
      user,
      template,
      senderNumberId: sender.id,
      name: 'Launch',
      source: 'quick',
      recipients: recipients(['919800000001', '919800000002', '919800000003']),
      invalidCount: 2,
      inSendDuplicates: 1,
    });
    expect(accepted).toMatchObject({ accepted: 3, duplicates: 1, invalid: 2, suppressed: 0, priceUnits: 8000, totalCostUnits: 24_000 });
    expect(await balanceUnits(user.id)).toBe(100_000 - 24_000);
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId })) as { status: string; priceUnits: number }[];
    expect(rows.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    const campaign = (await server.db('campaigns').where({ id: accepted.campaignId }).first()) as Record<string, unknown>;
    expect(campaign).toMatchObject({ status: 'running', billableCount: 3, duplicateCount: 1, invalidCount: 2, totalCostUnits: 24_000, templateName: template.name });
    const debit = (await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' }).first()) as { amount: number; referenceId: string };
    expect(debit).toMatchObject({ amount: -24_000, referenceId: String(accepted.campaignId) });
  });

  it('uses the user custom price for the category', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const [admin] = (await server.db('users').where({ role: 'admin' }).limit(1)) as { id: number }[];
    await server.services.pricing.setForUser(user.id, 'custom', { marketing: null, utility: 1234, authentication: null, service: null }, { userId: admin!.id });
    const template = await buildTemplate(server, user, { category: 'UTILITY' });
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const accepted = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Receipts', source: 'api', recipients: recipients(['919800000010']), invalidCount: 0, inSendDuplicates: 0 });
    expect(accepted).toMatchObject({ priceUnits: 1234, totalCostUnits: 1234 });
  });

  it('blocks the same message to the same recipient within the window, without charging', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const first = recipients(['919800000020', '919800000021']);
    await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'One', source: 'quick', recipients: first, invalidCount: 0, inSendDuplicates: 0 });
    const before = await balanceUnits(user.id);
    const second = await server.services.campaignAcceptance.accept({
      user,
      template,
      senderNumberId: sender.id,
      name: 'Two',
      source: 'quick',
      // The first is identical (blocked); the second has new variable values (sent).
      recipients: [first[0]!, { to: '919800000021', variables: { '1': 'Other', '2': 'X' } }],
      invalidCount: 0,
      inSendDuplicates: 0,
    });
    expect(second).toMatchObject({ accepted: 1, duplicates: 1, totalCostUnits: 8000 });
    expect(await balanceUnits(user.id)).toBe(before - 8000);
    const blocked = (await server.db('messages').where({ campaignId: second.campaignId, status: 'duplicate' }).first()) as { priceUnits: number; errorMessage: string };
    expect(blocked).toMatchObject({ priceUnits: 0, errorMessage: 'Duplicate Blocked' });
  });

  /** One message accepted, its send then in `status`; answers what a repeat of it meets. */
  async function repeatAfter(status: 'failed' | 'unknown', recipient: string) {
    const user = await buildUser(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const list = recipients([recipient]);
    const accept = (name: string) => server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name, source: 'quick', recipients: list, invalidCount: 0, inSendDuplicates: 0 });
    const first = await accept('A');
    await server.db('messages').where({ campaignId: first.campaignId }).update({ status });
    async function* oneChunk() {
      yield list;
    }
    const streamed = await server.services.campaignAcceptance.screenStream(user.id, template.id, oneChunk(), () => undefined);
    return { streamed, again: await accept('B') };
  }

  it('lets a failed message be sent again', async () => {
    const { streamed, again } = await repeatAfter('failed', '919800000030');
    expect(streamed).toEqual({ billable: 1, duplicates: 0, suppressed: 0 });
    expect(again).toMatchObject({ accepted: 1, duplicates: 0 });
  });

  it('blocks a repeat of a message whose send is unknown: the provider may have taken it, as a streamed send and its preview see too', async () => {
    const { streamed, again } = await repeatAfter('unknown', '919800000035');
    expect(streamed).toEqual({ billable: 0, duplicates: 1, suppressed: 0 });
    expect(again).toMatchObject({ accepted: 0, duplicates: 1, totalCostUnits: 0 });
  });

  /** A new user's bulk sends of one template: each call accepts one campaign. */
  async function bulkSender(creditRupees: number) {
    const user = await buildUser(server, { creditRupees });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    return (name: string, list: ReturnType<typeof recipients>) =>
      server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name, source: 'bulk', recipients: list, invalidCount: 0, inSendDuplicates: 0 });
  }

  it('finds blocked repeats among many earlier messages by probing each key through its recipient, across lookup chunks', async () => {
    const accept = await bulkSender(5_000);
    const earlier = recipients(Array.from({ length: 2_500 }, (_, i) => `91${7_100_000_000 + i}`));
    await accept('Earlier', earlier);
    // More earlier messages than twice this send's keys: the keys are probed, not read into memory.
    const repeats = new Set([0, 449, 450, 899, 900, 999]);
    const send = Array.from({ length: 1_000 }, (_, i) => (repeats.has(i) ? earlier[i * 2]! : { to: `91${7_200_000_000 + i}`, variables: { '1': 'New', '2': String(i) } }));
    // The same recipient with other values is a different message: not blocked.
    send[1] = { to: earlier[2]!.to, variables: { '1': 'Other', '2': 'X' } };
    const result = await accept('Again', send);
    expect(result).toMatchObject({ accepted: 1_000 - repeats.size, duplicates: repeats.size });
    const blocked = (await server.db('messages').where({ campaignId: result.campaignId, status: 'duplicate' }).pluck('recipient')) as string[];
    expect(blocked.sort()).toEqual([...repeats].map((i) => earlier[i * 2]!.to).sort());
  });

  it("finds blocked repeats of a few earlier messages in a send larger than one lookup, the earlier keys read into memory", async () => {
    const accept = await bulkSender(20_000);
    const earlier = recipients(Array.from({ length: 300 }, (_, i) => `91${7_250_000_000 + i}`));
    await accept('Earlier', earlier);
    // More keys than one lookup takes on either database (900 on SQLite, 10,000 on PostgreSQL) and
    // fewer earlier messages than twice them: the earlier keys are read, not probed.
    const repeats = new Map([
      [0, 0],
      [5_000, 150],
      [10_400, 299],
    ]);
    const send = Array.from({ length: 10_401 }, (_, i) => {
      const repeated = repeats.get(i);
      return repeated === undefined ? { to: `91${7_260_000_000 + i}`, variables: { '1': 'New', '2': String(i) } } : earlier[repeated]!;
    });
    // The same recipient with other values is a different message: not blocked.
    send[1] = { to: earlier[1]!.to, variables: { '1': 'Other', '2': 'X' } };
    const result = await accept('Again', send);
    expect(result).toMatchObject({ accepted: send.length - repeats.size, duplicates: repeats.size });
    for (const [index] of repeats) expect(result.statusCodes[index]).toBe(1);
    expect(result.statusCodes[1]).toBe(0);
  });

  /** A user who has sent `count` recipients from `first` on (one bulk campaign): the probes' history. */
  async function userWhoSent(first: number, count: number) {
    const user = await buildUser(server, { creditRupees: 5_000 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const earlier = recipients(Array.from({ length: count }, (_, i) => `91${first + i}`));
    await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Earlier', source: 'bulk', recipients: earlier, invalidCount: 0, inSendDuplicates: 0 });
    return { user, template };
  }

  /** Every read of `messages` in the probe's plan is the recipient index, entered by user and recipient; never all of the user's rows. */
  async function expectProbeByRecipient(sent: { user: { id: number }; template: { id: number } }, to: string[]) {
    const probe = pgDuplicateProbe({
      userId: sent.user.id,
      templateId: sent.template.id,
      to,
      keys: to.map((_, i) => `key${i}`),
      since: new Date(Date.now() - 86_400_000).toISOString(),
    });
    const { rows } = (await server.db.raw(`explain (format json) ${probe.sql}`, probe.bindings)) as { rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] };
    const scans = planNodes((rows[0]?.['QUERY PLAN'] ?? [])[0]?.Plan).filter((node) => node['Relation Name'] === 'messages');
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan['Index Name']).toBe('messages_user_recipient_index');
      expect(scan['Index Cond']).toContain('recipient');
    }
  }

  it.skipIf(testDatabaseKind() !== 'postgres')(
    "looks a probe's keys up through the recipient index however stale the planner's statistics are (PostgreSQL)",
    async () => {
      // A day's sending that autovacuum has not analysed yet (this schema is minutes old).
      const sent = await userWhoSent(7_300_000_000, 4_000);
      await expectProbeByRecipient(sent, Array.from({ length: 16 }, (_, i) => `91${7_400_000_000 + i}`));
    },
  );

  it.skipIf(testDatabaseKind() !== 'postgres')(
    "keeps the probe on the recipient index for a sender the table's statistics have not seen yet (PostgreSQL)",
    // Several thousand recipients accepted: over 20 s beside busy loops on a slow machine.
    { timeout: 120_000 },
    async () => {
      // Statistics taken while other users' messages filled the table: this user is in none of them,
      // as a new customer's first large send is until the next analysis (autovacuum's or
      // db/tableStatistics.ts'), however large the table is. The planner then expects one row of
      // this user in every index that starts with the user, and the recipient index must still win.
      for (let other = 0; other < 3; other++) await userWhoSent(7_600_000_000 + other * 1_000, 300);
      await server.db.raw('analyze messages');
      const sent = await userWhoSent(7_700_000_000, 4_000);
      await expectProbeByRecipient(sent, Array.from({ length: 16 }, (_, i) => `91${7_700_000_000 + i * 7}`));
    },
  );

  it.skipIf(testDatabaseKind() !== 'postgres')(
    "keeps the probe on the recipient index in the plan PostgreSQL keeps for every value of the prepared read, once the table has statistics",
    // 4,000 recipients accepted first: over 20 s beside busy loops on a slow machine.
    { timeout: 120_000 },
    async () => {
      const { user, template } = await userWhoSent(7_500_000_000, 4_000);
      // What db/tableStatistics.ts (or autovacuum) gives the table.
      await server.db.raw('analyze messages');
      const probe = pgDuplicateProbe({ userId: user.id, templateId: template.id, to: ['917500000001'], keys: ['key'], since: new Date(0).toISOString() });
      let placeholder = 0;
      const numbered = probe.sql.replace(/\?/g, () => `$${++placeholder}`);
      const plan = await server.db.transaction(async (trx) => {
        // The plan made for no particular values: the one PostgreSQL may keep after five runs.
        await trx.raw('set local plan_cache_mode = force_generic_plan');
        await trx.raw(`prepare generic_probe (text[], text[], integer, timestamptz, integer, integer, text[]) as ${numbered}`);
        const { rows } = (await trx.raw(`explain (format json) execute generic_probe (array['917500000001'], array['key'], ${user.id}, now() - interval '1 day', ${user.id}, ${template.id}, array['key'])`)) as {
          rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[];
        };
        await trx.raw('deallocate generic_probe');
        return rows[0]?.['QUERY PLAN'][0]?.Plan;
      });
      const scans = planNodes(plan).filter((node) => node['Relation Name'] === 'messages');
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) expect(scan['Index Name']).toBe('messages_user_recipient_index');
    },
  );

  it('suppresses opted-out recipients without charging', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    await server.db('suppressions').insert({ userId: user.id, recipient: '919800000041', reason: 'STOP', createdAt: new Date().toISOString() });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const accepted = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'S', source: 'quick', recipients: recipients(['919800000040', '919800000041']), invalidCount: 0, inSendDuplicates: 0 });
    expect(accepted).toMatchObject({ accepted: 1, suppressed: 1, totalCostUnits: 8000 });
    const row = (await server.db('messages').where({ campaignId: accepted.campaignId, recipient: '919800000041' }).first()) as { status: string; errorCode: number; priceUnits: number };
    expect(row).toMatchObject({ status: 'suppressed', errorCode: 131050, priceUnits: 0 });
  });

  it('refuses a send the wallet cannot cover and queues nothing', async () => {
    const user = await buildUser(server, { creditRupees: 1 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    await expect(
      server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Too big', source: 'bulk', recipients: recipients(['919800000050', '919800000051']), invalidCount: 0, inSendDuplicates: 0 }),
    ).rejects.toMatchObject({ status: 402, code: 'insufficient_balance', message: fillMessage(messages.sending.insufficientBalance, { cost: '1.60', balance: '1.00' }) });
    expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(0);
    expect(await server.db('messages').where({ userId: user.id })).toHaveLength(0);
    expect(await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' })).toHaveLength(0);
    expect(await balanceUnits(user.id)).toBe(10_000);
  });

  it('accepts one of two sends at once that the wallet covers only one of, and keeps nothing of the other', async () => {
    const user = await buildUser(server, { creditRupees: 1 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const send = (to: string) =>
      server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: `Race ${to}`, source: 'api', recipients: recipients([to]), invalidCount: 0, inSendDuplicates: 0, returnMessageIds: true });
    const outcomes = await Promise.allSettled([send('919800000052'), send('919800000053')]);
    const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ status: 402, code: 'insufficient_balance', message: fillMessage(messages.sending.insufficientBalance, { cost: '0.80', balance: '0.20' }) });
    expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(1);
    expect(await server.db('messages').where({ userId: user.id })).toHaveLength(1);
    expect(await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' })).toHaveLength(1);
    expect(await balanceUnits(user.id)).toBe(2_000);
    if (testDatabaseKind() === 'postgres') expect(await jobsWithoutMessages()).toBe(0);
  });

  describe('one message in two sends at once', () => {
    /** A user with a template and a sandbox number, and what one of their messages costs once. */
    async function sendsOfOneUser() {
      const user = await buildUser(server, { creditRupees: 2_000 });
      const template = await buildTemplate(server, user);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      const accept = (name: string, list: { to: string; variables: Record<string, string> }[], extra: { returnMessageIds?: boolean } = {}) =>
        server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name, source: 'api', recipients: list, invalidCount: 0, inSendDuplicates: 0, ...extra });
      return { user, template, sender, accept };
    }

    /** Every message to `to` that is not Duplicate Blocked, and what the wallet lost against the prices of all messages kept. */
    async function outcome(userId: number, to: string, before: number) {
      const rows = (await server.db('messages').where({ userId }).select('recipient', 'status', 'priceUnits')) as { recipient: string; status: string; priceUnits: number | string }[];
      const charged = rows.reduce((sum, row) => sum + Number(row.priceUnits), 0);
      return { kept: rows.filter((row) => row.recipient === to && row.status !== 'duplicate').length, spent: before - (await balanceUnits(userId)), charged };
    }

    it('queues and charges it once when two small groups (the public API, quick sends) carry it side by side', async () => {
      const { user, accept } = await sendsOfOneUser();
      const before = await balanceUnits(user.id);
      const shared = { to: '919800000300', variables: { '1': 'Asha', '2': 'A-1' } };
      // Three rounds at once, as two instances' group commits and a batch call would make them.
      const results = await Promise.all([
        accept('Round A', [shared, { to: '919800000301', variables: { '1': 'Ravi', '2': 'R-1' } }], { returnMessageIds: true }),
        accept('Round B', [{ to: '919800000302', variables: { '1': 'Meena', '2': 'M-1' } }, shared], { returnMessageIds: true }),
        accept('Round C', [shared], { returnMessageIds: true }),
      ]);
      expect(results.map((result) => result.duplicates).sort()).toEqual([0, 1, 1]);
      const { kept, spent, charged } = await outcome(user.id, shared.to, before);
      expect(kept).toBe(1);
      expect(spent).toBe(charged);
      expect(charged).toBe(3 * 8000);
    });

    it('queues and charges it once when a campaign and a small group carry it side by side', async () => {
      const { user, accept } = await sendsOfOneUser();
      const before = await balanceUnits(user.id);
      // More recipients than one statement takes: the campaign locks its user and template as a whole.
      const campaign = Array.from({ length: 1_200 }, (_, i) => ({ to: `9198001${String(10_000 + i)}`, variables: { '1': 'Asha', '2': 'A-1' } }));
      const shared = campaign[600]!;
      const results = await Promise.all([accept('Campaign', campaign), accept('Round', [shared], { returnMessageIds: true }), accept('Campaign again', campaign.slice(0, 10))]);
      expect(results.reduce((sum, result) => sum + result.accepted, 0)).toBe(1_200);
      const { kept, spent, charged } = await outcome(user.id, shared.to, before);
      expect(kept).toBe(1);
      expect(spent).toBe(charged);
      expect(charged).toBe(1_200 * 8000);
    });

    it.skipIf(testDatabaseKind() !== 'postgres')('looks again, under the locks, for the statuses the Duplicate Blocked probe counts', async () => {
      const result = (await server.db.raw("select prosrc from pg_proc where proname = 'accept_messages_guard'")) as { rows: { prosrc: string }[] };
      const statuses = /m\.status in \(([^)]*)\)/.exec(result.rows[0]?.prosrc ?? '')?.[1];
      expect(statuses?.split(',').map((status) => status.trim().replace(/'/g, ''))).toEqual([...BLOCKING_STATUSES]);
    });

    it('queues and charges it once when a streamed send and a small group carry it side by side', async () => {
      const { user, template, sender, accept } = await sendsOfOneUser();
      const before = await balanceUnits(user.id);
      const list = recipients(['919800000320', '919800000321', '919800000322']);
      async function* chunks() {
        yield list.slice(0, 2);
        yield list.slice(2);
      }
      const streamed = server.services.campaignAcceptance.acceptStream({
        user,
        template,
        senderNumberId: sender.id,
        name: 'Streamed',
        source: 'custom',
        chunks: chunks(),
        onClassified: () => undefined,
        screenedOut: () => ({ invalidCount: 0, inSendDuplicates: 0 }),
      });
      const results = await Promise.all([streamed, accept('Round', [list[1]!, list[2]!], { returnMessageIds: true })]);
      expect(results.reduce((sum, result) => sum + result.accepted, 0)).toBe(3);
      for (const to of ['919800000321', '919800000322']) expect((await outcome(user.id, to, before)).kept).toBe(1);
      const { spent, charged } = await outcome(user.id, '919800000320', before);
      expect(spent).toBe(charged);
      expect(charged).toBe(3 * 8000);
    });
  });

  it("refuses a template that is not usable or not the sender's", async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const other = await buildUser(server, { creditRupees: 10 });
    const theirs = await buildTemplate(server, other);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    await expect(
      server.services.campaignAcceptance.accept({ user, template: theirs, senderNumberId: sender.id, name: 'x', source: 'quick', recipients: recipients(['919800000060']), invalidCount: 0, inSendDuplicates: 0 }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("answers each recipient's message id in input order when asked (the public API's group commit)", async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    await server.db('suppressions').insert({ userId: user.id, recipient: '919800000072', reason: 'STOP', createdAt: new Date().toISOString() });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const send = (numbers: string[]) =>
      server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Ids', source: 'api', recipients: recipients(numbers), invalidCount: 0, inSendDuplicates: 0, returnMessageIds: true });
    await send(['919800000071']);
    // Recipient 0 of the first send again (Duplicate Blocked), then a new one, the opted-out one and another new one.
    const accepted = await send(['919800000071', '919800000073', '919800000072', '919800000074']);
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').select('id', 'recipient', 'status')) as { id: number; recipient: string; status: string }[];
    expect(accepted.messageIds).toEqual(rows.map((row) => Number(row.id)));
    expect(rows.map((row) => [row.recipient, row.status])).toEqual([
      ['919800000071', 'duplicate'],
      ['919800000073', 'queued'],
      ['919800000072', 'suppressed'],
      ['919800000074', 'queued'],
    ]);
    expect([...accepted.statusCodes]).toEqual([1, 0, 2, 0]);
    // The debit of a campaign made in the same transaction: one ledger row, the balance after it.
    const debits = (await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' }).orderBy('id')) as { amount: number; balanceAfter: number }[];
    expect(debits.map((debit) => [Number(debit.amount), Number(debit.balanceAfter)])).toEqual([
      [-8000, 92_000],
      [-16_000, 76_000],
    ]);
    expect(await balanceUnits(user.id)).toBe(76_000);
    // Without the question, no ids.
    expect((await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'No ids', source: 'api', recipients: recipients(['919800000075']), invalidCount: 0, inSendDuplicates: 0 })).messageIds).toBeUndefined();
  });

  it.skipIf(testDatabaseKind() !== 'postgres')(
    'writes a small send on PostgreSQL with one statement: debit, ledger row, campaign, messages and queue jobs, no transaction',
    async () => {
      const user = await buildUser(server, { creditRupees: 10 });
      await server.db('suppressions').insert({ userId: user.id, recipient: '919800000082', reason: 'STOP', createdAt: new Date().toISOString() });
      const template = await buildTemplate(server, user);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      const statements: string[] = [];
      const names: (string | undefined)[] = [];
      const record = (query: { sql: string; options?: { name?: string } }) => {
        statements.push(query.sql);
        names.push(query.options?.name);
      };
      server.db.on('query', record);
      let accepted: Awaited<ReturnType<typeof server.services.campaignAcceptance.accept>>;
      try {
        accepted = await server.services.campaignAcceptance.accept({
          user,
          template,
          senderNumberId: sender.id,
          name: 'One statement',
          source: 'api',
          recipients: recipients(['919800000081', '919800000082', '919800000083']),
          invalidCount: 0,
          inSendDuplicates: 0,
          returnMessageIds: true,
        });
      } finally {
        server.db.off('query', record);
      }
      // Acceptance's own writes are these.
      const writes = statements.filter((sql) => /insert into "?(campaigns|credit_transactions|messages)\b|update "?users"? set "?credit_balance/i.test(sql));
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/^with wallet_debit as \(update users .* wallet_ledger as \(insert into "credit_transactions" .* campaign as \(insert into "campaigns" .* message as \(insert into messages .* job as \(/s);
      // The write and the read before it are prepared statements, each named after its own text.
      const writeName = names[statements.indexOf(writes[0] as string)];
      const readName = names[statements.findIndex((sql) => sql.startsWith('select price.pricing_mode'))];
      expect(writeName).toMatch(/^sandesh_[0-9a-f]{32}$/);
      expect(readName).toMatch(/^sandesh_[0-9a-f]{32}$/);
      expect(readName).not.toBe(writeName);

      const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').select('id', 'recipient', 'status')) as { id: number; recipient: string; status: string }[];
      expect(accepted.messageIds).toEqual(rows.map((row) => Number(row.id)));
      expect(rows.map((row) => [row.recipient, row.status])).toEqual([
        ['919800000081', 'queued'],
        ['919800000082', 'suppressed'],
        ['919800000083', 'queued'],
      ]);
      const debit = (await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT' }).first()) as Record<string, unknown>;
      expect(debit).toMatchObject({
        amount: -16_000,
        balanceAfter: 84_000,
        description: 'Campaign "One statement": 2 messages',
        templateName: template.name,
        templateCategory: template.category,
        referenceType: 'campaign',
        referenceId: String(accepted.campaignId),
        idempotencyKey: `campaign:${accepted.campaignId}:debit`,
      });
      expect(accepted.walletAfter).toEqual({ balanceUnits: 84_000, lowBalanceThresholdUnits: null });
      // The queue job carries the queued rows only.
      const jobs = (await server.db.raw(`select data from ${pgBossSchema()}.job where name = 'dispatch-messages' and data->'messageIds' @> ?::jsonb`, [JSON.stringify([rows[0]?.id])])) as {
        rows: { data: { messageIds: number[] } }[];
      };
      expect(jobs.rows.map((job) => job.data.messageIds)).toEqual([[rows[0]?.id, rows[2]?.id].map(Number)]);
    },
  );

  it.skipIf(testDatabaseKind() !== 'postgres')(
    'runs a prepared single statement as one named statement per connection, each run with its own values, a refusal included after PostgreSQL may keep a generic plan',
    async () => {
      // One transaction keeps one connection, whose prepared statements pg_prepared_statements lists.
      await server.db.transaction(async (trx) => {
        await trx.raw('create temporary table probe_wallet (id int primary key, balance int not null) on commit drop');
        await trx.raw('create temporary table probe_ledger (amount int not null, balance_after int not null) on commit drop');
        await trx('probe_wallet').insert({ id: 1, balance: 100 });
        const spend = (units: number) =>
          runSingleStatement<{ balance: number }>(
            trx,
            singleStatement(
              [
                ['debit', { sql: 'update probe_wallet set balance = balance - ? where id = ? and balance - ? >= 0 returning balance', bindings: [units, 1, units] }],
                ['ledger', { sql: 'insert into probe_ledger (amount, balance_after) values (?, (select balance from debit))', bindings: [-units] }],
              ],
              'select balance from debit',
            ),
            { prepared: true },
          );
        // Past five runs PostgreSQL may plan the statement once for every value.
        const balances: number[] = [];
        for (const units of [10, 10, 10, 10, 10, 10, 10, 10]) balances.push(Number((await spend(units))[0]?.balance));
        expect(balances).toEqual([90, 80, 70, 60, 50, 40, 30, 20]);
        // More than the balance: no row updated, so the ledger's NOT NULL refuses the whole statement.
        await trx.raw('savepoint refused');
        await expect(spend(50)).rejects.toMatchObject({ code: '23502' });
        await trx.raw('rollback to savepoint refused');
        expect(Number((await spend(20))[0]?.balance)).toBe(0);
        expect(Number(((await trx('probe_ledger').count({ n: '*' })) as { n: number | string }[])[0]?.n)).toBe(9);
        const prepared = (await trx.raw(`select name, statement from pg_prepared_statements where statement like '%probe_wallet%'`)) as { rows: { name: string; statement: string }[] };
        expect(prepared.rows).toHaveLength(1);
        expect(prepared.rows[0]?.name).toMatch(/^sandesh_[0-9a-f]{32}$/);
        expect(prepared.rows[0]?.statement).toContain('balance - $1 where id = $2');
      });
    },
  );

  it('stores every row as sent, in input order, across full multi-row statements and the rest after them', async () => {
    const user = await buildUser(server, { creditRupees: 1_000 });
    await server.db('suppressions').insert({ userId: user.id, recipient: '917300000399', reason: 'STOP', createdAt: new Date().toISOString() });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    // 437 = two statements of 200 and a rest of 37 on SQLite; one opted out in the second statement.
    const list = Array.from({ length: 437 }, (_, i) => ({ to: `91${7_300_000_000 + i}`, variables: { '1': `Name\t${i}`, '2': `C\\${i}` } }));
    const accepted = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Rows', source: 'bulk', recipients: list, invalidCount: 0, inSendDuplicates: 0 });
    expect(accepted).toMatchObject({ accepted: 436, suppressed: 1 });
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').select('recipient', 'status', 'variables', 'priceUnits')) as { recipient: string; status: string; variables: string; priceUnits: number | string }[];
    expect(rows.map((row) => row.recipient)).toEqual(list.map((r) => r.to));
    expect(rows.map((row) => JSON.parse(row.variables) as unknown)).toEqual(list.map((r) => r.variables));
    expect(rows.filter((row) => row.status === 'suppressed').map((row) => row.recipient)).toEqual(['917300000399']);
    expect(rows.filter((row) => row.status === 'queued' && Number(row.priceUnits) === 8000)).toHaveLength(436);
  });

  it('accepts 20,000 recipients in batches in one transaction', async () => {
    const user = await buildUser(server, { creditRupees: 100_000 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const many = Array.from({ length: 20_000 }, (_, i) => ({ to: `91${7_000_000_000 + i}`, variables: { '1': 'A', '2': String(i) } }));
    const started = Date.now();
    const accepted = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Big', source: 'bulk', recipients: many, invalidCount: 0, inSendDuplicates: 0 });
    const seconds = (Date.now() - started) / 1000;
    expect(accepted.accepted).toBe(20_000);
    const count = (await server.db('messages').where({ campaignId: accepted.campaignId }).count({ n: '*' }).first()) as { n: number | string };
    expect(Number(count.n)).toBe(20_000);
    expect(await balanceUnits(user.id)).toBe(1_000_000_000 - 20_000 * 8000);
    console.log(`accepted 20,000 recipients in ${seconds.toFixed(2)} s`);
  });

  describe('acceptStream: recipients read a chunk at a time (a send from an upload)', () => {
    type Chunk = { to: string; variables: Record<string, string> }[];

    /** The chunks as an async generator that records how many were read and can fail after some. */
    function chunkSource(chunks: Chunk[], options: { failAfter?: number } = {}) {
      const state = { read: 0, stopped: false };
      async function* source(): AsyncGenerator<Chunk> {
        try {
          for (const chunk of chunks) {
            if (options.failAfter !== undefined && state.read === options.failAfter) throw new Error('the upload could not be read');
            state.read += 1;
            yield chunk;
          }
        } finally {
          state.stopped = true;
        }
      }
      return { state, chunks: source() };
    }

    /** A user with `creditRupees`, a template and the sandbox number. */
    async function sender(creditRupees: number) {
      const user = await buildUser(server, { creditRupees });
      const template = await buildTemplate(server, user);
      const number = await server.services.senderNumbers.ensureSandbox(user.id);
      return { user, template, number };
    }

    /** A streamed custom send of `chunks` with nothing set aside before acceptance. */
    function acceptChunks(from: Awaited<ReturnType<typeof sender>>, name: string, chunks: AsyncIterable<Chunk>) {
      const { user, template, number } = from;
      return server.services.campaignAcceptance.acceptStream({ user, template, senderNumberId: number.id, name, source: 'custom', chunks, onClassified: () => undefined, screenedOut: () => ({ invalidCount: 0, inSendDuplicates: 0 }) });
    }

    it('classifies each chunk before reading the next (never the whole send first), and makes the campaign accept would make', async () => {
      const user = await buildUser(server, { creditRupees: 10 });
      await server.db('suppressions').insert({ userId: user.id, recipient: '919800000105', reason: 'STOP', createdAt: new Date().toISOString() });
      const template = await buildTemplate(server, user);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Earlier', source: 'bulk', recipients: recipients(['919800000101']), invalidCount: 0, inSendDuplicates: 0 });
      const earlierBalance = await balanceUnits(user.id);

      // Recipient 0 of chunk 1 repeats the earlier campaign's message (same number, same values), chunk 2 holds the opted-out number.
      const chunks: Chunk[] = [recipients(['919800000101', '919800000100']), recipients(['919800000103', '919800000104', '919800000105']), recipients(['919800000106'])];
      const { state, chunks: source } = chunkSource(chunks);
      const readWhenClassified: number[] = [];
      const classified: number[][] = [];
      const accepted = await server.services.campaignAcceptance.acceptStream({
        user,
        template,
        senderNumberId: sender.id,
        name: 'Streamed',
        source: 'custom',
        chunks: source,
        onClassified: (chunk, codes) => {
          readWhenClassified.push(state.read);
          classified.push([...codes]);
          expect(codes).toHaveLength(chunk.length);
        },
        screenedOut: () => ({ invalidCount: 4, inSendDuplicates: 2 }),
      });
      // Chunk n was classified while n chunks had been read: never the whole send first.
      expect(readWhenClassified).toEqual([1, 2, 3]);
      expect(classified).toEqual([[1, 0], [0, 0, 2], [0]]);
      expect([...accepted.statusCodes]).toEqual([1, 0, 0, 0, 2, 0]);
      expect(accepted).toMatchObject({ accepted: 4, duplicates: 3, invalid: 4, suppressed: 1, priceUnits: 8000, totalCostUnits: 32_000 });
      const campaign = (await server.db('campaigns').where({ id: accepted.campaignId }).first()) as Record<string, unknown>;
      expect(campaign).toMatchObject({ status: 'running', totalRecipients: 6, billableCount: 4, duplicateCount: 3, invalidCount: 4, suppressedCount: 1, totalCostUnits: 32_000, completedAt: null });
      const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').select('recipient', 'status')) as { recipient: string; status: string }[];
      expect(rows.map((row) => [row.recipient, row.status])).toEqual([
        ['919800000101', 'duplicate'],
        ['919800000100', 'queued'],
        ['919800000103', 'queued'],
        ['919800000104', 'queued'],
        ['919800000105', 'suppressed'],
        ['919800000106', 'queued'],
      ]);
      expect(await balanceUnits(user.id)).toBe(earlierBalance - 32_000);
      expect(state.stopped).toBe(true);
    });

    it('keeps nothing when reading fails after the first chunks were written', async () => {
      const from = await sender(10);
      const { user } = from;
      const { state, chunks } = chunkSource([recipients(['919800000110', '919800000111']), recipients(['919800000112']), recipients(['919800000113'])], { failAfter: 2 });
      await expect(acceptChunks(from, 'Cut', chunks)).rejects.toThrow('the upload could not be read');
      expect(state.read).toBe(2);
      expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(0);
      expect(await server.db('messages').where({ userId: user.id })).toHaveLength(0);
      expect(await balanceUnits(user.id)).toBe(100_000);
    });

    it('refuses a send the balance does not cover with its whole cost, read to the end, and keeps nothing', async () => {
      const from = await sender(1);
      const { user } = from;
      // One message (Rs 0.80) is covered; the second chunk passes the balance, the third still counts.
      const { state, chunks } = chunkSource([recipients(['919800000120']), recipients(['919800000121', '919800000122']), recipients(['919800000123'])]);
      await expect(acceptChunks(from, 'Too big', chunks)).rejects.toMatchObject({ status: 402, code: 'insufficient_balance', message: fillMessage(messages.sending.insufficientBalance, { cost: '3.20', balance: '1.00' }) });
      expect(state.read).toBe(3);
      expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(0);
      expect(await server.db('messages').where({ userId: user.id })).toHaveLength(0);
      expect(await balanceUnits(user.id)).toBe(10_000);
    });

    it('answers the same fates as a dry run (screenStream) without writing', async () => {
      const user = await buildUser(server, { creditRupees: 10 });
      await server.db('suppressions').insert({ userId: user.id, recipient: '919800000132', reason: 'STOP', createdAt: new Date().toISOString() });
      const template = await buildTemplate(server, user);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Earlier', source: 'bulk', recipients: recipients(['919800000130']), invalidCount: 0, inSendDuplicates: 0 });
      const classified: number[][] = [];
      const totals = await server.services.campaignAcceptance.screenStream(user.id, template.id, chunkSource([recipients(['919800000130', '919800000131']), recipients(['919800000132'])]).chunks, (_chunk, codes) => classified.push([...codes]));
      expect(classified).toEqual([[1, 0], [2]]);
      expect(totals).toEqual({ billable: 1, duplicates: 1, suppressed: 1 });
      expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(1);
    });
  });
});
