import { useCallback, useEffect, useReducer, useRef } from 'react';
import { messages } from '@shared/messages';
import type { SpreadsheetFileRef, SpreadsheetMapping } from '@shared/spreadsheets';
import { INITIAL_LOCAL_SHEET, localSheetReducer, readyUploadId, sameMapping, taskbarFraction, type LocalSheetState } from '../lib/sending/localSheet';
import { platform } from '../platform';

function errorMessage(caught: unknown): string {
  return caught instanceof Error && caught.message ? caught.message : messages.common.networkErrorRetry;
}

export interface LocalSheet {
  state: LocalSheetState;
  /** A file dropped on the screen or chosen with the page's file input. */
  openFile(file: File): void;
  /** The shell's own open dialog (desktop), or a recent file. */
  openRef(pickFile: () => Promise<SpreadsheetFileRef | null>): void;
  clear(): void;
  chooseRecipient(column: string): void;
  chooseVariable(variable: string, column: string): void;
  /** Forgets the user's column choices (another template); stable across renders. */
  resetChoices(): void;
  /**
   * Checks every row with `mapping` and uploads the normalised rows, unless that is already done
   * for this mapping; answers the upload's id, or null when it failed, paused or found no valid row.
   */
  checkAndUpload(mapping: SpreadsheetMapping): Promise<string | null>;
  pause(): void;
  resume(): void;
  downloadInvalidRows(): void;
}

/** The spreadsheet step of a send screen against `platform.spreadsheets`, in either shell. */
export function useLocalSheet(): LocalSheet {
  const [state, dispatch] = useReducer(localSheetReducer, INITIAL_LOCAL_SHEET);
  // The handlers read the latest state when they run, not the render they were made in.
  const current = useRef(state);
  useEffect(() => {
    current.current = state;
  }, [state]);
  const sheets = platform.spreadsheets;

  useEffect(() => sheets.onProgress((progress) => dispatch({ type: 'progressed', progress })), [sheets]);
  useEffect(() => {
    sheets.setTaskbarProgress(taskbarFraction(state.progress));
  }, [sheets, state.progress]);
  useEffect(() => () => sheets.setTaskbarProgress(-1), [sheets]);

  const parseOpened = useCallback(
    async (opened: Promise<SpreadsheetFileRef | null>) => {
      let file: SpreadsheetFileRef | null;
      try {
        file = await opened;
      } catch (caught) {
        dispatch({ type: 'failed', error: errorMessage(caught) });
        return;
      }
      if (!file) return;
      dispatch({ type: 'opened', file });
      try {
        dispatch({ type: 'parsed', summary: await sheets.parse(file.fileId) });
      } catch (caught) {
        dispatch({ type: 'failed', error: errorMessage(caught) });
      }
    },
    [sheets],
  );

  const upload = useCallback(
    async (preparedId: string, resume: boolean): Promise<string | null> => {
      dispatch({ type: 'uploading' });
      try {
        const result = resume ? await sheets.resumeUpload(preparedId) : await sheets.upload(preparedId);
        dispatch({ type: 'uploadSettled', upload: result });
        return result.state === 'complete' ? result.uploadId : null;
      } catch (caught) {
        dispatch({ type: 'failed', error: errorMessage(caught) });
        return null;
      }
    },
    [sheets],
  );

  const checkAndUpload = useCallback(
    async (mapping: SpreadsheetMapping): Promise<string | null> => {
      const now = current.current;
      const ready = readyUploadId(now, mapping);
      if (ready) return ready;
      if (!now.file || !now.summary) return null;
      if (now.prepared && sameMapping(now.preparedMapping, mapping) && now.step === 'paused') return upload(now.prepared.preparedId, true);
      dispatch({ type: 'preparing' });
      let prepared;
      try {
        prepared = await sheets.prepare(now.file.fileId, mapping);
      } catch (caught) {
        dispatch({ type: 'failed', error: errorMessage(caught) });
        return null;
      }
      dispatch({ type: 'prepared', prepared, mapping });
      if (prepared.validRows === 0) {
        dispatch({ type: 'failed', error: messages.sheetScreens.noValidRows });
        return null;
      }
      return upload(prepared.preparedId, false);
    },
    [sheets, upload],
  );

  const resetChoices = useCallback(() => dispatch({ type: 'choicesReset' }), []);

  return {
    state,
    resetChoices,
    openFile: (file) => void parseOpened(sheets.openDropped(file)),
    openRef: (pickFile) => void parseOpened(pickFile()),
    clear: () => {
      const prepared = current.current.prepared;
      if (prepared && current.current.step === 'uploading') void sheets.pauseUpload(prepared.preparedId);
      dispatch({ type: 'cleared' });
    },
    chooseRecipient: (column) => dispatch({ type: 'recipientChosen', column }),
    chooseVariable: (variable, column) => dispatch({ type: 'variableChosen', variable, column }),
    checkAndUpload,
    pause: () => {
      const prepared = current.current.prepared;
      if (prepared) void sheets.pauseUpload(prepared.preparedId);
    },
    resume: () => {
      const prepared = current.current.prepared;
      if (prepared) void upload(prepared.preparedId, true);
    },
    downloadInvalidRows: () => {
      const prepared = current.current.prepared;
      if (!prepared) return;
      sheets.saveInvalidRows(prepared.preparedId).catch((caught: unknown) => dispatch({ type: 'failed', error: errorMessage(caught) }));
    },
  };
}
