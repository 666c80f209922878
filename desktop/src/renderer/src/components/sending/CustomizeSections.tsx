import { FileSpreadsheet, X } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/headerMedia';
import type { CustomPreviewRow } from '../../lib/sending/customize';
import { SEND_SCREEN } from '../../lib/sending/setup';
import { cellText, SPREADSHEET_ACCEPT, type ParsedSheet } from '../../lib/sending/spreadsheet';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { FieldShell } from '../ui/form-field';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { ProgressBar } from './SetupProgress';
import { WhatsAppText } from '../templates/WhatsAppText';

const ui = messages.sendScreens;
const FILE_INPUT_ID = 'customize-file';

/** The spreadsheet picker with its upload progress (spec 002 "Customize Message" step 2). */
export function SpreadsheetPicker({
  file,
  uploadProgress,
  onFile,
  onClear,
  disabled = false,
}: {
  file: File | null;
  /** 0 to 1 while uploading, null otherwise. */
  uploadProgress: number | null;
  onFile: (file: File, input: HTMLInputElement) => void;
  onClear: () => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const uploading = uploadProgress !== null;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (chosen) onFile(chosen, event.target);
  };

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={FILE_INPUT_ID}>Spreadsheet (.xlsx or .csv, up to 10 MB)</Label>
      <input
        ref={input}
        id={FILE_INPUT_ID}
        type="file"
        accept={SPREADSHEET_ACCEPT}
        disabled={disabled || uploading}
        onChange={handleChange}
        aria-describedby={`${FILE_INPUT_ID}-hint`}
        data-testid="customize-file-input"
        className={cn(
          'block w-full rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200',
          'file:mr-3 file:rounded-md file:border-0 file:bg-emerald-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-emerald-700',
          'dark:file:bg-emerald-500/15 dark:file:text-emerald-300',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500',
        )}
      />
      <p id={`${FILE_INPUT_ID}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
        The first row holds the column names; each further row is one message.
      </p>
      {uploading ? (
        <div className="flex flex-col gap-1">
          <ProgressBar percent={(uploadProgress ?? 0) * 100} label="Uploading the spreadsheet" />
          <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
            {uploadProgress !== null && uploadProgress >= 1
              ? 'Reading the spreadsheet...'
              : `Uploading... ${Math.round((uploadProgress ?? 0) * 100)}%`}
          </p>
        </div>
      ) : null}
      {file && !uploading ? (
        <p className="flex items-center gap-2 text-sm">
          <FileSpreadsheet className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <span className="min-w-0 truncate">{file.name}</span>
          <span className="text-slate-500 dark:text-slate-400">({formatFileSize(file.size)})</span>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            disabled={disabled}
            onClick={() => {
              if (input.current) input.current.value = '';
              onClear();
            }}
          >
            <X aria-hidden="true" />
            <span className="sr-only">Remove spreadsheet</span>
          </Button>
        </p>
      ) : null}
    </div>
  );
}

/**
 * What was read: the row count, a truncation warning, the recipient column picker and the
 * first rows. Only a few rows are rendered whatever the sheet's size.
 */
export function SheetOverview({
  sheet,
  fileName,
  recipientColumn,
  onRecipientColumnChange,
  disabled = false,
}: {
  sheet: ParsedSheet;
  fileName: string;
  recipientColumn: string;
  onRecipientColumnChange: (column: string) => void;
  disabled?: boolean;
}) {
  const shown = sheet.rows.slice(0, SEND_SCREEN.dataTableRows);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="sheet-row-count">
        {fillMessage(ui.sheetLoaded, { count: formatIndianNumber(sheet.rows.length), file: fileName })}
        {' · '}
        {formatIndianNumber(sheet.columns.length)} columns
      </p>
      {sheet.truncated ? (
        <Alert tone="warning" data-testid="sheet-truncated">
          {fillMessage(ui.sheetTruncated, { count: formatIndianNumber(sheet.rows.length) })}
        </Alert>
      ) : null}

      <FieldShell id="customize-recipient-column" label="Recipient Phone Column" hint="The column holding each row's WhatsApp number, with the country code.">
        <NativeSelect
          id="customize-recipient-column"
          value={recipientColumn}
          disabled={disabled}
          invalid={recipientColumn === ''}
          onChange={(event) => onRecipientColumnChange(event.target.value)}
        >
          <option value="">Select the phone column</option>
          {sheet.columns.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </NativeSelect>
      </FieldShell>

      <div className="flex flex-col gap-2">
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {sheet.rows.length > shown.length
            ? `The first ${formatIndianNumber(shown.length)} of ${formatIndianNumber(sheet.rows.length)} rows:`
            : 'All rows:'}
        </p>
        <div className="max-h-80 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800" tabIndex={0} aria-label="Spreadsheet rows">
          <table className="w-full text-left text-xs" data-testid="sheet-table">
            <thead className="sticky top-0 bg-slate-100 dark:bg-slate-800">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium text-slate-500 dark:text-slate-400">
                  #
                </th>
                {sheet.columns.map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {column}
                    {column === recipientColumn ? (
                      <Badge className="ml-2" variant="default">
                        Phone
                      </Badge>
                    ) : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {shown.map((row, index) => (
                <tr key={index}>
                  <td className="px-3 py-1.5 text-slate-500 tabular-nums dark:text-slate-400">{index + 1}</td>
                  {sheet.columns.map((column) => (
                    <td key={column} className="max-w-56 truncate px-3 py-1.5">
                      {cellText(row[column])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

/** Each template variable to a spreadsheet column (spec 002 "Customize Message" step 3). */
export function VariableMapping({
  variables,
  columns,
  mappings,
  onChange,
  disabled = false,
}: {
  variables: readonly string[];
  columns: readonly string[];
  mappings: Record<string, string>;
  onChange: (variable: string, column: string) => void;
  disabled?: boolean;
}) {
  if (variables.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">This template has no variables: every row gets the same text.</p>;
  }
  if (columns.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">Upload a spreadsheet to map its columns to the variables.</p>;
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {variables.map((variable) => {
        const id = `customize-mapping-${variable}`;
        return (
          <FieldShell key={variable} id={id} label={`Variable {{${variable}}}`}>
            <NativeSelect
              id={id}
              value={mappings[variable] ?? ''}
              disabled={disabled}
              invalid={(mappings[variable] ?? '') === ''}
              onChange={(event) => onChange(variable, event.target.value)}
            >
              <option value="">Select a column</option>
              {columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </NativeSelect>
          </FieldShell>
        );
      })}
    </div>
  );
}

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
