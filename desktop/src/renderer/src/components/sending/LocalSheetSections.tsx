import { FileSpreadsheet, FolderOpen, History, Pause, Play, ShieldCheck, Upload, X } from 'lucide-react';
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { MappingVariable } from '@shared/spreadsheetCheck';
import type { SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetSummary } from '@shared/spreadsheets';
import type { LocalSheet } from '../../hooks/useLocalSheet';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/headerMedia';
import { progressText, readyUploadId, sameMapping } from '../../lib/sending/localSheet';
import { SEND_SCREEN } from '../../lib/sending/setup';
import { platform } from '../../platform';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { FieldShell } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { ProgressBar } from './SetupProgress';
import { NotSentRowsTable } from './SkippedRowsList';

const m = messages.sheetScreens;
/** Invalid rows listed on screen; the CSV holds all of them. */
const INVALID_SHOWN = 10;
const ACCEPT = '.csv,.xlsx,.xls,.gz,text/csv,application/gzip,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Where a spreadsheet comes in: a drop zone with a keyboard-usable "Choose file" button (the
 * desktop's own dialog, or the page's hidden file input, never the browser's "No file chosen"),
 * recent files on the desktop, and the chosen file with its progress and any failure.
 */
export function SheetDropZone({ sheet, inputTestId, disabled = false }: { sheet: LocalSheet; inputTestId: string; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [recent, setRecent] = useState<SpreadsheetFileRef[]>([]);
  const { state } = sheet;
  const busy = state.step === 'parsing' || state.step === 'preparing' || state.step === 'uploading';
  const pick = platform.spreadsheets.pick;

  useEffect(() => {
    if (state.file !== null) return;
    let live = true;
    platform.spreadsheets
      .recent()
      .then((files) => live && setRecent(files.slice(0, 5)))
      .catch(() => live && setRecent([]));
    return () => {
      live = false;
    };
  }, [state.file]);

  const handleChoose = () => {
    if (pick) sheet.openRef(pick);
    else input.current?.click();
  };
  const handleDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled && !busy) sheet.openFile(file);
  };

  return (
    <div className="flex flex-col gap-3">
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={inputTestId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // The same file can be chosen again after a change to it.
          event.target.value = '';
          if (file) sheet.openFile(file);
        }}
      />
      {state.file === null ? (
        <div
          role="group"
          aria-label={m.fileRegion}
          onDragOver={(event) => {
            event.preventDefault();
            if (!dragging) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={handleDrop}
          data-testid="sheet-drop-zone"
          className={cn(
            'flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center dark:border-slate-700 dark:bg-slate-900',
            dragging && 'border-emerald-500 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-500/10',
          )}
        >
          <Upload className="size-8 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <div>
            <p className="font-medium">{dragging ? m.dropActive : m.dropTitle}</p>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{m.dropHint}</p>
          </div>
          <Button type="button" variant="outline" onClick={handleChoose} disabled={disabled || busy}>
            <FolderOpen aria-hidden="true" />
            {m.chooseFile}
          </Button>
          {recent.length > 0 ? (
            <div className="w-full max-w-md text-left">
              <p className="mb-1 flex items-center gap-1 text-xs font-medium text-slate-500 dark:text-slate-400">
                <History className="size-3.5" aria-hidden="true" />
                {m.recentTitle}
              </p>
              <ul className="flex flex-col gap-1">
                {recent.map((file) => (
                  <li key={file.fileId}>
                    <Button type="button" variant="ghost" size="sm" className="w-full justify-start" disabled={disabled} onClick={() => sheet.openRef(() => Promise.resolve(file))}>
                      <FileSpreadsheet aria-hidden="true" />
                      <span className="min-w-0 truncate">{file.filename}</span>
                      <span className="text-slate-500 dark:text-slate-400">({formatFileSize(file.size)})</span>
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm" data-testid="sheet-file">
          <FileSpreadsheet className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <span className="min-w-0 truncate">{state.file.filename}</span>
          <span className="text-slate-500 dark:text-slate-400">({formatFileSize(state.file.size)})</span>
          <Button type="button" variant="ghost" size="icon" className="size-7" disabled={disabled} onClick={sheet.clear}>
            <X aria-hidden="true" />
            <span className="sr-only">{m.removeFile}</span>
          </Button>
        </p>
      )}
      {state.progress && (state.step === 'parsing' || state.step === 'preparing') ? <SheetProgress text={progressText(state.progress)} percent={state.progress.percent} /> : null}
      {state.step === 'parsing' && !state.progress ? <SheetProgress text={fillMessage(m.progressRows, { phase: m.phaseParsing, rows: 0, percent: 0 })} percent={0} /> : null}
      {state.error && state.summary === null ? <SheetError text={state.error} /> : null}
    </div>
  );
}

function SheetError({ text }: { text: string }) {
  return (
    <Alert tone="error" role="alert" data-testid="sheet-error">
      {text}
    </Alert>
  );
}

function SheetProgress({ text, percent }: { text: string; percent: number }) {
  return (
    <div className="flex flex-col gap-1" data-testid="sheet-progress">
      <ProgressBar percent={percent} label={text} />
      <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/** The file read: its rows counted, the phone column, and its first rows. */
export function SheetSummaryView({
  summary,
  recipientColumn,
  recipientInvalid,
  onRecipientColumnChange,
  disabled = false,
  idPrefix,
}: {
  summary: SpreadsheetSummary;
  recipientColumn: string;
  recipientInvalid: boolean;
  onRecipientColumnChange: (column: string) => void;
  disabled?: boolean;
  idPrefix: string;
}) {
  const shown = summary.sample.slice(0, SEND_SCREEN.dataTableRows);
  const selectId = `${idPrefix}-recipient-column`;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="sheet-row-count">
        {fillMessage(m.summary, { count: formatIndianNumber(summary.rows), file: summary.filename, columns: formatIndianNumber(summary.header.length) })}
      </p>
      <FieldShell id={selectId} label={m.recipientColumnLabel} hint={m.recipientColumnHint}>
        <NativeSelect id={selectId} value={recipientColumn} disabled={disabled} invalid={recipientInvalid} onChange={(event) => onRecipientColumnChange(event.target.value)}>
          <option value="">{m.recipientColumnPlaceholder}</option>
          {summary.header.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </NativeSelect>
      </FieldShell>
      <div className="flex flex-col gap-2">
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {summary.rows > shown.length ? fillMessage(m.sampleCaption, { count: formatIndianNumber(shown.length), total: formatIndianNumber(summary.rows) }) : m.sampleAll}
        </p>
        <div className="max-h-80 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800" tabIndex={0} aria-label={m.fileRegion}>
          <table className="w-full text-left text-xs" data-testid="sheet-table">
            <thead className="sticky top-0 bg-slate-100 dark:bg-slate-800">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium text-slate-500 dark:text-slate-400">
                  #
                </th>
                {summary.header.map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {column}
                    {column === recipientColumn ? (
                      <Badge className="ml-2" variant="default">
                        {m.phoneBadge}
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
                  {summary.header.map((column) => (
                    <td key={column} className="max-w-56 truncate px-3 py-1.5">
                      {row[column] ?? ''}
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

/** The mapping, or why there is none to make: the template has no variables, or no file is read yet. */
export function VariablesOrHint({ variables, summary, children }: { variables: readonly string[]; summary: SpreadsheetSummary | null; children: ReactNode }) {
  if (variables.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">{m.noTemplateVariables}</p>;
  if (!summary) return <p className="text-sm text-slate-500 dark:text-slate-400">{m.mapAfterFile}</p>;
  return <>{children}</>;
}

/** Each template variable to a column; a field is red only once touched (or after a send was tried). */
export function SheetVariableMapping({
  variables,
  header,
  mapping,
  invalid,
  autoMapped,
  onChange,
  disabled = false,
  idPrefix,
}: {
  variables: readonly MappingVariable[];
  header: readonly string[];
  mapping: SpreadsheetMapping;
  invalid: (variable: string) => boolean;
  autoMapped: readonly string[];
  onChange: (variable: string, column: string) => void;
  disabled?: boolean;
  idPrefix: string;
}) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-4 sm:grid-cols-2">
        {variables.map((variable) => {
          const id = `${idPrefix}-mapping-${variable.key}`;
          const value = mapping.variableMappings[variable.key] ?? '';
          return (
            <FieldShell key={variable.key} id={id} label={`Variable {{${variable.key}}}`}>
              <NativeSelect id={id} value={value} disabled={disabled} invalid={invalid(variable.key)} onChange={(event) => onChange(variable.key, event.target.value)}>
                <option value="">{m.variableColumnPlaceholder}</option>
                {header.map((column) => (
                  <option key={column} value={column}>
                    {column}
                  </option>
                ))}
              </NativeSelect>
            </FieldShell>
          );
        })}
      </div>
      {autoMapped.length > 0 ? <p className="text-xs text-slate-500 dark:text-slate-400">{m.autoMapped}</p> : null}
    </div>
  );
}

function Figure({ label, value, testId, tone }: { label: string; value: number; testId: string; tone?: 'warning' }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={cn('text-lg font-semibold tabular-nums', tone === 'warning' && value > 0 && 'text-amber-700 dark:text-amber-300')} data-testid={testId}>
        {formatIndianNumber(value)}
      </dd>
    </div>
  );
}

/**
 * The check of every row and the upload: the button, the counts (valid, invalid, repeated
 * rows), the first rows not sent (invalid or repeats) with all of them downloadable, and the upload with pause/resume.
 */
export function SheetCheckPanel({ sheet, mapping, canCheck, disabled = false }: { sheet: LocalSheet; mapping: SpreadsheetMapping; canCheck: boolean; disabled?: boolean }) {
  const { state } = sheet;
  const { prepared, upload, progress } = state;
  const stale = prepared !== null && !sameMapping(state.preparedMapping, mapping);
  const ready = readyUploadId(state, mapping) !== null;
  const uploading = state.step === 'uploading';
  const paused = state.step === 'paused';
  const busy = state.step === 'preparing' || uploading;
  const invalidShown = prepared?.invalidSample.slice(0, INVALID_SHOWN) ?? [];
  // Invalid rows and repeats (same number and values) are both listed among the rows not sent.
  const notSent = prepared ? prepared.invalidRows + prepared.duplicatesRemoved : 0;

  return (
    <div className="flex flex-col gap-3" data-testid="sheet-check">
      {!ready && !paused ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant={prepared && !stale ? 'outline' : 'default'} onClick={() => void sheet.checkAndUpload(mapping)} disabled={disabled || busy || !canCheck}>
            <ShieldCheck aria-hidden="true" />
            {stale ? m.checkAgain : m.checkAndUpload}
          </Button>
          {stale ? <p className="text-xs text-amber-700 dark:text-amber-300">{m.mappingChanged}</p> : null}
        </div>
      ) : null}
      {prepared && !stale ? (
        <>
          <dl className="grid grid-cols-3 gap-3">
            <Figure label={m.validRows} value={prepared.validRows} testId="sheet-valid-rows" />
            <Figure label={m.invalidRows} value={prepared.invalidRows} testId="sheet-invalid-rows" tone="warning" />
            <Figure label={m.duplicatesRemoved} value={prepared.duplicatesRemoved} testId="sheet-duplicates" />
          </dl>
          {notSent > 0 ? (
            <NotSentRowsTable
              title={m.invalidListTitle}
              heading={m.invalidListTitle}
              columns={[m.lineColumn, m.valueColumn, m.reasonColumn]}
              rows={invalidShown}
              downloadLabel={m.downloadInvalid}
              onDownload={sheet.downloadInvalidRows}
              testId="sheet-invalid-list"
              tall
              footer={
                notSent > invalidShown.length ? (
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {fillMessage(m.invalidShown, { shown: formatIndianNumber(invalidShown.length), total: formatIndianNumber(notSent) })}
                  </p>
                ) : null
              }
            />
          ) : null}
        </>
      ) : null}
      {(uploading || paused) && !stale ? (
        <div className="flex flex-col gap-2">
          {progress && (progress.phase === 'uploading' || progress.phase === 'queued') ? <SheetProgress text={progressText(progress)} percent={progress.percent} /> : null}
          {paused && !state.error && progress ? <p className="text-xs text-slate-500 dark:text-slate-400">{fillMessage(m.uploadPaused, { percent: Math.floor(progress.percent) })}</p> : null}
          <div>
            {uploading ? (
              <Button type="button" variant="outline" size="sm" onClick={sheet.pause} disabled={disabled}>
                <Pause aria-hidden="true" />
                {m.pauseUpload}
              </Button>
            ) : (
              <Button type="button" variant="outline" size="sm" onClick={sheet.resume} disabled={disabled}>
                <Play aria-hidden="true" />
                {state.error ? m.retryUpload : m.resumeUpload}
              </Button>
            )}
          </div>
        </div>
      ) : null}
      {state.error && state.summary !== null ? <SheetError text={state.error} /> : null}
      {ready && upload && prepared ? (
        <Alert tone="success" data-testid="sheet-uploaded">
          {fillMessage(m.uploadComplete, { count: formatIndianNumber(prepared.validRows) })}
        </Alert>
      ) : null}
    </div>
  );
}
