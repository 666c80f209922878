import { Lightbulb } from 'lucide-react';
import type { ReactNode } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { TEMPLATE_CATEGORY_LABELS, type TemplateCategory } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import type { CampaignPreviewRow } from '../../lib/sending/quickSend';
import { estimateCost, formatCost, formatPrice, templateDisplayName } from '../../lib/sending/setup';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { LivePreviewCard } from './LivePreviewCard';
import { WhatsAppText } from '../templates/WhatsAppText';

function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium tabular-nums">{children}</dd>
    </div>
  );
}

export function CampaignSummaryCard({
  recipients,
  variablesFilled,
  variablesTotal,
  template,
  pricePerMessage,
}: {
  /** Null while the count is not known on this screen (the Contacts source before its preview). */
  recipients: number | null;
  variablesFilled: number;
  variablesTotal: number;
  template: TTemplate | null;
  pricePerMessage: number;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Campaign Summary</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="campaign-summary">
          <SummaryRow label="Recipients">{recipients === null ? messages.contactScreens.countedOnPreview : formatIndianNumber(recipients)}</SummaryRow>
          <SummaryRow label="Variables">
            {variablesTotal === 0 ? 'None' : `${formatIndianNumber(variablesFilled)} of ${formatIndianNumber(variablesTotal)} filled`}
          </SummaryRow>
          <SummaryRow label="Template">{template ? templateDisplayName(template.name) : '—'}</SummaryRow>
          <SummaryRow label="Category">
            {template ? (TEMPLATE_CATEGORY_LABELS[template.category as TemplateCategory] ?? template.category) : '—'}
          </SummaryRow>
          <SummaryRow label="Estimated cost">
            {template ? `${recipients === null ? '—' : formatCost(estimateCost(recipients, pricePerMessage))} (${formatPrice(pricePerMessage)} each)` : '—'}
          </SummaryRow>
        </dl>
      </CardContent>
    </Card>
  );
}

export function CampaignPreviewCard({ rows, total }: { rows: readonly CampaignPreviewRow[]; total: number }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Campaign Preview</CardTitle>
        <CardDescription>
          {rows.length === 0
            ? 'Add recipients and choose a template to preview the campaign.'
            : fillMessage(messages.counts.firstMessages, { shown: formatIndianNumber(rows.length), total: formatIndianNumber(total) })}
        </CardDescription>
      </CardHeader>
      {rows.length > 0 ? (
        <CardContent>
          <ol className="flex flex-col gap-3" data-testid="campaign-preview">
            {rows.map((row) => (
              <li key={row.recipient} className="flex flex-col gap-1 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
                <span className="font-mono font-medium">+{row.recipient}</span>
                <span className="text-xs text-slate-500 dark:text-slate-400">Variables: {row.variables}</span>
                <p className="line-clamp-4 whitespace-pre-wrap break-words text-slate-700 dark:text-slate-300">{row.text ? <WhatsAppText text={row.text} /> : '—'}</p>
              </li>
            ))}
          </ol>
        </CardContent>
      ) : null}
    </Card>
  );
}

const TIPS = [
  'Include the country code with every number (91 for India), without spaces or a leading 0.',
  'The same message to the same number within 24 hours is blocked as a duplicate and not charged.',
  'Failed messages are refunded to your wallet automatically.',
  'Follow delivery and read status in Manage Reports.',
];

export function TipsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Lightbulb className="size-4 text-amber-500" aria-hidden="true" />
          Tips
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-slate-600 dark:text-slate-300">
          {TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** Quick Send's side panel (spec 002): summary, live preview, campaign preview and tips. */
export function QuickSendSidePanel({
  template,
  values,
  imageUrl,
  recipients,
  variablesFilled,
  variablesTotal,
  pricePerMessage,
  previewRows,
}: {
  template: TTemplate | null;
  values: Record<string, string>;
  imageUrl: string | null;
  /** Null while the count is not known on this screen (the Contacts source before its preview). */
  recipients: number | null;
  variablesFilled: number;
  variablesTotal: number;
  pricePerMessage: number;
  previewRows: readonly CampaignPreviewRow[];
}) {
  return (
    <aside className="flex flex-col gap-4" aria-label="Campaign overview">
      <CampaignSummaryCard
        recipients={recipients}
        variablesFilled={variablesFilled}
        variablesTotal={variablesTotal}
        template={template}
        pricePerMessage={pricePerMessage}
      />
      <LivePreviewCard template={template} values={values} imageUrl={imageUrl} />
      <CampaignPreviewCard rows={previewRows} total={recipients ?? previewRows.length} />
      <TipsCard />
    </aside>
  );
}
