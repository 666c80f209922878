import { BookOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { CLAIMS, PHONE_EXAMPLE, PUBLIC_API } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { BATCH_PATH, DEFAULT_RATE_LIMIT_LABEL, SEND_PATH } from '../../lib/apiConsole';
import { CodeBlock } from '../public/CodeBlock';
import { ApiReference } from './ApiReference';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card';
import { SimpleTable } from '../ui/simple-table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';

const api = messages.publicApi;
const RATE_LIMIT_TEXT = `${PUBLIC_API.rateLimitRequests} requests per ${PUBLIC_API.rateLimitWindowMinutes} minutes per IP address`;

function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.8rem] text-slate-800 dark:bg-slate-800 dark:text-slate-200">{children}</code>;
}

function Heading({ children }: { children: ReactNode }) {
  return <h4 className="text-base font-semibold text-slate-900 dark:text-white">{children}</h4>;
}


const SEND_FIELDS: readonly [string, string, string][] = [
  ['username', 'Yes', 'Your username; it must be the owner of the API key.'],
  ['templatename', 'Yes', 'The name of one of your approved templates.'],
  ['recipient_number', 'Yes', `Country code and number (e.g. ${PHONE_EXAMPLE}). A 10-digit Indian mobile without 91 gets 91; a leading 0, +91 or 0091 is dropped.`],
  ['var1, var2, …', 'Per template', 'Values of the body variables, in order: var1 fills the body\'s first variable.'],
  ['header_var1, …', 'Per template', 'Values of the header text variables, in order (a header {{1}} is not the body\'s {{1}}).'],
  ['button_{index}_url', 'Per template', 'The variable part of a Website button URL; index counts buttons from 0. It never fills the body.'],
  ['language', 'No', 'Template language (e.g. en_US), when the same name exists in several languages.'],
];

const SEND_REQUEST = {
  username: 'your_username',
  templatename: 'order_update',
  recipient_number: PHONE_EXAMPLE,
  var1: 'Asha',
  var2: 'ORD-4521',
  button_0_url: 'ORD-4521',
};

const SEND_RESPONSE = { success: true, message_id: 'msg_1289', message: api.sent, campaign_id: 1289, status: 'queued', charged: true };

/** A repeat within the Duplicate Blocked window: stored, not sent, not charged. */
const DUPLICATE_RESPONSE = { success: true, message_id: 'msg_1290', message: api.duplicateBlocked, campaign_id: 1290, status: 'duplicate', charged: false };

const BATCH_REQUEST = {
  username: 'your_username',
  templatename: 'order_update',
  language: 'en_US',
  messages: [
    { recipient_number: PHONE_EXAMPLE, var1: 'Asha', var2: 'ORD-4521' },
    { recipient_number: '919812345678', var1: 'Ravi', var2: 'ORD-4522' },
  ],
};

const BATCH_RESPONSE = {
  success: true,
  data: {
    campaignId: 1290,
    accepted: 2,
    duplicates: 0,
    invalid: 1,
    suppressed: 0,
    totalCost: 0.3,
    skippedCount: 1,
    skippedRows: [{ row: 3, value: '12345', reason: 'invalid_number', message: 'Invalid number: Too short: a number with its country code has at least 8 digits' }],
  },
};

/** Spec 002 §8 "API documentation codes", with the wallet's 402 that the send API also answers. */
const ERROR_CODES: readonly [number, string, string][] = [
  [200, 'Sent', 'The message was accepted for delivery; the body carries message_id, our own id of the message (msg_…), not WhatsApp\'s wamid.'],
  [400, 'Bad Request', 'Missing or invalid parameters (for example a required field, an unknown template or a malformed number).'],
  [401, 'Unauthorized', 'Invalid username credentials: the API key is missing, wrong or revoked, or the username is not its owner.'],
  [402, 'Payment Required', 'Insufficient balance: top up your wallet and retry.'],
  [429, 'Too Many Requests', `Too many requests (${PUBLIC_API.rateLimitRequests} per ${PUBLIC_API.rateLimitWindowMinutes} minutes). Wait for Retry-After seconds.`],
];

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The four documentation tabs of API Management (spec 002 "API Management"). */
export function ApiDocsTabs({ baseUrl }: { baseUrl: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BookOpen className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          API Documentation
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="overview">
          <TabsList aria-label="API documentation" className="h-auto flex-wrap">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
            <TabsTrigger value="examples">Examples</TabsTrigger>
            <TabsTrigger value="errors">Error Codes</TabsTrigger>
            <TabsTrigger value="reference">Reference</TabsTrigger>
          </TabsList>

          <TabsContent value="reference" className="flex flex-col gap-4 text-sm leading-6 text-slate-700 dark:text-slate-300">
            <ApiReference baseUrl={baseUrl} />
          </TabsContent>

          <TabsContent value="overview" className="flex flex-col gap-4 text-sm leading-6 text-slate-700 dark:text-slate-300">
            <div>
              <Heading>Base URL</Heading>
              <p className="mt-1">
                <Code>{baseUrl}</Code>. Requests and responses are JSON (<Code>Content-Type: application/json</Code>).
              </p>
            </div>
            <div>
              <Heading>Authentication</Heading>
              <p className="mt-1">
                Create a key in API Keys above and send it as <Code>Authorization: Bearer &lt;key&gt;</Code> or as{' '}
                <Code>X-API-Key: &lt;key&gt;</Code>. The body&apos;s <Code>username</Code> must be the key owner&apos;s. A key is shown once; we keep
                only a hash and its first characters, so a lost key is revoked and replaced, never recovered.
              </p>
            </div>
            <div>
              <Heading>Rate limits</Heading>
              <p className="mt-1">
                {RATE_LIMIT_TEXT} ({DEFAULT_RATE_LIMIT_LABEL}). When our team raises the limit of one of your keys, that key&apos;s requests are
                counted against the key itself, with its own limit, wherever they come from. Every answer carries{' '}
                <Code>X-RateLimit-Limit</Code>, <Code>X-RateLimit-Remaining</Code> and <Code>X-RateLimit-Reset</Code> (Unix time, seconds); a{' '}
                <Code>429</Code> also says <Code>Retry-After</Code> in seconds.
              </p>
            </div>
            <div>
              <Heading>Charges and availability</Heading>
              <p className="mt-1">
                Each accepted message is charged from your wallet at the price of its template&apos;s category, as in the app. Target uptime{' '}
                {CLAIMS.uptimePercent}%. Use a request timeout of {PUBLIC_API.sampleTimeoutSeconds} seconds.
              </p>
            </div>
          </TabsContent>

          <TabsContent value="endpoints" className="flex flex-col gap-4 text-sm leading-6 text-slate-700 dark:text-slate-300">
            <div>
              <Heading>
                <Code>POST {SEND_PATH}</Code> — send one message
              </Heading>
              <p className="mt-1">
                Answers <Code>200</Code> with <Code>success</Code>, <Code>message_id</Code>, <Code>message</Code> (&quot;{api.sent}&quot;) and{' '}
                <Code>campaign_id</Code>.
              </p>
            </div>
            <SimpleTable
              label={`Fields of POST ${SEND_PATH}`}
              head={['Field', 'Required', 'Description']}
              rows={SEND_FIELDS.map(([field, required, description]) => [<Code key="field">{field}</Code>, required, description])}
            />
            <div>
              <Heading>
                <Code>POST {BATCH_PATH}</Code> — send one template to many recipients
              </Heading>
              <p className="mt-1">
                Body: <Code>username</Code>, <Code>templatename</Code>, optional <Code>language</Code> and <Code>messages</Code>, a list of{' '}
                <Code>{'{ recipient_number, var1, …, button_{index}_url }'}</Code> ({api.batchTooLarge.toLowerCase()}). It answers{' '}
                <Code>success</Code> and <Code>data</Code> with <Code>campaignId</Code>, <Code>accepted</Code>, <Code>duplicates</Code>,{' '}
                <Code>invalid</Code>, <Code>totalCost</Code> (rupees), and <Code>skippedRows</Code>: every row not sent with its <Code>row</Code>{' '}
                (from 1), <Code>value</Code>, <Code>reason</Code> (invalid_number, duplicate_in_list, duplicate_blocked, opted_out) and{' '}
                <Code>message</Code>. A row is a repeat (duplicate_in_list, counted in <Code>repeats</Code>) only when its number and every value match an
                earlier row: two orders to one number are two messages. One batch counts as one request for the rate limit.
              </p>
            </div>
          </TabsContent>

          <TabsContent value="examples" className="flex flex-col gap-4">
            <CodeBlock label={`POST ${SEND_PATH} request body`} code={json(SEND_REQUEST)} />
            <CodeBlock label="200 response" code={json(SEND_RESPONSE)} />
            <CodeBlock label="200 response: Duplicate Blocked (not charged)" code={json(DUPLICATE_RESPONSE)} />
            <CodeBlock label="401 response" code={json({ success: false, error: api.invalidCredentials, code: 'invalid_api_key' })} />
            <CodeBlock
              label="429 response"
              code={json({ success: false, error: fillMessage(api.tooManyRequestsLimit, { limit: PUBLIC_API.rateLimitRequests }), code: 'rate_limited' })}
            />
            <CodeBlock label={`POST ${BATCH_PATH} request body`} code={json(BATCH_REQUEST)} />
            <CodeBlock label="Batch response" code={json(BATCH_RESPONSE)} />
          </TabsContent>

          <TabsContent value="errors" className="flex flex-col gap-3 text-sm leading-6 text-slate-700 dark:text-slate-300">
            <SimpleTable
              label="API status codes"
              head={['Status', 'Meaning', 'When']}
              rows={ERROR_CODES.map(([status, meaning, detail]) => [<strong key="status">{status}</strong>, meaning, detail])}
            />
            <p>
              Errors answer <Code>{'{ "success": false, "error": "…", "code": "…" }'}</Code>: show <Code>error</Code> to people, branch on{' '}
              <Code>code</Code> in code.
            </p>
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
