import { Wallet } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TSendAgainAudience } from '@shared/schemas/campaigns';
import type { TCampaign } from '@shared/schemas/sending';
import type { SendAgainChoice } from '../../api/campaigns';
import { errorText } from '../../api/client';
import { useCampaignReplies, useSendAgainPreview } from '../../hooks/useCampaigns';
import { useSendTemplates } from '../../hooks/useSending';
import { formatCost, formatPrice, templateCategoryLabel } from '../../lib/sending/setup';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { Spinner } from '../ui/spinner';
import { CostRow } from '../sending/CostRow';

const r = messages.reportsScreen;

const AUDIENCES: { value: TSendAgainAudience; label: string }[] = [
  { value: 'failed', label: r.sendAgainFailedGroup },
  { value: 'replied', label: r.sendAgainReplied },
  { value: 'tapped', label: r.sendAgainTapped },
  { value: 'read_no_reply', label: r.sendAgainReadNoReply },
];

/**
 * "Send again to…" one group of a campaign's contacts: those whose message failed, those who
 * replied, those who tapped a given button, or those who read without replying. The server
 * prices each choice first (`confirm: false`: nothing is charged) and the dialog shows that cost
 * and the balance after it; only the user's confirmation sends. "Resend to failed" opens it on
 * the failed group; a follow-up template (the campaign's own by default) can be chosen for the
 * other groups.
 */
export function SendAgainDialog({
  campaign,
  audience,
  onClose,
  onConfirm,
  isSending,
}: {
  /** The campaign to send again from; null when closed. */
  campaign: TCampaign | null;
  /** The group chosen when the dialog opens. */
  audience: TSendAgainAudience;
  onClose: () => void;
  onConfirm: (choice: SendAgainChoice) => void;
  isSending: boolean;
}) {
  return (
    <Dialog open={campaign !== null} onOpenChange={(next) => (!next && !isSending ? onClose() : undefined)}>
      <DialogContent className="max-w-lg" hideClose={isSending} data-testid="send-again-dialog">
        {campaign ? <SendAgainForm key={`${campaign.id}:${audience}`} campaign={campaign} initialAudience={audience} onClose={onClose} onConfirm={onConfirm} isSending={isSending} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SendAgainForm({
  campaign,
  initialAudience,
  onClose,
  onConfirm,
  isSending,
}: {
  campaign: TCampaign;
  initialAudience: TSendAgainAudience;
  onClose: () => void;
  onConfirm: (choice: SendAgainChoice) => void;
  isSending: boolean;
}) {
  const ids = { audience: useId(), button: useId(), template: useId() };
  const [audience, setAudience] = useState<TSendAgainAudience>(initialAudience);
  const [button, setButton] = useState('');
  const [templateId, setTemplateId] = useState('');
  const failed = audience === 'failed';
  const replies = useCampaignReplies(campaign.id, audience === 'tapped');
  const templates = useSendTemplates(campaign.language);
  const taps = replies.data?.button_taps ?? [];
  const chosenButton = button || taps[0]?.text || '';
  const ready = audience !== 'tapped' || chosenButton !== '';
  const choice: SendAgainChoice | null = ready
    ? { audience, ...(audience === 'tapped' ? { button: chosenButton } : {}), ...(templateId && !failed ? { template_id: Number(templateId) } : {}) }
    : null;
  const query = useSendAgainPreview(campaign.id, choice);
  const preview = query.data;
  const insufficient = preview !== undefined && !preview.sufficient;
  const nothingToSend = preview !== undefined && preview.billable === 0;
  const others = (templates.data ?? []).filter((t) => t.name !== campaign.templateName);

  return (
    <>
      <DialogHeader>
        <DialogTitle>{r.sendAgainTitle}</DialogTitle>
        <DialogDescription>
          <span className="block font-medium text-slate-700 dark:text-slate-200">{campaign.name}</span>
          <span className="mt-1 block">{failed ? r.resendBody : r.sendAgainBody}</span>
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.audience}>{r.sendAgainAudience}</Label>
          <NativeSelect id={ids.audience} value={audience} onChange={(e) => setAudience(e.target.value as typeof audience)} disabled={isSending}>
            {AUDIENCES.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        {audience === 'tapped' ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.button}>{r.sendAgainButton}</Label>
            <NativeSelect id={ids.button} value={chosenButton} onChange={(e) => setButton(e.target.value)} disabled={isSending || taps.length === 0}>
              {taps.map((tap) => (
                <option key={tap.text} value={tap.text}>
                  {fillMessage(r.buttonTapCount, { text: tap.text, count: formatIndianNumber(tap.taps) })}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        {failed ? null : (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.template}>{r.sendAgainTemplate}</Label>
            <NativeSelect id={ids.template} value={templateId} onChange={(e) => setTemplateId(e.target.value)} disabled={isSending}>
              <option value="">{fillMessage(r.sendAgainOwnTemplate, { name: campaign.templateName })}</option>
              {others.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
      </div>

      {!ready ? null : query.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
          <Spinner label="Checking the cost" /> Checking the cost...
        </p>
      ) : query.isError ? (
        <Alert tone="error">{errorText(query.error, r.sendAgainPreviewFailed)}</Alert>
      ) : preview ? (
        <>
          <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800" data-testid="send-again-cost">
            <CostRow label={failed ? 'Failed messages' : 'Contacts'}>{formatIndianNumber(preview.recipients)}</CostRow>
            <CostRow label="Template type">{templateCategoryLabel(preview.category)}</CostRow>
            <CostRow label="Per-message price">{formatPrice(preview.pricePerMessage)}</CostRow>
            <CostRow label="Total cost" strong>
              {formatCost(preview.totalCost)}
            </CostRow>
          </dl>
          <ul className="flex flex-col gap-1 text-sm text-slate-600 dark:text-slate-300">
            <li>
              {formatIndianNumber(preview.billable)} × {formatPrice(preview.pricePerMessage)} = <span className="font-medium">{formatCost(preview.totalCost)}</span>
            </li>
            {preview.duplicates > 0 ? (
              <li>
                {formatIndianNumber(preview.duplicates)} {messages.sending.duplicateBlocked.toLowerCase()} (sent in the last 24 hours, not charged)
              </li>
            ) : null}
            {preview.invalid > 0 ? <li>{fillMessage(messages.counts.numbersSkipped, { count: formatIndianNumber(preview.invalid) })}</li> : null}
            <li>
              Balance {formatCost(preview.balance)} → after sending {formatCost(preview.balanceAfter)}
            </li>
          </ul>
          {insufficient ? (
            <Alert tone="error">
              <p className="font-medium">
                {fillMessage(messages.sending.insufficientBalance, { cost: formatIndianNumber(preview.totalCost, 2), balance: formatIndianNumber(preview.balance, 2) })}
              </p>
              <Button asChild size="sm" variant="outline" className="mt-2">
                <Link to="/user/wallet">
                  <Wallet aria-hidden="true" />
                  {messages.sendScreens.topUpWallet}
                </Link>
              </Button>
            </Alert>
          ) : null}
        </>
      ) : null}

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={isSending}>
          Cancel
        </Button>
        <Button onClick={() => (choice ? onConfirm(choice) : undefined)} disabled={isSending || !choice || !preview || insufficient || nothingToSend}>
          {isSending ? <Spinner className="text-current" /> : null}
          {preview ? `${failed ? 'Resend' : 'Send'} for ${formatCost(preview.totalCost)}` : failed ? 'Resend' : 'Send'}
        </Button>
      </DialogFooter>
    </>
  );
}
