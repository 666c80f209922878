/** Local spreadsheet parsing in a worker thread of the main process (issue 16). */
export { createLocalSpreadsheets, defaultWorkerUrl, preparedFilename } from './localSpreadsheets';
export type { LocalSpreadsheets, LocalSpreadsheetsOptions, PreparedFile } from './localSpreadsheets';
