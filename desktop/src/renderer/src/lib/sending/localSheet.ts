/**
 * The send screens' spreadsheet step, read on this computer: a file is opened, parsed
 * with progress, its columns mapped (suggested from their names, the user's choices over the
 * suggestions), every row checked and the normalised rows uploaded; the send then names the upload.
 * Pure rules and the step's reducer; the hook `useLocalSheet` runs them against `platform.spreadsheets`.
 */
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { normaliseMappings } from '@shared/sheetRows';
import { suggestMapping, type MappingVariable } from '@shared/spreadsheetCheck';
import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetPhase, SpreadsheetProgress, SpreadsheetSummary, SpreadsheetUpload } from '@shared/spreadsheets';
import { formatFileSize } from '../headerMedia';

const m = messages.sheetScreens;

/** The key a touched recipient column field goes by among the touched fields (variables use their own key). */
export const RECIPIENT_FIELD = ' recipient';

// ---------------------------------------------------------------------------------------------
// Mapping

/** The user's choices over the suggestions: null keeps the suggestion, '' is "no column". */
export interface MappingChoices {
  recipientColumn: string | null;
  variables: Record<string, string>;
  /** Fields the user has changed: only these (or all, after a send was tried) may show as errors. */
  touched: Record<string, true>;
}

export const NO_CHOICES: MappingChoices = { recipientColumn: null, variables: {}, touched: {} };

/** A template's variables as the mapping step matches them: by name, and by the example given for them. */
export function mappingVariables(variables: readonly string[], examples: Readonly<Record<string, string>> = {}): MappingVariable[] {
  return variables.map((key) => ({ key, name: key, ...(examples[key] ? { example: examples[key] } : {}) }));
}

/**
 * The mapping in force: the suggestion (a header matching a variable's name or example; the phone
 * column by name or by its values) with the user's choices over it. A chosen column not in this
 * file (another file was opened) does not stand.
 */
export function effectiveMapping(summary: Pick<SpreadsheetSummary, 'header' | 'sample' | 'columns'>, variables: readonly MappingVariable[], choices: MappingChoices): SpreadsheetMapping {
  const suggested = suggestMapping(summary.header, summary.sample, variables, summary.columns);
  const inFile = (column: string) => summary.header.includes(column);
  const recipientColumn = choices.recipientColumn !== null && (choices.recipientColumn === '' || inFile(choices.recipientColumn)) ? choices.recipientColumn : suggested.recipientColumn;
  const variableMappings: Record<string, string> = {};
  for (const variable of variables) {
    const choice = choices.variables[variable.key];
    const column = choice !== undefined && (choice === '' || inFile(choice)) ? choice : (suggested.variableMappings[variable.key] ?? '');
    if (column !== '') variableMappings[variable.key] = column;
  }
  return { recipientColumn, variableMappings };
}

/** Variables the suggestion filled that the user has not changed (to say they were matched automatically). */
export function autoMappedVariables(summary: Pick<SpreadsheetSummary, 'header' | 'sample' | 'columns'>, variables: readonly MappingVariable[], choices: MappingChoices): string[] {
  const suggested = suggestMapping(summary.header, summary.sample, variables, summary.columns);
  return variables.map((variable) => variable.key).filter((key) => choices.variables[key] === undefined && suggested.variableMappings[key] !== undefined);
}

/** A field shows as an error only once touched (or once a send was tried), and only while it is empty. */
export function mappingFieldInvalid(field: string, value: string, choices: MappingChoices, sendTried: boolean): boolean {
  return value === '' && (sendTried || choices.touched[field] === true);
}

/** The first variable without a column, or null when every one has one. */
export function firstUnmapped(mapping: SpreadsheetMapping, variables: readonly MappingVariable[]): string | null {
  return variables.find((variable) => !mapping.variableMappings[variable.key])?.key ?? null;
}

/** Two mappings read the file the same way (the checked rows still fit the screen's mapping). */
export function sameMapping(a: SpreadsheetMapping | null, b: SpreadsheetMapping | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.recipientColumn !== b.recipientColumn) return false;
  const left = normaliseMappings(a.variableMappings);
  const right = normaliseMappings(b.variableMappings);
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Progress

const PHASE_LABELS: Record<SpreadsheetPhase, string> = {
  parsing: m.phaseParsing,
  checking: m.phaseChecking,
  writing: m.phaseWriting,
  uploading: m.phaseUploading,
  queued: m.phaseQueued,
};

/** 'Reading the file: 1,20,000 rows (45%)', or for the upload 'Uploading: 3.2 MB of 8 MB (40%)'. */
export function progressText(progress: SpreadsheetProgress): string {
  const phase = PHASE_LABELS[progress.phase];
  const percent = Math.floor(Math.max(0, Math.min(100, progress.percent)));
  if (progress.phase === 'queued') return fillMessage(m.progressQueued, { position: formatIndianNumber(progress.queuePosition ?? 1) });
  if (progress.phase === 'uploading') return fillMessage(m.progressBytes, { phase, sent: formatFileSize(progress.bytes), total: formatFileSize(progress.totalBytes), percent });
  return fillMessage(m.progressRows, { phase, rows: formatIndianNumber(progress.rows), percent });
}

/** The taskbar/dock bar's value for a progress (0..1), or -1 to remove it. */
export function taskbarFraction(progress: SpreadsheetProgress | null): number {
  if (progress === null || progress.percent >= 100) return -1;
  return Math.max(0, Math.min(1, progress.percent / 100));
}

// ---------------------------------------------------------------------------------------------
// The step's state

export type LocalSheetStep = 'idle' | 'parsing' | 'parsed' | 'preparing' | 'uploading' | 'paused' | 'uploaded';

export interface LocalSheetState {
  step: LocalSheetStep;
  file: SpreadsheetFileRef | null;
  progress: SpreadsheetProgress | null;
  summary: SpreadsheetSummary | null;
  choices: MappingChoices;
  /** The checked rows and the mapping they were checked with. */
  prepared: PreparedSpreadsheet | null;
  preparedMapping: SpreadsheetMapping | null;
  upload: SpreadsheetUpload | null;
  /** The last failure, as a catalogue text, until the next step starts. */
  error: string | null;
}

export const INITIAL_LOCAL_SHEET: LocalSheetState = {
  step: 'idle',
  file: null,
  progress: null,
  summary: null,
  choices: NO_CHOICES,
  prepared: null,
  preparedMapping: null,
  upload: null,
  error: null,
};

export type LocalSheetAction =
  | { type: 'opened'; file: SpreadsheetFileRef }
  | { type: 'progressed'; progress: SpreadsheetProgress }
  | { type: 'parsed'; summary: SpreadsheetSummary }
  | { type: 'preparing' }
  | { type: 'prepared'; prepared: PreparedSpreadsheet; mapping: SpreadsheetMapping }
  | { type: 'uploading' }
  | { type: 'uploadSettled'; upload: SpreadsheetUpload }
  | { type: 'failed'; error: string }
  | { type: 'recipientChosen'; column: string }
  | { type: 'variableChosen'; variable: string; column: string }
  /** Another template: the choices made for the last one's variables do not carry over. */
  | { type: 'choicesReset' }
  | { type: 'cleared' };

export function localSheetReducer(state: LocalSheetState, action: LocalSheetAction): LocalSheetState {
  switch (action.type) {
    case 'opened':
      return { ...INITIAL_LOCAL_SHEET, step: 'parsing', file: action.file };
    case 'progressed':
      // Events of an earlier file, or arriving after their step ended, are not this step's.
      if (state.file?.fileId !== action.progress.fileId || !['parsing', 'preparing', 'uploading'].includes(state.step)) return state;
      return { ...state, progress: action.progress };
    case 'parsed':
      if (state.file?.fileId !== action.summary.fileId) return state;
      return { ...state, step: 'parsed', summary: action.summary, progress: null, error: null };
    case 'preparing':
      return { ...state, step: 'preparing', progress: null, prepared: null, preparedMapping: null, upload: null, error: null };
    case 'prepared':
      return { ...state, step: 'parsed', prepared: action.prepared, preparedMapping: action.mapping, progress: null };
    case 'uploading':
      return { ...state, step: 'uploading', error: null };
    case 'uploadSettled':
      return { ...state, step: action.upload.state === 'complete' ? 'uploaded' : 'paused', upload: action.upload, progress: action.upload.state === 'complete' ? null : state.progress };
    case 'failed': {
      // A step that fails falls back to the last one that stands: no file, the parsed file, a
      // paused upload. A failure outside a step (saving the invalid rows) changes only the message.
      const fallback: Partial<Record<LocalSheetStep, LocalSheetStep>> = { parsing: 'idle', preparing: 'parsed', uploading: 'paused' };
      const step = fallback[state.step] ?? state.step;
      return { ...state, step, file: step === 'idle' ? null : state.file, error: action.error, progress: step === 'paused' ? state.progress : null };
    }
    case 'recipientChosen':
      return { ...state, choices: { ...state.choices, recipientColumn: action.column, touched: { ...state.choices.touched, [RECIPIENT_FIELD]: true } } };
    case 'variableChosen':
      return {
        ...state,
        choices: { ...state.choices, variables: { ...state.choices.variables, [action.variable]: action.column }, touched: { ...state.choices.touched, [action.variable]: true } },
      };
    case 'choicesReset':
      return { ...state, choices: NO_CHOICES };
    case 'cleared':
      return INITIAL_LOCAL_SHEET;
  }
}

/** The upload a send can name: complete, and made with the mapping now on screen; null otherwise. */
export function readyUploadId(state: LocalSheetState, mapping: SpreadsheetMapping | null): string | null {
  if (state.step !== 'uploaded' || !state.upload || state.upload.state !== 'complete') return null;
  return sameMapping(state.preparedMapping, mapping) ? state.upload.uploadId : null;
}

/** The rows the send will carry as far as the screen knows: checked rows once checked, else the file's rows. */
export function sheetRowCount(state: LocalSheetState): number {
  return state.prepared?.validRows ?? state.summary?.rows ?? 0;
}
