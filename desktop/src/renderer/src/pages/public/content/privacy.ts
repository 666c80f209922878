import { AUTH, LOGS, POLICY, SESSION } from '@shared/constants';
import type { LegalBlock, LegalSection } from '../../../components/public/LegalDocument';
import { LEGAL_ENTITY, policyMailboxes, telHref, type LegalContext } from './common';

export const PRIVACY_LAST_UPDATED = '12 Aug 2025';

const sessionMinutes = SESSION.idleTimeoutSeconds / 60;

/** The 14 sections of the privacy policy (spec 000 §2.9). */
export function buildPrivacySections({ brandName, support }: LegalContext): LegalSection[] {
  const mailboxes = policyMailboxes(support.email);

  return [
    {
      id: 'about-this-policy',
      title: 'About this policy',
      blocks: [
        {
          kind: 'paragraph',
          text: `${brandName} ("we", "us") is a prepaid WhatsApp Business messaging platform operated by a ${LEGAL_ENTITY.form} based in ${LEGAL_ENTITY.city}, ${LEGAL_ENTITY.state}, ${LEGAL_ENTITY.country}. This policy explains what personal data we handle when you use our website, web app, desktop app and REST API (together, the "Service"), why we handle it, and the choices you have.`,
        },
        {
          kind: 'paragraph',
          text: 'It applies to our customers (the businesses that hold an account and their authorised users), to visitors of our public pages, and, in the limited way described in section 2, to the people our customers send messages to.',
        },
      ],
    },
    {
      id: 'our-role',
      title: 'Our role: controller and processor',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We play two different roles depending on the data, and your rights are exercised differently in each.',
        },
        { kind: 'subheading', text: 'Controller (Data Fiduciary) for account data' },
        {
          kind: 'paragraph',
          text: 'We decide why and how account data is processed: your name, e-mail address, username, phone number, login and session records, wallet balance, top-ups, invoices and support conversations. For this data we are the controller, or "Data Fiduciary" under India\'s Digital Personal Data Protection Act, 2023 (DPDP Act).',
        },
        { kind: 'subheading', text: 'Processor (Data Processor) for message content' },
        {
          kind: 'paragraph',
          text: 'The recipient phone numbers, template variables, spreadsheet rows and message content that you upload or send are processed only on your instructions, to deliver your messages and report on them. For this data you are the controller and we are your processor. You are responsible for having a lawful basis, and the opt-in WhatsApp requires, for every message you send.',
        },
        {
          kind: 'note',
          text: `If you received a message sent through ${brandName}, please contact the business that sent it. We will pass on any request we receive about such messages to that business.`,
        },
      ],
    },
    {
      id: 'information-we-collect',
      title: 'Information we collect',
      blocks: [
        { kind: 'subheading', text: 'Information you give us' },
        {
          kind: 'list',
          items: [
            'Account details: full name, e-mail address, username, password (stored only as a salted hash) and, optionally, a phone number with country code.',
            'Business and WhatsApp details: business name, WhatsApp Business number and its identifiers, and provider credentials, which we encrypt at rest and never display back.',
            'Message data: templates, recipient numbers, variable values, spreadsheet columns you map and header media you upload.',
            'Support and correspondence: what you write to us and our replies.',
          ],
        },
        { kind: 'subheading', text: 'Information created when you use the Service' },
        {
          kind: 'list',
          items: [
            'Delivery records: message status (sent, delivered, read, failed), timestamps and error codes returned by WhatsApp.',
            'Wallet records: top-ups, per-message debits, refunds of failed messages and adjustments.',
            'Technical records: IP address, device and browser type, session activity and API request logs, used for security, rate limiting and troubleshooting.',
          ],
        },
        { kind: 'subheading', text: 'Information from third parties' },
        {
          kind: 'list',
          items: [
            'Our payment processor tells us whether a payment succeeded, its reference, amount and method type. We never receive or store full card numbers, UPI PINs or net-banking passwords.',
            'Meta (WhatsApp) tells us about template approvals and message statuses.',
          ],
        },
      ],
    },
    {
      id: 'how-we-use-information',
      title: 'How we use information',
      blocks: [
        {
          kind: 'list',
          items: [
            'To create and secure your account, sign you in and keep your session safe.',
            'To submit your templates to WhatsApp and deliver your messages to your recipients.',
            'To show delivery and read reports and the cost of each send.',
            'To run your prepaid wallet: add credits after payment, deduct credits per message and refund messages that finally fail.',
            'To block accidental duplicate sends, which compares recent messages so that you are not charged twice.',
            'To answer support requests and send service notices such as password-reset codes, payment confirmations and policy changes.',
            'To prevent fraud, spam and abuse of the Service, and to enforce our terms.',
            'To meet legal, tax and accounting obligations.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not sell personal data, we do not use message content for advertising, and we do not train machine-learning models on your message content.',
        },
      ],
    },
    {
      id: 'legal-bases',
      title: 'Legal bases for processing',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Under the DPDP Act we process account data on the basis of your consent, given when you create an account and accept our terms, and for the legitimate uses the Act allows, including processing that you voluntarily provide for a specified purpose and processing needed to comply with law or a court order.',
        },
        {
          kind: 'paragraph',
          text: 'For message content we act on the instructions of the customer, who is responsible for the lawful basis, including the consent or opt-in of each recipient.',
        },
        {
          kind: 'paragraph',
          text: 'Where the EU or UK General Data Protection Regulation applies, we rely on the performance of our contract with you, our legitimate interests in securing and improving the Service, compliance with legal obligations, and, where required, your consent.',
        },
        {
          kind: 'paragraph',
          text: 'You can withdraw consent at any time by writing to us or closing your account. Withdrawal does not affect processing already carried out, and we may keep data we are legally required to keep.',
        },
      ],
    },
    {
      id: 'sharing-and-disclosure',
      title: 'Sharing and disclosure',
      blocks: [
        { kind: 'paragraph', text: 'We share personal data only with those who need it to provide the Service:' },
        {
          kind: 'list',
          items: [
            'Meta Platforms (WhatsApp Business Platform) and, where your account uses one, an authorised WhatsApp Business Solution Provider, to submit templates and deliver messages. Meta processes messages under its own terms and privacy policy.',
            'Our payment processor (Razorpay), to take wallet top-ups. It handles your payment details under its own privacy policy and PCI DSS obligations.',
            'Infrastructure providers that host our servers, databases, backups and e-mail, bound by contract to confidentiality and security.',
            'Professional advisers such as auditors and lawyers, under a duty of confidentiality.',
            'Authorities, when the law requires it or to protect the rights, safety or property of our customers, the public or us.',
            'A successor business, if the Service is transferred, under a commitment to honour this policy.',
          ],
        },
      ],
    },
    {
      id: 'data-retention',
      title: 'Data retention',
      blocks: [
        {
          kind: 'list',
          items: [
            `Message logs (recipient number, template, variable values, statuses and errors): ${LOGS.retentionDays} days, after which a daily clean-up deletes them automatically.`,
            `Password-reset codes: stored only as a hash and valid for ${AUTH.otpTtlMinutes} minutes.`,
            'Account data: while your account is open, and deleted or anonymised within 90 days of closure unless we must keep it longer.',
            'Wallet ledger, payments and invoices: for the periods Indian tax and accounting laws require (typically six to eight years).',
            'Security and system logs: 180 days, as the CERT-In directions under the Information Technology Act require.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Backups are rotated on a schedule, so deleted data may persist in them for a short period before it is overwritten.',
        },
      ],
    },
    {
      id: 'security',
      title: 'Security',
      blocks: [
        {
          kind: 'list',
          items: [
            'Encryption in transit (HTTPS) for the web app, the desktop app and the API.',
            'Passwords hashed with a modern memory-hard algorithm; API keys and reset codes stored only as hashes; provider credentials encrypted at rest.',
            `Sessions in a secure, HTTP-only cookie (or the operating system's keychain in the desktop app), ended after ${sessionMinutes} minutes of inactivity.`,
            'Role-based access: administrators and staff see customer data only when needed to operate or support the Service.',
            'Rate limits and login-attempt limits against automated abuse.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'No system is perfectly secure. If a personal data breach affects you, we will inform you and the Data Protection Board of India as the DPDP Act requires, and report cyber-security incidents to CERT-In within the time it prescribes.',
        },
      ],
    },
    {
      id: 'your-rights',
      title: 'Your rights and choices',
      blocks: [
        { kind: 'paragraph', text: 'Subject to the law that applies to you, you can:' },
        {
          kind: 'list',
          items: [
            'get a summary of the personal data we process about you and of the processing;',
            'correct, complete or update inaccurate data (most account details can be edited from your profile);',
            'ask us to erase data we no longer need, or close your account;',
            'withdraw consent you have given;',
            'nominate another person to exercise your rights in the event of death or incapacity (DPDP Act);',
            'have a grievance addressed by our Grievance Officer, and then complain to the Data Protection Board of India;',
            'where the GDPR applies, also object to or restrict processing, ask for data portability and complain to your supervisory authority.',
          ],
        },
        {
          kind: 'paragraph',
          text: `Write to ${mailboxes.privacy} from the e-mail address on your account. We may need to verify your identity and will reply within 30 days. Requests about message content are forwarded to the business that sent the message.`,
        },
      ],
    },
    {
      id: 'childrens-privacy',
      title: "Children's privacy",
      blocks: [
        {
          kind: 'paragraph',
          text: `The Service is built for businesses. It is not directed at children under ${POLICY.minimumUserAge}, and we do not knowingly collect their personal data. Account holders must be adults (18 or older), the age below which the DPDP Act treats a person as a child.`,
        },
        {
          kind: 'paragraph',
          text: `If you believe a child has given us personal data, write to ${mailboxes.privacy} and we will delete it. Customers must not use the Service to target marketing messages at children.`,
        },
      ],
    },
    {
      id: 'international-transfers',
      title: 'International transfers',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Account and message data are stored with our infrastructure providers where the Service is hosted. Messages travel through the WhatsApp Business Platform, which Meta operates on infrastructure in several countries, so message data may be processed outside India.',
        },
        {
          kind: 'paragraph',
          text: 'We transfer personal data only to countries not restricted by the Government of India under section 16 of the DPDP Act, and with contractual safeguards. For data subject to the GDPR we rely on adequacy decisions or standard contractual clauses.',
        },
      ],
    },
    {
      id: 'cookies',
      title: 'Cookies and local storage',
      blocks: [
        {
          kind: 'list',
          items: [
            'A strictly necessary session cookie keeps you signed in. It is HTTP-only and cannot be read by scripts.',
            'Your browser\'s local storage keeps a summary of your profile, so that pages load quickly, and your light or dark theme preference. Signing out clears the stored profile.',
            'The payment window of our payment processor may set its own cookies to prevent fraud.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not use advertising cookies or third-party tracking. Blocking the session cookie will stop you from signing in.',
        },
      ],
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We update this policy when the Service or the law changes. The date at the top shows the latest version. For material changes we will tell you by e-mail or in the dashboard before they take effect, and ask for fresh consent where the law requires it.',
        },
      ],
    },
    {
      id: 'contact',
      title: 'Contact us',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Each mailbox below is read by the person responsible for it. Please include your username, and never send passwords or API keys by e-mail.',
        },
        {
          kind: 'contacts',
          entries: [
            { label: 'Privacy questions and requests', value: mailboxes.privacy, href: `mailto:${mailboxes.privacy}` },
            {
              label: 'Data Protection Officer',
              value: mailboxes.dataProtectionOfficer,
              href: `mailto:${mailboxes.dataProtectionOfficer}`,
            },
            { label: 'Grievance Officer', value: mailboxes.grievanceOfficer, href: `mailto:${mailboxes.grievanceOfficer}` },
            { label: 'General support', value: support.email, href: `mailto:${support.email}` },
            { label: 'Phone', value: support.phone, href: telHref(support.phone) },
            { label: 'Postal address', value: support.address },
          ],
        },
        {
          kind: 'paragraph',
          text: 'The Grievance Officer acknowledges complaints within 24 hours and aims to resolve them within 15 days. If you are not satisfied with the outcome, you may approach the Data Protection Board of India.',
        },
      ],
    },
  ];
}

export interface AddendumEntry {
  region: string;
  blocks: readonly LegalBlock[];
}

/** Region-specific additions to the main policy. */
export function buildPrivacyAddendum({ brandName }: LegalContext): AddendumEntry[] {
  return [
    {
      region: 'India',
      blocks: [
        {
          kind: 'paragraph',
          text: `${brandName} processes personal data under the Digital Personal Data Protection Act, 2023 and the rules made under it, the Information Technology Act, 2000 and, until they are superseded, the Information Technology (Reasonable Security Practices and Procedures and Sensitive Personal Data or Information) Rules, 2011. Disputes are subject to the courts at ${LEGAL_ENTITY.jurisdiction}.`,
        },
      ],
    },
    {
      region: 'European Economic Area, United Kingdom and Switzerland',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Where the GDPR, UK GDPR or the Swiss FADP applies, the additional rights in section 9 apply, transfers rely on the safeguards in section 11, and you may complain to the data protection authority where you live or work.',
        },
      ],
    },
    {
      region: 'Other regions',
      blocks: [
        {
          kind: 'paragraph',
          text: 'If local law gives you further rights, such as US state privacy laws, we honour them. We do not sell personal information or share it for cross-context behavioural advertising.',
        },
      ],
    },
  ];
}

/** How the product itself handles data, in plain terms. */
export function buildPrivacyProductNotes({ brandName }: LegalContext): LegalBlock[] {
  return [
    {
      kind: 'list',
      items: [
        `Recipient consent: WhatsApp requires opt-in before a business messages someone. You must collect and record that opt-in and honour opt-outs; ${brandName} does not supply contact lists.`,
        'Spreadsheets: files you upload to personalise messages are used only to read recipients and variable values for the send you are preparing. The desktop app reads large spreadsheets on your own computer.',
        `Reports: delivery and read reports, and CSV or Excel exports of them, cover the same ${LOGS.retentionDays}-day window as the message logs. Export what you need to keep for longer.`,
        'API keys: the full key is shown once when it is created; afterwards we keep only a hash and show its prefix.',
        'Password resets: reset codes are sent as a WhatsApp message to the phone number on your account.',
        'Desktop app: your session is kept in your operating system\'s keychain rather than in a file.',
      ],
    },
  ];
}
