import { Fragment, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import * as Collapsible from '@radix-ui/react-collapsible';
import * as Tabs from '@radix-ui/react-tabs';
import {
  BookOpen,
  ChevronDown,
  CircleCheck,
  Code,
  FileText,
  LifeBuoy,
  Package,
  Rocket,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '../../lib/cn';
import { LOGS, PHONE_EXAMPLE, PUBLIC_API, SENDING, TEMPLATE_LIMITS, TOPUP } from '@shared/constants';
import { formatRupees } from '@shared/money';
import { messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { WEBHOOK_VERIFY_SAMPLES } from '@shared/webhookSamples';
import { ApiReference } from '../../components/apiManagement/ApiReference';
import { CodeBlock } from '../../components/public/CodeBlock';
import { SimpleTable } from '../../components/ui/simple-table';
import { FaqAccordion } from '../../components/public/FaqAccordion';
import { PublicLayout, publicStyles } from '../../components/public/PublicLayout';
import { telHref } from './content/common';
import {
  RATE_LIMIT_TEXT,
  REPORTS_ENDPOINT,
  REPORT_QUERY_PARAMS,
  SAMPLE_LANGUAGES,
  SEND_ENDPOINT,
  SEND_EXAMPLE_RESPONSE,
  MESSAGE_ENDPOINT,
  MESSAGES_ENDPOINT,
  WEBHOOK_ENDPOINTS_ENDPOINT,
  SEND_FIELDS,
  STATUS_CODES,
  WEBHOOK_ENDPOINT,
  apiOrigin,
  buildDocsFaq,
  buildSendSamples,
} from './content/docs';

const text = messages.publicSite;

/** Report row fields (spec 002 §3). */
const REPORT_ROW_FIELDS = [
  'id',
  'template_used',
  'recipient_number',
  'status',
  'delivered_at',
  'read_at',
  'error_message',
] as const;

function SubHeading({ children }: { children: ReactNode }): React.JSX.Element {
  return <h3 className="text-base font-semibold text-slate-900 dark:text-white">{children}</h3>;
}

function InlineCode({ children }: { children: ReactNode }): React.JSX.Element {
  return (
    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.85em] text-slate-800 dark:bg-slate-800 dark:text-slate-100">
      {children}
    </code>
  );
}

function Prose({ children }: { children: ReactNode }): React.JSX.Element {
  return <div className="space-y-5 text-[0.95rem] leading-7 text-slate-700 dark:text-slate-300">{children}</div>;
}


function CodeSamples({ samples }: { samples: Record<(typeof SAMPLE_LANGUAGES)[number]['id'], string> }) {
  return (
    <Tabs.Root defaultValue="curl">
      <Tabs.List aria-label="Code sample language" className="flex flex-wrap gap-1">
        {SAMPLE_LANGUAGES.map((language) => (
          <Tabs.Trigger
            key={language.id}
            value={language.id}
            className={cn(
              'rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
              'data-[state=active]:bg-emerald-700 data-[state=active]:text-white dark:data-[state=active]:bg-emerald-500 dark:data-[state=active]:text-slate-950',
              publicStyles.focusRing,
            )}
          >
            {language.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {SAMPLE_LANGUAGES.map((language) => (
        <Tabs.Content key={language.id} value={language.id} className="mt-3 focus-visible:outline-none">
          <CodeBlock code={samples[language.id]} label={language.label} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

function QuickStartGuide(): React.JSX.Element {
  const steps: { title: string; body: ReactNode }[] = [
    {
      title: 'Create your account',
      body: (
        <>
          <Link to="/signup" className={publicStyles.textLink}>
            Sign up
          </Link>{' '}
          with your name, e-mail and a username. Add your WhatsApp number with the country code (for example{' '}
          <InlineCode>{PHONE_EXAMPLE}</InlineCode>) so that password-reset codes can reach you.
        </>
      ),
    },
    {
      title: 'Top up your wallet',
      body: (
        <>
          Open <strong>Wallet</strong> and add credits by UPI, card, net banking or wallet. One credit is ₹1; a top-up can be
          between {formatRupees(TOPUP.minRupees, 0)} and {formatRupees(TOPUP.maxRupees, 0)}. Credits are added as soon as
          the payment is confirmed.
        </>
      ),
    },
    {
      title: 'Create a template',
      body: (
        <>
          In <strong>Templates</strong>, build the message: header, body with variables such as{' '}
          <InlineCode>{'{{1}}'}</InlineCode>, footer and buttons. Submit it; once it is approved it can be sent.
        </>
      ),
    },
    {
      title: 'Send your first campaign',
      body: (
        <>
          Use <strong>WhatsApp Quick Send</strong> to paste or import numbers, or <strong>Customize Message</strong> to fill
          variables from spreadsheet columns. The cost is shown before you confirm; lists of more than{' '}
          {SENDING.bulkThreshold} recipients go through bulk delivery.
        </>
      ),
    },
    {
      title: 'Track delivery',
      body: (
        <>
          <strong>Manage Reports</strong> shows each message as sent, delivered, read or failed, with filters and CSV or
          Excel export. Logs are kept for {LOGS.retentionDays} days.
        </>
      ),
    },
    {
      title: 'Automate with the API',
      body: (
        <>
          Create an API key in <strong>API Management</strong>, try a request in its console, then call{' '}
          <InlineCode>POST {SEND_ENDPOINT}</InlineCode> from your own systems.
        </>
      ),
    },
  ];

  return (
    <Prose>
      <ol className="space-y-4">
        {steps.map((step, index) => (
          <li key={step.title} className="flex gap-4">
            <span
              className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-sm font-bold text-emerald-700 dark:bg-emerald-950 dark:text-emerald-400"
              aria-hidden="true"
            >
              {index + 1}
            </span>
            <div>
              <SubHeading>{step.title}</SubHeading>
              <p className="mt-1">{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
    </Prose>
  );
}

function ApiReferenceGuide({ origin }: { origin: string }): React.JSX.Element {
  const samples = useMemo(() => buildSendSamples(origin), [origin]);
  return (
    <Prose>
      <div>
        <SubHeading>Send a template message</SubHeading>
        <p className="mt-1">
          <InlineCode>
            POST {origin}
            {SEND_ENDPOINT}
          </InlineCode>{' '}
          with a JSON body. Authenticate with the API key from API Management, as{' '}
          <InlineCode>Authorization: Bearer &lt;API key&gt;</InlineCode> (or the <InlineCode>X-API-Key</InlineCode>{' '}
          header). Keep the key on your server; never put it in a web page or app.
        </p>
      </div>
      <SimpleTable
        head={['Field', 'Required', 'Description']}
        rows={SEND_FIELDS.map((field) => [
          <InlineCode key="name">{field.name}</InlineCode>,
          field.required ? 'Yes' : 'No',
          field.description,
        ])}
      />
      <CodeSamples samples={samples} />
      <div>
        <SubHeading>Response</SubHeading>
        <p className="mt-1">
          A successful call answers <InlineCode>200</InlineCode> with the message id; errors answer with an{' '}
          <InlineCode>error</InlineCode> text and a stable <InlineCode>code</InlineCode>.
        </p>
      </div>
      <CodeBlock code={JSON.stringify(SEND_EXAMPLE_RESPONSE, null, 2)} label="Example response" />
      <SimpleTable
        head={['Status', 'Meaning', 'When']}
        rows={STATUS_CODES.map((status) => [<strong key="code">{status.code}</strong>, status.meaning, status.detail])}
      />
      <div>
        <SubHeading>Rate limit</SubHeading>
        <p className="mt-1">
          {RATE_LIMIT_TEXT}. Requests over the limit answer <InlineCode>429</InlineCode> until the{' '}
          {PUBLIC_API.rateLimitWindowMinutes}-minute window moves on. Each accepted message is charged from your wallet at
          its template category&apos;s rate.
        </p>
      </div>
      <div>
        <SubHeading>Delivery reports</SubHeading>
        <p className="mt-1">
          <InlineCode>GET {REPORTS_ENDPOINT}</InlineCode> lists your messages with their status, as the Manage Reports
          screen shows them. It answers <InlineCode>data.reports</InlineCode> (rows with{' '}
          {REPORT_ROW_FIELDS.map((field, index) => (
            <Fragment key={field}>
              {index > 0 && ', '}
              <InlineCode>{field}</InlineCode>
            </Fragment>
          ))}
          ) and <InlineCode>data.total</InlineCode>. Add{' '}
          <InlineCode>export=csv</InlineCode> or <InlineCode>export=excel</InlineCode> for a file.
        </p>
        <p className="mt-1">
          This call takes your API key (as <InlineCode>X-API-Key</InlineCode> or <InlineCode>Authorization: Bearer</InlineCode>)
          or a signed-in session. For one message, <InlineCode>GET {MESSAGE_ENDPOINT}</InlineCode> answers its status by
          the <InlineCode>message_id</InlineCode> the send answered (<InlineCode>msg_&lt;id&gt;</InlineCode>);{' '}
          <InlineCode>GET {MESSAGES_ENDPOINT}?campaign_id=&amp;status=&amp;cursor=</InlineCode> pages them 100 at a time
          (pass <InlineCode>next_cursor</InlineCode> as <InlineCode>cursor</InlineCode>).
        </p>
      </div>
      <SimpleTable
        head={['Query parameter', 'Description']}
        rows={REPORT_QUERY_PARAMS.map((param) => [<InlineCode key="name">{param.name}</InlineCode>, param.description])}
      />
      <div>
        <SubHeading>Webhooks</SubHeading>
        <p className="mt-1">
          Add an endpoint on API Management or with <InlineCode>POST {WEBHOOK_ENDPOINTS_ENDPOINT}</InlineCode>{' '}
          (<InlineCode>url</InlineCode>, <InlineCode>events</InlineCode>, optional <InlineCode>description</InlineCode> and{' '}
          <InlineCode>batch</InlineCode>); its signing secret is answered once. Each delivery is a <InlineCode>POST</InlineCode> of{' '}
          <InlineCode>{'{ id, type, created_at, data }'}</InlineCode> (an array of up to 100 with <InlineCode>batch</InlineCode>), where a
          message event&apos;s <InlineCode>data</InlineCode> is the message as <InlineCode>GET {MESSAGE_ENDPOINT}</InlineCode> answers it. Answer
          any <InlineCode>2xx</InlineCode> within 10 seconds; other answers are retried with growing waits for 24 hours, at least once, so
          skip an event whose <InlineCode>Sandesh-Event-Id</InlineCode> you have seen.
        </p>
        <p className="mt-1">
          Verify <InlineCode>Sandesh-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</InlineCode>: the HMAC-SHA256 of{' '}
          <InlineCode>&lt;t&gt;.&lt;raw body&gt;</InlineCode> with the secret.
        </p>
      </div>
      {WEBHOOK_VERIFY_SAMPLES.map((sample) => (
        <CodeBlock key={sample.label} code={sample.code} label={sample.label} />
      ))}
      <div>
        <SubHeading>Full reference</SubHeading>
        <ApiReference baseUrl={origin} />
      </div>
    </Prose>
  );
}

function TemplatesGuide(): React.JSX.Element {
  return (
    <Prose>
      <div>
        <SubHeading>Categories</SubHeading>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>
            <strong>Utility</strong>: transactional updates the recipient expects, such as order or appointment updates.
          </li>
          <li>
            <strong>Marketing</strong>: promotions, offers and announcements.
          </li>
          <li>
            <strong>Authentication</strong>: one-time passcodes, with a Copy Code button and a code expiry of{' '}
            {TEMPLATE_LIMITS.codeExpiryMinutesMin} to {TEMPLATE_LIMITS.codeExpiryMinutesMax} minutes (default{' '}
            {TEMPLATE_LIMITS.codeExpiryMinutesDefault}).
          </li>
        </ul>
        <p className="mt-2">The category decides the price of each message, so choose the one that matches the content.</p>
      </div>
      <div>
        <SubHeading>Parts and limits</SubHeading>
        <SimpleTable
          head={['Part', 'Rules']}
          rows={[
            [
              'Name',
              `Up to ${TEMPLATE_LIMITS.nameMax} characters: lowercase letters, digits and underscores, unique per language.`,
            ],
            [
              'Header (optional)',
              `Text up to ${TEMPLATE_LIMITS.headerTextMax} characters, or media: image or document up to ${TEMPLATE_LIMITS.headerImageMaxMb} MB, video up to ${TEMPLATE_LIMITS.headerVideoMaxMb} MB.`,
            ],
            ['Body', 'The message itself, with variables {{1}}, {{2}}, … and an example value for each.'],
            ['Footer (optional)', `Up to ${TEMPLATE_LIMITS.footerTextMax} characters, no variables.`],
            [
              'Buttons (optional)',
              `Up to ${TEMPLATE_LIMITS.buttonsMax}, text up to ${TEMPLATE_LIMITS.buttonTextMax} characters: Quick Reply, Website (URL), Phone Call, or Copy Code for authentication templates.`,
            ],
          ]}
        />
      </div>
      <div>
        <SubHeading>Variables</SubHeading>
        <p className="mt-1">
          Write <InlineCode>{'Hi {{1}}, your order {{2}} has shipped.'}</InlineCode> and fill the values per recipient: from
          spreadsheet columns in Customize Message, or as <InlineCode>var1</InlineCode>, <InlineCode>var2</InlineCode> in the
          API. A Website button URL ending in <InlineCode>{'{{1}}'}</InlineCode> takes its value from{' '}
          <InlineCode>button_0_url</InlineCode> for the first button.
        </p>
      </div>
      <div>
        <SubHeading>Review and status</SubHeading>
        <ol className="mt-2 list-decimal space-y-1 pl-6">
          <li>
            <strong>Draft</strong>: saved but not submitted; you can edit it.
          </li>
          <li>
            <strong>Pending</strong>: submitted for review.
          </li>
          <li>
            <strong>Approved</strong>: ready to send. <strong>Rejected</strong> templates show the reason; editing one
            returns it to Draft so that you can submit again.
          </li>
          <li>
            WhatsApp may later <strong>pause</strong> or <strong>disable</strong> a template with poor quality feedback.
          </li>
        </ol>
      </div>
      <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200">
        Tips for approval: give realistic example values, keep variables out of the very start and end of the body, avoid
        promotional wording in utility templates, and never ask for passwords or full card numbers.
      </p>
    </Prose>
  );
}

function WebhookGuide({ origin }: { origin: string }): React.JSX.Element {
  const webhookUrl = `${origin}${WEBHOOK_ENDPOINT}`;
  return (
    <Prose>
      <p>
        Delivery and read receipts reach the platform through a webhook from the WhatsApp Business Platform. The sandbox
        number needs no setup; for your own WhatsApp Business number, your administrator connects it once:
      </p>
      <CodeBlock code={webhookUrl} label="Callback URL" />
      <ol className="list-decimal space-y-2 pl-6">
        <li>
          In the admin area, open the user&apos;s <strong>WhatsApp Business settings</strong> and copy the read-only
          webhook URL shown there (it ends in <InlineCode>{WEBHOOK_ENDPOINT}</InlineCode>).
        </li>
        <li>
          In the Meta App Dashboard, under WhatsApp → Configuration, paste it as the <strong>Callback URL</strong> and enter
          the same <strong>verify token</strong> as in the settings. Meta checks it with a{' '}
          <InlineCode>GET</InlineCode> request carrying <InlineCode>hub.challenge</InlineCode>.
        </li>
        <li>
          Subscribe to the <InlineCode>messages</InlineCode> field (message statuses) and{' '}
          <InlineCode>message_template_status_update</InlineCode> (template approvals).
        </li>
        <li>
          Save the app secret in the settings: every event is checked against its{' '}
          <InlineCode>X-Hub-Signature-256</InlineCode> signature and unsigned events are refused.
        </li>
      </ol>
      <div>
        <SubHeading>What you will see</SubHeading>
        <p className="mt-1">
          Statuses only move forward: <strong>sent</strong> → <strong>delivered</strong> → <strong>read</strong>, or{' '}
          <strong>failed</strong> with WhatsApp&apos;s error code. A late receipt never moves a message backwards, and a
          repeated one is ignored. Failed messages are credited back to the wallet.
        </p>
      </div>
    </Prose>
  );
}

function SdkGuide({ origin }: { origin: string }): React.JSX.Element {
  const samples = useMemo(() => buildSendSamples(origin), [origin]);
  return (
    <Prose>
      <p>
        The API is plain HTTPS and JSON, so there is nothing to install: the standard HTTP client of your language is
        enough. These copy-ready snippets send one template message; set <InlineCode>API_KEY</InlineCode> in your
        environment first.
      </p>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <strong>JavaScript</strong>: built-in <InlineCode>fetch</InlineCode> (Node 18 or newer).
        </li>
        <li>
          <strong>Python</strong>: the <InlineCode>requests</InlineCode> package, with a {PUBLIC_API.sampleTimeoutSeconds}
          -second timeout.
        </li>
        <li>
          <strong>PHP</strong>: the bundled cURL extension.
        </li>
      </ul>
      <CodeSamples samples={samples} />
      <p>
        Retry only on <InlineCode>429</InlineCode> or network errors, after a pause; a <InlineCode>400</InlineCode> or{' '}
        <InlineCode>401</InlineCode> will fail the same way again.
      </p>
    </Prose>
  );
}

function SupportGuide(): React.JSX.Element {
  const { support } = usePublicConfig();
  const faq = useMemo(() => buildDocsFaq(), []);
  return (
    <Prose>
      <FaqAccordion items={faq} headingLevel={3} />
      <div className="flex flex-col gap-2 rounded-xl bg-slate-50 p-4 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6 dark:bg-slate-800/50">
        <span className="font-medium text-slate-900 dark:text-white">Still stuck?</span>
        <a href={`mailto:${support.email}`} className={publicStyles.textLink}>
          {support.email}
        </a>
        <a href={telHref(support.phone)} className={publicStyles.textLink}>
          {support.phone}
        </a>
        <Link to="/contact" className={publicStyles.textLink}>
          {text.contact}
        </Link>
        <span className="text-sm text-slate-500 dark:text-slate-400">{text.supportReplyTime}</span>
      </div>
    </Prose>
  );
}

interface DocCardProps {
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  badges?: readonly string[];
  actionLabel: string;
  children: ReactNode;
}

/** A documentation card whose button opens its guide in place, across the full grid width. */
function DocCard({ id, icon: Icon, title, description, badges, actionLabel, children }: DocCardProps) {
  const [open, setOpen] = useState(false);
  const cardRef = useRef<HTMLDivElement>(null);

  const handleOpenChange = (next: boolean) => {
    setOpen(next);
    // A card that opens moves to a full-width row, which can push it out of view.
    if (next) requestAnimationFrame(() => cardRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' }));
  };

  return (
    <Collapsible.Root
      open={open}
      onOpenChange={handleOpenChange}
      asChild
    >
      <section
        ref={cardRef}
        id={id}
        aria-labelledby={`${id}-title`}
        className={cn(
          'flex min-w-0 scroll-mt-24 flex-col rounded-2xl border bg-white p-6 shadow-sm transition-shadow dark:bg-slate-900',
          open
            ? 'border-emerald-300 shadow-md md:col-span-2 lg:col-span-3 dark:border-emerald-800'
            : 'border-slate-200 hover:shadow-md dark:border-slate-800',
        )}
      >
        <div className={cn('flex flex-1 flex-col', open && 'md:flex-row md:items-start md:gap-6')}>
          <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-400">
            <Icon className="h-5 w-5" aria-hidden="true" />
          </span>
          <div className={cn('mt-4 flex flex-1 flex-col', open && 'md:mt-0')}>
            <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900 dark:text-white">
              {title}
            </h2>
            <p className="mt-1 flex-1 text-sm leading-6 text-slate-600 dark:text-slate-400">{description}</p>
            {badges && (
              <ul className="mt-3 flex flex-wrap gap-2" aria-label="Languages">
                {badges.map((badge) => (
                  <li
                    key={badge}
                    className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                  >
                    {badge}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <Collapsible.Trigger
            className={cn(
              publicStyles.secondaryButton,
              'mt-5 self-start',
              open && 'md:mt-0',
            )}
          >
            {open ? 'Hide' : actionLabel}
            {open && <span className="sr-only"> {title}</span>}
            <ChevronDown
              className={cn('h-4 w-4 transition-transform', open && 'rotate-180')}
              aria-hidden="true"
            />
          </Collapsible.Trigger>
        </div>
        <Collapsible.Content className="mt-6 border-t border-slate-200 pt-6 dark:border-slate-800">
          {children}
        </Collapsible.Content>
      </section>
    </Collapsible.Root>
  );
}

export function DocsPage(): React.JSX.Element {
  const { brandName } = usePublicConfig();
  const origin = apiOrigin(typeof window === 'undefined' ? undefined : window.location);
  // The docs describe the running product, so they are current as of today by construction.
  const today = new Date();
  const todayLabel = today.toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });
  const todayIso = [today.getFullYear(), today.getMonth() + 1, today.getDate()]
    .map((part) => String(part).padStart(2, '0'))
    .join('-');

  return (
    <PublicLayout>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8 lg:py-16">
        <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
          <div className="max-w-2xl">
            <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-emerald-700 dark:text-emerald-400">
              <BookOpen className="h-4 w-4" aria-hidden="true" />
              {text.docs}
            </p>
            <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {brandName} documentation
            </h1>
            <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">
              Everything you need to send WhatsApp template messages: from your first campaign to a full API integration.
            </p>
          </div>
          <p
            className="inline-flex items-center gap-2 self-start rounded-full border border-emerald-200 bg-emerald-50 px-3 py-1.5 text-sm text-emerald-800 md:self-auto dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-300"
          >
            <CircleCheck className="h-4 w-4" aria-hidden="true" />
            <span className="font-semibold">{text.upToDate}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={todayIso}>{todayLabel}</time>
          </p>
        </div>

        <div className="mt-10 grid items-start gap-6 md:grid-cols-2 lg:grid-cols-3">
          <DocCard
            id="quick-start"
            icon={Rocket}
            title={text.docsQuickStart}
            description="Create an account, top up your wallet and send your first approved template in minutes."
            actionLabel="Start the guide"
          >
            <QuickStartGuide />
          </DocCard>
          <DocCard
            id="api-reference"
            icon={Code}
            title={text.docsApiReference}
            description={`The send endpoint, its fields, responses, error codes and the ${PUBLIC_API.rateLimitRequests}/${PUBLIC_API.rateLimitWindowMinutes} min rate limit.`}
            actionLabel="View reference"
          >
            <ApiReferenceGuide origin={origin} />
          </DocCard>
          <DocCard
            id="templates-guide"
            icon={FileText}
            title={text.docsTemplates}
            description="Categories, headers, variables and buttons, and how to get templates approved."
            actionLabel="Read the guide"
          >
            <TemplatesGuide />
          </DocCard>
          <DocCard
            id="webhook-setup"
            icon={Webhook}
            title={text.docsWebhooks}
            description="Connect your WhatsApp Business number so delivery and read receipts flow into your reports."
            actionLabel="Set up webhooks"
          >
            <WebhookGuide origin={origin} />
          </DocCard>
          <DocCard
            id="sdk-libraries"
            icon={Package}
            title={text.docsSdks}
            description="Copy-ready snippets for your stack, using each language's standard HTTP client."
            badges={['JavaScript', 'Python', 'PHP']}
            actionLabel="View snippets"
          >
            <SdkGuide origin={origin} />
          </DocCard>
          <DocCard
            id="support-faq"
            icon={LifeBuoy}
            title={text.docsSupport}
            description="Answers to common questions about credits, delivery, reports and limits, and how to reach us."
            actionLabel="Browse FAQ"
          >
            <SupportGuide />
          </DocCard>
        </div>

        <p className="mt-10 text-sm text-slate-500 dark:text-slate-400">
          New here?{' '}
          <Link to="/signup" className={publicStyles.textLink}>
            {text.getStarted}
          </Link>
        </p>
      </div>
    </PublicLayout>
  );
}
