import { Check, ClipboardCopy, Eraser, Upload } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { RecipientList } from '@shared/phone';
import { toApiError } from '../../api/client';
import { sendingApi, type TRecipientImport } from '../../api/sending';
import { importFailure, mergeRecipients } from '../../lib/sending/quickSend';
import { isBulkSend, SEND_SCREEN } from '../../lib/sending/setup';
import { importFileError, SPREADSHEET_ACCEPT } from '../../lib/sending/spreadsheet';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Label } from '../ui/label';
import { Textarea } from '../ui/textarea';
import { ImportResultDialog } from './ImportResultDialog';
import { NormalisedNumbers } from './NormalisedNumbers';
import { ProgressBar } from './SetupProgress';

const s = messages.sending;
const ui = messages.sendScreens;
const FIELD_ID = 'quick-send-recipients';

/**
 * Quick Send's recipients: typed or pasted (one per line or comma-separated), or imported from
 * a .csv, .xlsx or .xls file whose first column holds the numbers; with the count, Copy All and
 * Clear All (spec 002 "Quick Send" step 2).
 */
export function RecipientsField({
  value,
  onChange,
  summary,
  disabled = false,
}: {
  value: string;
  onChange: (next: string) => void;
  /** The parsed list (deferred by the page while a large list is typed). */
  summary: RecipientList;
  disabled?: boolean;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const [imported, setImported] = useState<{ result: TRecipientImport; fileName: string } | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), SEND_SCREEN.copyFeedbackMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    // The same file can be picked again after a failure or a change to it.
    input.value = '';
    if (!file) return;
    const problem = importFileError(file);
    if (problem) {
      toast.error(problem, { description: s.importHint });
      return;
    }
    setUploadProgress(0);
    try {
      const response = await sendingApi.importRecipients(file, setUploadProgress);
      setImported({ result: response.data, fileName: file.name });
    } catch (caught) {
      const { title, description } = importFailure(toApiError(caught));
      toast.error(title, { description });
    } finally {
      setUploadProgress(null);
    }
  };

  const handleContinue = () => {
    if (imported) onChange(mergeRecipients(value, imported.result.valid_numbers));
    setImported(null);
  };

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(summary.valid.join('\n'));
      setCopied(true);
      toast.success(fillMessage(ui.numbersCopied, { count: formatIndianNumber(summary.valid.length) }));
    } catch {
      toast.error(ui.copyFailed);
    }
  };

  const count = summary.valid.length;
  const importing = uploadProgress !== null;

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <Label htmlFor={FIELD_ID}>Recipients</Label>
        <div className="flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept={SPREADSHEET_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-label="Import numbers from a file"
            data-testid="recipients-import-input"
            onChange={(event) => void handleFile(event)}
          />
          <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={disabled || importing}>
            <Upload aria-hidden="true" />
            Import from file
          </Button>
          <Button variant="outline" size="sm" onClick={() => void handleCopy()} disabled={disabled || count === 0}>
            {copied ? <Check aria-hidden="true" /> : <ClipboardCopy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy All'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => onChange('')} disabled={disabled || value === ''}>
            <Eraser aria-hidden="true" />
            Clear All
          </Button>
        </div>
      </div>
      <Textarea
        id={FIELD_ID}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        rows={8}
        spellCheck={false}
        placeholder={'919876543210\n919812345678, 14155550123'}
        aria-describedby={`${FIELD_ID}-count ${FIELD_ID}-hint`}
        className="font-mono"
      />
      {importing ? <ProgressBar percent={(uploadProgress ?? 0) * 100} label="Uploading the file" /> : null}
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
        <p id={`${FIELD_ID}-count`} aria-live="polite" className="text-slate-600 dark:text-slate-300" data-testid="recipient-count">
          <span className="font-semibold tabular-nums">{formatIndianNumber(count)}</span> {count === 1 ? 'number' : 'numbers'}
          {summary.invalid.length > 0 ? (
            <span className="text-amber-700 dark:text-amber-300"> · {formatIndianNumber(summary.invalid.length)} not valid (skipped)</span>
          ) : null}
          {summary.duplicates > 0 ? <span> · {formatIndianNumber(summary.duplicates)} repeated (sent once)</span> : null}
        </p>
        <p id={`${FIELD_ID}-hint`} className="text-slate-500 dark:text-slate-400">
          One per line or separated by commas, with the country code.
        </p>
      </div>
      <NormalisedNumbers items={summary.normalised} total={summary.normalisedCount} />
      {summary.invalid.length > 0 ? (
        <ul className="flex flex-col gap-0.5 text-xs text-amber-800 dark:text-amber-200" aria-label="Numbers that are not valid" data-testid="invalid-numbers">
          {summary.invalid.slice(0, 5).map((entry, index) => (
            <li key={`${index}-${entry}`}>
              <span className="font-mono">{entry}</span>: {messages.phone.invalid[summary.invalidReasons[index] ?? 'characters']}
            </li>
          ))}
        </ul>
      ) : null}
      {isBulkSend(count) ? <Alert tone="info">{ui.bulkNote}</Alert> : <p className="text-xs text-slate-500 dark:text-slate-400">{ui.bulkNote}</p>}
      <ImportResultDialog result={imported?.result ?? null} fileName={imported?.fileName ?? ''} onContinue={handleContinue} />
    </div>
  );
}
