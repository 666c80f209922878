import { presentNumberHealth } from './numberHealth';
import { formatIndianNumber, unitsToRupees } from '@shared/money';
import { fillMessage, messages } from '@shared/messages';
import { formatIstTime } from '@shared/istTime';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { AcceptedCampaign } from '../sending/campaignAcceptance';
import type { SenderNumber } from '../sending/senderNumbers';
import type { SendAccepted } from '../sending/service';

export function presentSenderNumber(number: SenderNumber): TSenderNumber {
  return {
    id: number.id,
    phone_number_id: number.phoneNumberId,
    label: number.label,
    display_number: number.displayNumber,
    provider: number.provider,
    is_sandbox: number.isSandbox,
    messages_per_second: number.messagesPerSecond,
    health: number.provider === 'cloud_api' ? presentNumberHealth(number) : null,
    sending_stopped: number.sendingStoppedAt
      ? { since: new Date(number.sendingStoppedAt).toISOString(), code: number.sendingStoppedCode ?? null, reason: number.sendingStoppedReason ?? '' }
      : null,
  };
}

/** An accepted campaign's figures, as every send call answers them. */
export function presentAcceptedCampaign(result: AcceptedCampaign): TCampaignAccepted {
  return {
    campaignId: result.campaignId,
    accepted: result.accepted,
    duplicates: result.duplicates,
    repeats: result.repeats,
    invalid: result.invalid,
    suppressed: result.suppressed,
    totalCost: unitsToRupees(result.totalCostUnits, 4),
    ...(result.scheduledAt ? { scheduledAt: result.scheduledAt.toISOString() } : {}),
  };
}

/** The accepting answer's text: the send screen's own, or when a scheduled one goes out. */
export function acceptedText(data: TCampaignAccepted, sendNowText: string): string {
  const count = formatIndianNumber(data.accepted);
  return data.scheduledAt ? fillMessage(messages.schedule.accepted, { count, time: formatIstTime(data.scheduledAt) }) : fillMessage(sendNowText, { count });
}

/** A send call's answer: the campaign, the count of unsendable rows (personalised sends) and the rows set aside. */
export function presentSendAccepted(send: SendAccepted): TCampaignAccepted & { skipped?: number; optedOutExcluded?: number } {
  return {
    ...presentAcceptedCampaign(send.campaign),
    ...(send.unsendableRows === undefined ? {} : { skipped: send.unsendableRows }),
    ...(send.optedOutExcluded === undefined ? {} : { optedOutExcluded: send.optedOutExcluded }),
    skippedRows: send.setAside.listed,
    skippedCount: send.setAside.count,
  };
}
