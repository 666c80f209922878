/**
 * Duplicate Blocked between acceptances that run at once on PostgreSQL.
 *
 * Acceptance reads which of its messages an earlier one blocks, then writes them. Two acceptances
 * of one message side by side (a form sent twice, `/api/send/batch` beside `/api/send`, two
 * instances behind a balancer) each read before the other committed, so neither saw the other and
 * the message was queued and charged twice. Each accepting transaction therefore takes advisory
 * locks before it reads, and holds them to its commit; a second acceptance of the same message
 * waits for the first to commit, and its read then finds the first's message.
 *
 * The locks form a hierarchy, so that acceptances of different messages still run side by side:
 * - a send of this user and template as a whole (a campaign, or a group of more than
 *   `MESSAGE_LOCKS_MAX` messages) takes its (user, template) lock exclusively;
 * - a small group (the public API's group commit, a short quick send) takes that lock shared and
 *   one exclusive lock per message's Duplicate Blocked key.
 * Every transaction takes its (user, template) lock first and its message locks after it in
 * ascending order, and none waits for another lock while holding a row, so the locks cannot
 * deadlock. Different keys may share a 32-bit lock: they then only wait for each other.
 *
 * A send written as one statement (the public API's group commit, short quick sends) holds no
 * transaction between its read and its write: its write takes the locks first, through
 * `accept_messages_guard` (migration 20261208100100), which then looks again for what it is about
 * to queue with a snapshot taken under them. Found, the statement is refused (`isDuplicateRace`)
 * and the send is accepted again in a transaction, locks first. A transaction costs this path
 * three more round trips, a large share of the public API's requests a second.
 *
 * SQLite needs none of this: its one connection runs one transaction at a time, and acceptance
 * reads inside its transaction.
 */
import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import type { StatementPart } from '../../db/singleStatement';

/** The lock classes (the first of the two-key form, whose space no single-key lock shares, such as pg-boss's). */
const SEND_LOCK_CLASS = 0x5344_0001;
const MESSAGE_LOCK_CLASS = 0x5344_0002;

/** More messages than this in one group lock their (user, template) as a whole: PostgreSQL's lock table is shared and finite. */
export const MESSAGE_LOCKS_MAX = 64;

const LOCK_SQL = `select count(case when l.shared then pg_advisory_xact_lock_shared(l.class, l.id) else pg_advisory_xact_lock(l.class, l.id) end) as taken
  from unnest(?::int[], ?::int[], ?::boolean[]) as l(class, id, shared)`;

/** A 32-bit lock id from hex digits (a Duplicate Blocked key, or a digest). */
function lockId(hex: string): number {
  return Number.parseInt(hex.slice(0, 8), 16) | 0;
}

/** The (user, template) lock's id. */
function sendLockId(userId: number, templateId: number): number {
  return lockId(hash('sha256', `${userId}|${templateId}`, 'hex'));
}

export interface DuplicateLocks {
  classes: number[];
  ids: number[];
  shared: boolean[];
}

/**
 * The locks an acceptance takes, in the order it takes them. `keys`: the Duplicate Blocked keys of
 * a small group's messages; null for a send locked as a whole.
 */
export function duplicateLocksFor(userId: number, templateId: number, keys: readonly string[] | null): DuplicateLocks {
  const sendLock = sendLockId(userId, templateId);
  if (keys === null || keys.length > MESSAGE_LOCKS_MAX) return { classes: [SEND_LOCK_CLASS], ids: [sendLock], shared: [false] };
  const messageLocks = [...new Set(keys.map(lockId))].sort((a, b) => a - b);
  return {
    classes: [SEND_LOCK_CLASS, ...messageLocks.map(() => MESSAGE_LOCK_CLASS)],
    ids: [sendLock, ...messageLocks],
    shared: [true, ...messageLocks.map(() => false)],
  };
}

/** Takes an acceptance's locks in `trx`, held until it ends (PostgreSQL's store; SQLite takes none). */
export async function lockDuplicates(trx: Knex.Transaction, userId: number, templateId: number, keys: readonly string[] | null): Promise<void> {
  const locks = duplicateLocksFor(userId, templateId, keys);
  await trx.raw(LOCK_SQL, [locks.classes, locks.ids, locks.shared]);
}

/**
 * The guard of a send written as one statement, as SQL that is true or refuses the statement: its
 * locks, then a look for blocking messages with the keys it queues (`recipients` and `keys` in the
 * same order) other than its own campaign's, since the window's start.
 */
export function duplicateGuardPart(guard: { userId: number; templateId: number; campaignId: number; recipients: string[]; keys: string[]; since: string }): StatementPart {
  const locks = duplicateLocksFor(guard.userId, guard.templateId, guard.keys);
  return {
    sql: '(select accept_messages_guard(?::integer[], ?::integer[], ?::boolean[], ?, ?, ?, ?::text[], ?::text[], ?::timestamptz))',
    bindings: [locks.classes, locks.ids, locks.shared, guard.userId, guard.templateId, guard.campaignId, guard.recipients, guard.keys, guard.since],
  };
}

/** The guard's refusal: another send accepted one of these messages after this one read. */
export function isDuplicateRace(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SD409';
}
