import { LOGS, PHONE_EXAMPLE, POLICY, PUBLIC_API, SENDING } from '@shared/constants';
import { messages } from '@shared/messages';
import type { LegalSection } from '../../../components/public/LegalDocument';

export const SEND_ENDPOINT = '/api/send';
export const REPORTS_ENDPOINT = '/api/whatsapp/reports';
export const MESSAGE_ENDPOINT = '/api/messages/{messageId}';
export const MESSAGES_ENDPOINT = '/api/messages';
export const WEBHOOK_ENDPOINT = '/api/webhooks/whatsapp';

export const RATE_LIMIT_TEXT = `${PUBLIC_API.rateLimitRequests} requests per ${PUBLIC_API.rateLimitWindowMinutes} minutes per IP address`;

/** Placeholder host for samples when the app is not served over HTTP (the desktop build). */
const PLACEHOLDER_ORIGIN = 'https://your-domain.example';

/** The origin to show in samples: the page's own when it is a web origin. */
export function apiOrigin(location: Pick<Location, 'protocol' | 'origin'> | undefined): string {
  if (location && (location.protocol === 'https:' || location.protocol === 'http:')) return location.origin;
  return PLACEHOLDER_ORIGIN;
}

/** Example body of `POST /api/send`; field names are the public contract (spec 002 §3). */
export const SEND_EXAMPLE_BODY = {
  username: 'your_username',
  templatename: 'order_update',
  recipient_number: PHONE_EXAMPLE,
  var1: 'Asha',
  var2: 'ORD-4521',
  button_0_url: 'ORD-4521',
} as const;

/** What POST /api/send answers: `message_id` is ours, `msg_<id>` (GET /api/messages/{messageId} reads it). */
export const SEND_EXAMPLE_RESPONSE = {
  success: true,
  message_id: 'msg_48213907',
  message: messages.publicApi.sent,
  campaign_id: 1289,
  status: 'queued',
  charged: true,
} as const;

export type SampleLanguage = 'curl' | 'javascript' | 'python' | 'php';

export const SAMPLE_LANGUAGES: readonly { id: SampleLanguage; label: string }[] = [
  { id: 'curl', label: 'cURL' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
  { id: 'php', label: 'PHP' },
];

const bodyJson = JSON.stringify(SEND_EXAMPLE_BODY, null, 2);

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? line : pad + line))
    .join('\n');
}

/** Ready-to-run `POST /api/send` samples for the given origin. */
export function buildSendSamples(origin: string): Record<SampleLanguage, string> {
  const url = `${origin}${SEND_ENDPOINT}`;
  const pythonBody = Object.entries(SEND_EXAMPLE_BODY)
    .map(([key, value]) => `        "${key}": "${value}",`)
    .join('\n');
  const phpBody = Object.entries(SEND_EXAMPLE_BODY)
    .map(([key, value]) => `    '${key}' => '${value}',`)
    .join('\n');

  return {
    curl: `curl -X POST "${url}" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${bodyJson.replace(/\n/g, '\n  ')}'`,

    javascript: `// Node 18+ or any modern browser backend: fetch is built in.
const response = await fetch('${url}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.API_KEY}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify(${indent(bodyJson, 2)}),
});

const result = await response.json();
if (!response.ok) throw new Error(result.error);
console.log('Queued:', result.message_id);`,

    python: `import os
import requests

response = requests.post(
    "${url}",
    headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
    json={
${pythonBody}
    },
    timeout=${PUBLIC_API.sampleTimeoutSeconds},
)
result = response.json()
response.raise_for_status()
print("Queued:", result["message_id"])`,

    php: `<?php
$payload = [
${phpBody}
];

$ch = curl_init('${url}');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_HTTPHEADER => [
        'Authorization: Bearer ' . getenv('API_KEY'),
        'Content-Type: application/json',
    ],
    CURLOPT_POSTFIELDS => json_encode($payload),
]);

$result = json_decode(curl_exec($ch), true);
$status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
curl_close($ch);

echo $status === 200 ? "Queued: {$result['message_id']}" : "Error: {$result['error']}";`,
  };
}

export interface SendField {
  name: string;
  required: boolean;
  description: string;
}

export const SEND_FIELDS: readonly SendField[] = [
  { name: 'username', required: true, description: 'Your username. It must belong to the owner of the API key.' },
  { name: 'templatename', required: true, description: 'Name of one of your approved templates.' },
  {
    name: 'recipient_number',
    required: true,
    description: `Recipient with country code, e.g. ${PHONE_EXAMPLE}. A 10-digit Indian mobile without 91 gets 91; a leading 0, +91 or 0091 is dropped.`,
  },
  { name: 'var1, var2, …', required: false, description: 'Values for the body variables {{1}}, {{2}}, … in order.' },
  { name: 'header_var1, …', required: false, description: 'Values for the header text variables, in order (apart from the body\'s).' },
  {
    name: 'button_0_url, button_1_url, …',
    required: false,
    description: 'The dynamic part of a Website button URL, by button position starting at 0 (apart from the body\'s variables).',
  },
];

export interface StatusCode {
  code: number;
  meaning: string;
  detail: string;
}

export const STATUS_CODES: readonly StatusCode[] = [
  {
    code: 200,
    meaning: 'Sent',
    detail: 'The message was accepted; the body carries message_id, message, status and charged (false for a blocked duplicate or an opted-out number, with its own message).',
  },
  {
    code: 400,
    meaning: 'Bad request',
    detail: 'A required parameter is missing or invalid, for example an unknown template or a malformed number.',
  },
  { code: 401, meaning: 'Unauthorized', detail: 'Invalid username or API key.' },
  { code: 429, meaning: 'Too many requests', detail: `More than ${RATE_LIMIT_TEXT}. Wait and retry.` },
];

export const REPORT_QUERY_PARAMS: readonly { name: string; description: string }[] = [
  { name: 'page, limit', description: 'Paging (50 rows per page in the dashboard).' },
  { name: 'dateFrom, dateTo', description: 'Date range, YYYY-MM-DD.' },
  { name: 'recipientNumber', description: 'One recipient, digits only.' },
  { name: 'template', description: 'Template name.' },
  { name: 'status', description: 'sent, delivered, read, failed, cancelled, duplicate or pending.' },
];

/** The Support & FAQ card's questions. */
export function buildDocsFaq(): LegalSection[] {
  return [
    {
      id: 'faq-credits',
      title: 'How are credits charged?',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Each message costs the rate of its template category (marketing, utility or authentication). The total is shown before you confirm a send and fixed when the message is accepted. Messages that finally fail are credited back.',
        },
      ],
    },
    {
      id: 'faq-duplicate',
      title: 'What does "Duplicate Blocked" mean?',
      blocks: [
        {
          kind: 'paragraph',
          text: 'The same template with the same values was already sent to that recipient from your account in the last 24 hours. The repeat is not sent and not charged, which protects you from double sends.',
        },
      ],
    },
    {
      id: 'faq-failed',
      title: 'Why did a message fail?',
      blocks: [
        {
          kind: 'paragraph',
          text: 'The Error column of Manage Reports shows WhatsApp\'s reason. Common causes: the number is not on WhatsApp, the template was paused or is missing a variable, or the recipient blocked your business.',
        },
      ],
    },
    {
      id: 'faq-bulk',
      title: 'How many recipients can I send to at once?',
      blocks: [
        {
          kind: 'paragraph',
          text: `There is no fixed cap beyond your wallet balance. Sends to more than ${SENDING.bulkThreshold} recipients use optimised bulk delivery; recipient files can be up to ${SENDING.recipientFileMaxMb} MB (.csv, .xlsx or the older .xls).`,
        },
      ],
    },
    {
      id: 'faq-reports',
      title: 'How long are reports kept?',
      blocks: [
        {
          kind: 'paragraph',
          text: `Message logs are kept for ${LOGS.retentionDays} days. Export them as CSV or Excel from Manage Reports if you need them for longer.`,
        },
      ],
    },
    {
      id: 'faq-rate-limit',
      title: 'I am getting 429 errors from the API',
      blocks: [
        {
          kind: 'paragraph',
          text: `The send API allows ${RATE_LIMIT_TEXT}. Spread your requests out, or use the bulk tools in the dashboard for large lists. Contact support if your integration needs a higher limit for its key.`,
        },
      ],
    },
    {
      id: 'faq-support',
      title: 'How quickly does support reply?',
      blocks: [
        {
          kind: 'paragraph',
          text: `Within ${POLICY.supportReplyHoursMin} to ${POLICY.supportReplyHoursMax} hours. Include your username and, for a message, its recipient and time.`,
        },
      ],
    },
  ];
}

export const WEBHOOK_ENDPOINTS_ENDPOINT = '/api/webhook-endpoints';
