/**
 * A claim on a message and the reference a send carries: the fencing token written when a worker
 * claims rows, and `sandesh:<id>:<token>` in `biz_opaque_callback_data`, by which a provider's status
 * finds the message and the claim it was sent under.
 */
import { randomBytes } from 'node:crypto';

export interface ClaimedMessage {
  id: number;
  campaignId: number;
  recipient: string;
  variables: string | null;
  attempts: number;
  /** The fencing token of the claim: sends and result writes happen only while the row carries it. */
  claimToken: string;
}

/** Row fields come back camelCased through knex's mappers, or snake_cased from raw statements. */
export function toClaimed(row: Record<string, unknown>): ClaimedMessage {
  return {
    id: Number(row.id),
    campaignId: Number(row.campaignId ?? row.campaign_id),
    recipient: String(row.recipient),
    variables: (row.variables as string | null) ?? null,
    attempts: Number(row.attempts),
    claimToken: String(row.claimToken ?? row.claim_token),
  };
}

/** A fresh fencing token for one claim. */
export function newClaimToken(): string {
  return randomBytes(8).toString('hex');
}

const REFERENCE_PREFIX = 'sandesh';

/** Our reference for one send, carried in `biz_opaque_callback_data`: the message and its claim. */
export function sendReference(message: Pick<ClaimedMessage, 'id' | 'claimToken'>): string {
  return `${REFERENCE_PREFIX}:${message.id}:${message.claimToken}`;
}

/** The message and claim a reference names, or null for anything else (another system's data). */
export function parseSendReference(reference: string | null | undefined): { id: number; claimToken: string } | null {
  const match = /^sandesh:(\d{1,18}):([0-9a-f]{16})$/.exec(reference ?? '');
  if (!match) return null;
  return { id: Number(match[1]), claimToken: match[2] as string };
}
