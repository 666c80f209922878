import { LOGS, POLICY } from '@shared/constants';
import type { LegalSection } from '../../../components/public/LegalDocument';
import { LEGAL_ENTITY, telHref, type LegalContext } from './common';

export const TERMS_LAST_UPDATED = '15 January 2025';

/**
 * The six questions of the terms FAQ (spec 000 §2.9). The refund answer states the refund
 * policy's 7-day window: the policy is the newer document and wins over the FAQ's older
 * 30-day wording (docs/decisions/2026-11-24-refund-policy-window.md).
 */
export function buildTermsFaq({ brandName, support }: LegalContext): LegalSection[] {
  return [
    {
      id: 'the-service',
      title: `What is ${brandName}?`,
      blocks: [
        {
          kind: 'paragraph',
          text: `${brandName} is a prepaid platform for sending WhatsApp Business template messages, one at a time or in bulk, from a web app, a desktop app or a REST API. It is operated by a ${LEGAL_ENTITY.form} based in ${LEGAL_ENTITY.city}, ${LEGAL_ENTITY.country}.`,
        },
        {
          kind: 'paragraph',
          text: 'By creating an account you agree to use it lawfully, to message only people who have opted in, and to follow the WhatsApp Business Messaging and Commerce policies. We may suspend accounts that send spam or break these rules.',
        },
      ],
    },
    {
      id: 'pricing-and-payment',
      title: 'How do pricing and payment work?',
      blocks: [
        {
          kind: 'paragraph',
          text: 'There is no monthly fee. You top up your wallet in rupees (one credit is ₹1) and pay by UPI, credit or debit card, net banking or bank transfer.',
        },
        {
          kind: 'paragraph',
          text: 'Credits are deducted for each message according to its category (marketing, utility or authentication) and the recipient country. The rate that applies to you is shown in your dashboard, and the total cost is shown before you confirm a send. Messages that finally fail are credited back.',
        },
      ],
    },
    {
      id: 'refund-and-cancellation',
      title: 'What is the refund and cancellation policy?',
      blocks: [
        {
          kind: 'paragraph',
          text: `A completely unused top-up can be refunded if you ask within ${POLICY.refundWindowDays} days of purchase; an administrative fee may apply. Promotional or bonus credits, taxes, processor fees and conversation charges already passed through are not refundable. Billing disputes can be raised within ${POLICY.disputeWindowDays} days of the invoice date.`,
        },
        {
          kind: 'paragraph',
          text: 'You can stop using the Service and close your account at any time. Cancelling a subscription stops its renewal, and access continues until the end of the paid period.',
        },
        { kind: 'links', items: [{ label: 'Read the full Refund & Cancellation Policy', to: '/refund-policy' }] },
      ],
    },
    {
      id: 'delivery',
      title: 'Is message delivery guaranteed?',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We hand every accepted message to the WhatsApp Business Platform straight away and show its status (sent, delivered, read or failed) in your reports. Delivery itself depends on WhatsApp and on the recipient: a phone that is off, a number not on WhatsApp or a blocked business can all prevent delivery.',
        },
        {
          kind: 'paragraph',
          text: 'You are not charged for a message that finally fails, nor for a message blocked as an accidental duplicate.',
        },
      ],
    },
    {
      id: 'data-and-privacy',
      title: 'How is my data handled?',
      blocks: [
        {
          kind: 'paragraph',
          text: `We are the controller of your account data and a processor of the message content you send on your behalf. Message logs are kept for ${LOGS.retentionDays} days and then deleted. We do not sell personal data.`,
        },
        { kind: 'links', items: [{ label: 'Read the Privacy Policy', to: '/privacy' }] },
      ],
    },
    {
      id: 'support-contact',
      title: 'How do I contact support?',
      blocks: [
        {
          kind: 'paragraph',
          text: `Write to us or call us; we reply within ${POLICY.supportReplyHoursMin} to ${POLICY.supportReplyHoursMax} hours.`,
        },
        {
          kind: 'contacts',
          entries: [
            { label: 'E-mail', value: support.email, href: `mailto:${support.email}` },
            { label: 'Phone', value: support.phone, href: telHref(support.phone) },
            { label: 'Address', value: support.address },
          ],
        },
        {
          kind: 'paragraph',
          text: `These terms are governed by the laws of India, and the courts at ${LEGAL_ENTITY.jurisdiction} have jurisdiction.`,
        },
      ],
    },
  ];
}
