import { POLICY } from '@shared/constants';
import type { LegalSection } from '../../../components/public/LegalDocument';
import { LEGAL_ENTITY, telHref, type LegalContext } from './common';

export const REFUND_LAST_UPDATED = '12 Aug 2025';

const refundDays = `${POLICY.refundWindowDays} days`;
const disputeDays = `${POLICY.disputeWindowDays} days`;
const resolution = `${POLICY.resolutionBusinessDaysMin} to ${POLICY.resolutionBusinessDaysMax} business days`;
const replyTime = `${POLICY.supportReplyHoursMin} to ${POLICY.supportReplyHoursMax} hours`;

/**
 * The refund and cancellation policy (spec 000 §2.9, §4.7 and the policy constants of §9).
 * The section titles are the specification's, in its order.
 */
export function buildRefundSections({ brandName, support }: LegalContext): LegalSection[] {
  return [
    {
      id: 'summary',
      title: 'Summary',
      blocks: [
        {
          kind: 'paragraph',
          text: `${brandName} is prepaid and pay-as-you-go: there are no monthly fees. You top up a wallet in rupees (one credit is ₹1) and credits are deducted for each message you send. In short:`,
        },
        {
          kind: 'list',
          items: [
            `A completely unused top-up can be refunded if you ask within ${refundDays} of buying it. An administrative fee may be deducted.`,
            `Billing disputes must be raised within ${disputeDays} of the invoice date.`,
            `We resolve refund requests and disputes within ${resolution}.`,
            'Messages that finally fail to send are credited back to your wallet automatically, and blocked duplicates are never charged.',
            'Promotional or bonus credits, taxes, payment processor fees and WhatsApp conversation charges already passed through are never refundable.',
          ],
        },
      ],
    },
    {
      id: 'what-you-can-cancel',
      title: 'What you can cancel',
      blocks: [
        {
          kind: 'list',
          items: [
            'Your account: you can stop using the Service and ask us to close your account at any time. There is no lock-in period and no cancellation fee.',
            'Subscriptions and paid add-ons, where your plan has any: cancelling stops future renewals. The subscription stays active, and you keep access, until the end of the period you have already paid for. The current period is not refunded pro rata.',
            'A top-up in progress: if you close the payment window before paying, nothing is charged and no credits are added.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Messages already accepted for sending cannot be recalled, because WhatsApp processes them as soon as they are dispatched.',
        },
      ],
    },
    {
      id: 'credits',
      title: 'Credits',
      blocks: [
        {
          kind: 'list',
          items: [
            'Credits are added to your wallet as soon as the payment processor confirms your payment. One credit equals ₹1.',
            'Each message costs the rate for its template category (marketing, utility or authentication) and the recipient country, as shown in your dashboard before you confirm a send. The price is fixed when the message is accepted.',
            'A message that finally fails is credited back automatically, and a message blocked as a duplicate is not charged.',
            'Credits are not cash. They cannot be withdrawn, earn no interest and cannot be transferred to another account.',
            `Credits may expire ${POLICY.creditExpiryMonths} months after purchase where expiry applies to your account; we will tell you before any credits expire.`,
            'Credits are forfeited if the account is suspended for breaching our terms, the WhatsApp Business policies or the law.',
          ],
        },
      ],
    },
    {
      id: 'when-we-consider-refunds',
      title: 'When we do consider refunds',
      blocks: [
        {
          kind: 'list',
          items: [
            `Goodwill window: a top-up that is completely unused, requested within ${refundDays} of purchase, is refunded to the original payment method. We may deduct an administrative fee, which we will tell you before processing.`,
            'Duplicate or mistaken charges: if you were charged twice for the same top-up, or charged without receiving credits, we refund or credit the difference in full once we have confirmed it with the payment processor.',
            'Billing errors on our side: if credits were deducted wrongly because of a fault in our systems, we restore them to your wallet.',
            'Extended service failure: if a fault on our side stopped you from using the Service for a long period, we may offer credits or a partial refund at our discretion.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'A top-up that has been partly used is not refundable; its remaining credits stay in your wallet.',
        },
      ],
    },
    {
      id: 'never-refundable',
      title: "What's never refundable",
      blocks: [
        {
          kind: 'list',
          items: [
            'Promotional, bonus or free credits.',
            'Taxes, including GST, charged on a purchase.',
            'Payment processor fees.',
            'WhatsApp conversation charges already passed through for messages that were sent.',
            `Credits already used, partly used top-ups, and top-ups older than ${refundDays}.`,
            'Credits forfeited on suspension for a policy breach, and trial balances.',
          ],
        },
      ],
    },
    {
      id: 'how-to-request',
      title: 'How to request a refund or dispute a bill',
      blocks: [
        {
          kind: 'list',
          ordered: true,
          items: [
            'Write to us from the e-mail address registered on your account, with "Refund request" or "Billing dispute" in the subject.',
            'Include your username, the payment or order reference, the date and amount, and the reason.',
            `Send refund requests within ${refundDays} of the top-up, and billing disputes within ${disputeDays} of the invoice date.`,
            `We reply within ${replyTime} and resolve the request within ${resolution}.`,
            'Approved refunds go back to the original payment method. Your bank or card issuer may take a few more days to show them.',
          ],
        },
        {
          kind: 'contacts',
          entries: [
            { label: 'E-mail', value: support.email, href: `mailto:${support.email}` },
            { label: 'Phone', value: support.phone, href: telHref(support.phone) },
            { label: 'Contact page', value: 'Contact us', href: '/contact' },
          ],
        },
      ],
    },
    {
      id: 'chargebacks',
      title: 'Chargebacks',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Please contact us before asking your bank for a chargeback; most billing problems are settled faster directly.',
        },
        {
          kind: 'list',
          items: [
            'While a chargeback is open we may pause the account and will share the transaction records, wallet ledger and delivery reports with the payment processor.',
            'If the chargeback is decided in your favour, the matching credits are removed from your wallet.',
            'If it is decided in our favour, we restore access and may recover the chargeback fee.',
            'Repeated or unfounded chargebacks for credits that were used may be treated as a breach of our terms.',
          ],
        },
      ],
    },
    {
      id: 'trial-accounts-and-closures',
      title: 'Trial accounts & closures',
      blocks: [
        {
          kind: 'list',
          items: [
            'A trial account\'s balance, including any trial or demo credits, is not refunded when the trial ends or the account is closed.',
            `When you close a paid account, a completely unused top-up still within ${refundDays} of purchase can be refunded as described above. Other remaining credits cannot be paid out, so please use them first.`,
            'If the account is closed or suspended for a policy breach, its credits are forfeited.',
            'If we discontinue the Service for reasons other than a breach, we will refund the unused paid balance of every wallet.',
          ],
        },
      ],
    },
    {
      id: 'country-specific-rights',
      title: 'Country-specific rights',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Nothing in this policy limits rights that the law gives you and that cannot be waived.',
        },
        { kind: 'subheading', text: 'India' },
        {
          kind: 'paragraph',
          text: `Consumers keep their rights under the Consumer Protection Act, 2019 and the Consumer Protection (E-Commerce) Rules, 2020, including grievance redressal. ${brandName} is operated by a ${LEGAL_ENTITY.form} in ${LEGAL_ENTITY.city}, ${LEGAL_ENTITY.country}, and disputes are subject to the courts at ${LEGAL_ENTITY.jurisdiction}.`,
        },
        { kind: 'subheading', text: 'European Union and United Kingdom' },
        {
          kind: 'paragraph',
          text: 'Consumers have a 14-day right to withdraw from a purchase of digital services. By spending credits within that period you ask us to start the service straight away, and the withdrawal right no longer covers the credits you have used.',
        },
        { kind: 'subheading', text: 'Elsewhere' },
        {
          kind: 'paragraph',
          text: 'Where mandatory local consumer law gives you more than this policy does, that law applies.',
        },
      ],
    },
    {
      id: 'changes-to-this-policy',
      title: 'Changes to this policy',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We may update this policy; the date at the top shows the current version. We announce material changes by e-mail or in the dashboard before they take effect. A top-up is always handled under the policy in force on the day it was bought.',
        },
      ],
    },
    {
      id: 'admin-checklist',
      title: 'Admin checklist',
      blocks: [
        { kind: 'paragraph', text: 'What our team checks before approving a refund or resolving a dispute:' },
        {
          kind: 'list',
          ordered: true,
          items: [
            'The request comes from the registered e-mail address of the account owner.',
            `The top-up is within ${refundDays} of purchase, or the invoice is within ${disputeDays} for a dispute.`,
            'The wallet ledger shows the top-up completely unused: no message debits since it was credited.',
            'Promotional or bonus credits, taxes, processor fees and passed-through conversation charges are excluded from the amount.',
            'Any administrative fee is stated to the customer before the refund is made.',
            'The refund goes through the payment processor to the original payment method, never in cash or to another account.',
            'The refunded credits are removed from the wallet with a ledger entry that carries the payment reference.',
            `The customer receives the outcome and the reference within ${resolution}.`,
            'For a chargeback: the order and payment ids, ledger entries and delivery reports are sent to the processor before its deadline.',
          ],
        },
      ],
    },
  ];
}
