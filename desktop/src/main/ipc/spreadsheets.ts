/**
 * Spreadsheets IPC: picking, parsing, checking and uploading a spreadsheet from the
 * main process, plus the taskbar/dock progress bar and native notifications. Every dependency
 * (the local spreadsheet module, the upload client, dialogs, recent files, notifier, taskbar) is a
 * parameter, so the rules here run in plain Node under test.
 *
 * Paths never reach the renderer: it gets opaque `fileId` / `preparedId` values, and the only path
 * it ever sends is the one of a file dropped on the window, which is checked here before use.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SPREADSHEET_CHANNELS, type BridgeResult, type DesktopSpreadsheets } from '@shared/desktop';
import { fillMessage, messages } from '@shared/messages';
import type { SpreadsheetFileRef, SpreadsheetProgress } from '@shared/spreadsheets';
import type { SessionTokenStore } from '../keychain';
import type { SettingsStore } from '../settings';
import { firstIssueMessage } from '../settings';
import { createLocalSpreadsheets, type LocalSpreadsheets } from '../spreadsheets';
import { createUploadClient, desktopAuthHeaders, settingsUploadStore, type UploadClient } from '../uploads';
import { consoleErrorLogger, fail, ok, type ErrorLogger, type Untrusted } from './result';

const text = messages.desktopFiles;

/** Lower-case endings the app opens; `.csv.gz` is listed for the message, `.gz` already covers it. */
export const ACCEPTED_SPREADSHEET_EXTENSIONS = ['.csv', '.csv.gz', '.gz', '.xlsx', '.xls'] as const;
/** The same for the open dialog's filter (no dots; `gz` matches `.csv.gz`). */
export const DIALOG_SPREADSHEET_EXTENSIONS = ['csv', 'gz', 'xlsx', 'xls'] as const;
/** Longest path accepted from a drop (Windows long paths reach 32k; nothing real is longer than this). */
export const MAX_SPREADSHEET_PATH_LENGTH = 4096;
export const MAX_NOTIFICATION_LENGTH = 1000;

export function hasAcceptedExtension(filePath: string): boolean {
  const name = filePath.toLowerCase();
  return ACCEPTED_SPREADSHEET_EXTENSIONS.some((extension) => name.endsWith(extension) && name.length > extension.length);
}

/** Where progress events go: the calling page's webContents in the app. */
export interface ProgressTarget {
  send(channel: string, progress: SpreadsheetProgress): void;
  isDestroyed(): boolean;
}

export interface OpenDialogRequest {
  title: string;
  filters: Array<{ name: string; extensions: string[] }>;
}

export interface SaveDialogRequest extends OpenDialogRequest {
  defaultName: string;
}

export interface SpreadsheetDialogs {
  /** The chosen file's path, or null when the user cancelled. */
  openSpreadsheet(request: OpenDialogRequest): Promise<string | null>;
  /** The chosen target path, or null when the user cancelled. */
  saveFile(request: SaveDialogRequest): Promise<string | null>;
}

export interface SpreadsheetHandlerDeps {
  spreadsheets: LocalSpreadsheets;
  uploads: UploadClient;
  dialogs: SpreadsheetDialogs;
  recentFiles: Pick<SettingsStore, 'getRecentFiles' | 'addRecentFile' | 'removeRecentFiles'>;
  /** Shows a native notification; clicking it focuses the app's window. */
  notify(title: string, body: string): void;
  /** The window's taskbar/dock progress bar: 0..1, or -1 to remove it. */
  setTaskbarProgress(fraction: number): void;
  log?: ErrorLogger;
}

/** What the app (and the desktop suite) gives to build the spreadsheets part on real modules. */
export interface LocalSpreadsheetSetup extends Omit<SpreadsheetHandlerDeps, 'spreadsheets' | 'uploads' | 'recentFiles'> {
  /** Where prepared files and their manifest live (the app's userData/spreadsheets). */
  workDir: string;
  settings: SettingsStore;
  keychain: Pick<SessionTokenStore, 'getToken'>;
}

/**
 * The spreadsheets part on the real modules: parsing in a worker thread, the resumable upload
 * client signed in with the keychain's token, pending uploads and recent files in the settings.
 * One wiring for desktop/src/main/index.ts and the desktop suite, so the test drives what ships.
 */
export function createLocalSpreadsheetHandlers(setup: LocalSpreadsheetSetup): { spreadsheets: LocalSpreadsheets; handlers: SpreadsheetHandlers } {
  const { workDir, settings, keychain, ...rest } = setup;
  const spreadsheets = createLocalSpreadsheets({ workDir });
  const uploads = createUploadClient({
    serverUrl: () => settings.getServerUrl(),
    authHeaders: desktopAuthHeaders({ keychain, settings }),
    store: settingsUploadStore(settings),
  });
  return { spreadsheets, handlers: createSpreadsheetHandlers({ ...rest, spreadsheets, uploads, recentFiles: settings }) };
}

type InvokeMethod = Exclude<keyof DesktopSpreadsheets, 'onProgress'>;

/** A main-process implementation of a spreadsheets call: the caller first, then untrusted arguments. */
export type SpreadsheetHandler<K extends InvokeMethod> = (
  caller: ProgressTarget,
  ...args: Untrusted<Parameters<DesktopSpreadsheets[K]>>
) => ReturnType<DesktopSpreadsheets[K]>;

export type SpreadsheetHandlers = { [K in InvokeMethod]: SpreadsheetHandler<K> };

/** The invoke channels (every SPREADSHEET_CHANNELS entry except the progress event channel). */
export const SPREADSHEET_INVOKE_METHODS = (Object.keys(SPREADSHEET_CHANNELS) as Array<keyof DesktopSpreadsheets>).filter(
  (method): method is InvokeMethod => method !== 'onProgress',
);

/** Opaque ids as the local modules make them: printable ASCII without spaces. */
const ZOpaqueId = (error: string) => z.string({ error }).regex(/^[\x21-\x7e]{1,200}$/, { error });
const ZFileId = ZOpaqueId(text.fileIdInvalid);
const ZPreparedId = ZOpaqueId(text.preparedIdInvalid);

/** The template's parameter limits (shared/parameterLimits.ts `parameterRule`), as the renderer built them. */
const ZParameterRule = z.object(
  {
    checks: z
      .array(
        z.object({
          variable: z.object({
            key: z.string().max(100),
            component: z.enum(['header', 'body', 'button']),
            name: z.string().max(100),
            buttonIndex: z.number().int().min(0).max(10).optional(),
            label: z.string().max(200),
          }),
          limit: z.number().int().positive(),
          url: z.string().max(4_000).nullable(),
        }),
      )
      .max(200),
  },
  { error: text.mappingInvalid },
);

const ZColumn = z.string({ error: text.mappingInvalid }).min(1, { error: text.mappingInvalid }).max(500, { error: text.mappingInvalid });
export const ZSpreadsheetMapping = z.object(
  {
    recipientColumn: ZColumn,
    variableMappings: z
      .record(z.string({ error: text.mappingInvalid }).min(1, { error: text.mappingInvalid }).max(100, { error: text.mappingInvalid }), ZColumn, { error: text.mappingInvalid })
      .refine((mappings) => Object.keys(mappings).length <= 100, { error: text.mappingInvalid }),
    parameterRule: ZParameterRule.optional(),
  },
  { error: text.mappingInvalid },
);

export const ZTaskbarFraction = z
  .number({ error: text.taskbarInvalid })
  .refine((value) => value === -1 || (value >= 0 && value <= 1), { error: text.taskbarInvalid });

const notifyInvalid = fillMessage(text.notifyInvalid, { max: MAX_NOTIFICATION_LENGTH });
const ZNotificationText = z
  .string({ error: notifyInvalid })
  .trim()
  .min(1, { error: notifyInvalid })
  .max(MAX_NOTIFICATION_LENGTH, { error: notifyInvalid });

/** A path as a drop may send it: absolute, a sane length, no NUL byte, an accepted extension. */
const ZSpreadsheetPath = z
  .string({ error: text.pathInvalid })
  .min(1, { error: text.pathInvalid })
  .max(MAX_SPREADSHEET_PATH_LENGTH, { error: text.pathInvalid })
  .refine((value) => !value.includes('\0') && path.isAbsolute(value), { error: text.pathInvalid })
  .refine(hasAcceptedExtension, { error: text.notAccepted });

/**
 * Spreadsheet paths among command-line arguments: how Windows and Linux hand over a file opened
 * from the file manager (file associations). Switches and non-spreadsheets are skipped; each path
 * is still checked with `checkSpreadsheetPath` before use.
 */
export function spreadsheetPathsFromArgs(args: readonly string[]): string[] {
  return args.filter((arg) => !arg.startsWith('-') && path.isAbsolute(arg) && hasAcceptedExtension(arg));
}

/** Thrown for a path that fails the checks; its message is a catalogue text. */
class RefusedPath extends Error {}

/** The path if it names an existing regular file with an accepted extension; throws otherwise. */
export async function checkSpreadsheetPath(input: unknown): Promise<string> {
  const filePath = ZSpreadsheetPath.parse(input);
  const found = await stat(filePath).catch(() => null);
  if (!found?.isFile()) throw new RefusedPath(text.notFound);
  return filePath;
}

/** Catalogue templates as patterns (placeholders match any text), to recognise a module's own messages. */
const cataloguePatterns: RegExp[] = (() => {
  const patterns: RegExp[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      // A template that is mostly placeholders would match anything, OS errors included.
      if (value.replace(/\{\w+\}/g, '').trim().length < 12) return;
      const source = value
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+');
      patterns.push(new RegExp(`^${source}$`, 's'));
    } else if (value && typeof value === 'object') {
      for (const child of Object.values(value)) visit(child);
    }
  };
  visit(messages);
  return patterns;
})();

/** True when `message` is a text of the message catalogue (filled or not), written for the user. */
export function isCatalogueText(message: string): boolean {
  return cataloguePatterns.some((pattern) => pattern.test(message));
}

/**
 * Runs a handler body. Validation errors and errors the modules raise with a catalogue text are
 * answered as they are; anything else (OS errors carrying paths, bugs) is logged here and
 * answered with `failureMessage`.
 */
async function settleSpreadsheet<T>(context: string, failureMessage: string, log: ErrorLogger, body: () => Promise<T>): Promise<BridgeResult<T>> {
  try {
    return ok(await body());
  } catch (error) {
    if (error instanceof z.ZodError) return fail(firstIssueMessage(error));
    if (error instanceof RefusedPath) return fail(error.message);
    if (error instanceof Error && isCatalogueText(error.message)) return fail(error.message);
    log(context, error);
    return fail(failureMessage);
  }
}

export function createSpreadsheetHandlers(deps: SpreadsheetHandlerDeps): SpreadsheetHandlers {
  const { spreadsheets, uploads, dialogs, recentFiles } = deps;
  const log = deps.log ?? consoleErrorLogger;
  const openFilter = { name: text.pickFilterName, extensions: [...DIALOG_SPREADSHEET_EXTENSIONS] };

  // Parse, prepare and upload may overlap (a parse while an upload runs): the bar shows the latest
  // progress and is removed only when the last of them ends.
  let running = 0;
  const setBar = (fraction: number): void => {
    try {
      deps.setTaskbarProgress(fraction);
    } catch (error) {
      log('taskbar progress', error);
    }
  };

  async function withProgress<T>(caller: ProgressTarget, run: (onProgress: (p: SpreadsheetProgress) => void) => Promise<T>): Promise<T> {
    const onProgress = (progress: SpreadsheetProgress): void => {
      if (!caller.isDestroyed()) caller.send(SPREADSHEET_CHANNELS.onProgress, progress);
      setBar(Math.min(1, Math.max(0, progress.percent / 100)));
    };
    running += 1;
    try {
      return await run(onProgress);
    } finally {
      running -= 1;
      if (running === 0) setBar(-1);
    }
  }

  async function openChecked(filePath: string): Promise<SpreadsheetFileRef> {
    const ref = await spreadsheets.open(filePath);
    // Not remembering it is no reason to refuse the file the user just chose.
    await recentFiles.addRecentFile(filePath).catch((error: unknown) => log('recent files', error));
    return ref;
  }

  function preparedFileOf(preparedId: unknown) {
    const id = ZPreparedId.parse(preparedId);
    const file = spreadsheets.preparedFile(id);
    if (!file) throw new RefusedPath(text.preparedIdInvalid);
    return file;
  }

  return {
    pick: () =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.pick, text.pickFailed, log, async () => {
        const chosen = await dialogs.openSpreadsheet({ title: text.pickTitle, filters: [openFilter] });
        if (chosen === null) return null;
        // The dialog filters, but a typed name or "All files" can still pick anything.
        return openChecked(await checkSpreadsheetPath(chosen));
      }),

    openDropped: (_caller, droppedPath) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.openDropped, text.pickFailed, log, async () => openChecked(await checkSpreadsheetPath(droppedPath))),

    recent: () =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.recent, text.recentFailed, log, async () => {
        const refs: SpreadsheetFileRef[] = [];
        const missing: string[] = [];
        for (const filePath of await recentFiles.getRecentFiles()) {
          try {
            await checkSpreadsheetPath(filePath);
          } catch {
            missing.push(filePath);
            continue;
          }
          try {
            refs.push(await spreadsheets.open(filePath));
          } catch (error) {
            // One unreadable file must not hide the others.
            log('recent files', error);
          }
        }
        if (missing.length > 0) await recentFiles.removeRecentFiles(missing).catch((error: unknown) => log('recent files', error));
        return refs;
      }),

    parse: (caller, fileId) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.parse, text.parseFailed, log, async () => {
        const id = ZFileId.parse(fileId);
        return withProgress(caller, (onProgress) => spreadsheets.parse(id, onProgress));
      }),

    prepare: (caller, fileId, mapping) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.prepare, text.prepareFailed, log, async () => {
        const id = ZFileId.parse(fileId);
        const checked = ZSpreadsheetMapping.parse(mapping);
        return withProgress(caller, (onProgress) => spreadsheets.prepare(id, checked, onProgress));
      }),

    saveInvalidRows: (_caller, preparedId) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.saveInvalidRows, text.saveInvalidFailed, log, async () => {
        const file = preparedFileOf(preparedId);
        const target = await dialogs.saveFile({
          title: text.saveInvalidTitle,
          defaultName: text.invalidRowsFilename,
          filters: [{ name: text.saveInvalidFilterName, extensions: ['csv'] }],
        });
        if (target === null) return false;
        await spreadsheets.writeInvalidRows(file.preparedId, target);
        return true;
      }),

    upload: (caller, preparedId) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.upload, text.uploadFailed, log, async () => {
        const file = preparedFileOf(preparedId);
        return withProgress(caller, (onProgress) =>
          uploads.upload({ preparedId: file.preparedId, path: file.path, filename: file.filename, size: file.size }, onProgress),
        );
      }),

    pauseUpload: (_caller, preparedId) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.pauseUpload, text.pauseFailed, log, async () => {
        uploads.pause(ZPreparedId.parse(preparedId));
        return null;
      }),

    // Not checked against preparedFile: an upload left by an earlier run is known to the client only.
    resumeUpload: (caller, preparedId) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.resumeUpload, text.uploadFailed, log, async () => {
        const id = ZPreparedId.parse(preparedId);
        return withProgress(caller, (onProgress) => uploads.resume(id, onProgress));
      }),

    pendingUploads: () => settleSpreadsheet(SPREADSHEET_CHANNELS.pendingUploads, text.pendingFailed, log, () => uploads.pending()),

    setTaskbarProgress: (_caller, fraction) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.setTaskbarProgress, text.taskbarFailed, log, async () => {
        deps.setTaskbarProgress(ZTaskbarFraction.parse(fraction));
        return null;
      }),

    notify: (_caller, title, body) =>
      settleSpreadsheet(SPREADSHEET_CHANNELS.notify, text.notifyFailed, log, async () => {
        deps.notify(ZNotificationText.parse(title), ZNotificationText.parse(body));
        return null;
      }),
  };
}
