import { fillMessage, messages } from '@shared/messages';
import { parameterProblemText } from '@shared/parameterLimits';
import type { CustomPreviewRow } from '../../lib/sending/customize';
import { WhatsAppText } from '../templates/WhatsAppText';
import { Badge } from '../ui/badge';

/** 'Generate Preview': the first messages exactly as each recipient gets them. */
export function GeneratedPreview({ rows }: { rows: readonly CustomPreviewRow[] }) {
  return (
    <ol className="flex flex-col gap-3" data-testid="generated-preview">
      {rows.map((row) => (
        <li key={row.row} className="flex flex-col gap-1.5 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-slate-500 dark:text-slate-400">Row {row.row}</span>
            <span className="font-mono font-medium">{row.validRecipient ? `+${row.recipient}` : row.recipient || '—'}</span>
            {row.validRecipient ? null : <Badge variant="warning">Not a valid number: skipped</Badge>}
            {/* An empty cell in a mapped column: the send skips the row (a variable with no column stops the send itself). */}
            {row.validRecipient && row.missing && row.missing.column !== '' ? (
              <Badge variant="warning">{fillMessage(messages.sending.skipped.missing_value, row.missing)}: skipped</Badge>
            ) : null}
            {/* A value WhatsApp refuses (shared/parameterLimits.ts): the send counts the row invalid and does not charge it. */}
            {row.validRecipient && row.refused ? (
              <Badge variant="warning">{fillMessage(messages.sending.skipped.invalid_value, { why: parameterProblemText(row.refused), column: row.refused.column })}: skipped</Badge>
            ) : null}
          </div>
          {Object.keys(row.values).length > 0 ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {Object.entries(row.values)
                .map(([variable, value]) => `{{${variable}}} = ${value || '(empty)'}`)
                .join(', ')}
            </p>
          ) : null}
          <p className="rounded-md bg-[#efeae2] p-2 whitespace-pre-wrap break-words text-[#111b21] dark:bg-[#0b141a] dark:text-[#e9edef]">
            {row.text ? <WhatsAppText text={row.text} /> : '—'}
          </p>
        </li>
      ))}
    </ol>
  );
}
