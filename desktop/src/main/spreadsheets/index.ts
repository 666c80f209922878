/**
 * TEMPORARY BRIDGE (issue 16): the local spreadsheet module is built on the "sheet-parse" branch.
 * Until it is merged, this answers every call with the catalogue's "not available" text, so the
 * bridge, its checks and the window's wiring can land and be tested on their own. The lead
 * replaces this file with the real module's index on merge.
 */
import { messages } from '@shared/messages';
import type { LocalSpreadsheets, LocalSpreadsheetsOptions } from './types';

export type { LocalSpreadsheets, LocalSpreadsheetsOptions, PreparedFile } from './types';

export function createLocalSpreadsheets(options: LocalSpreadsheetsOptions): LocalSpreadsheets {
  void options;
  const unavailable = (): Promise<never> => Promise.reject(new Error(messages.desktopFiles.notAvailable));
  return {
    open: unavailable,
    parse: unavailable,
    prepare: unavailable,
    preparedFile: () => undefined,
    writeInvalidRows: unavailable,
    close: () => Promise.resolve(),
  };
}
