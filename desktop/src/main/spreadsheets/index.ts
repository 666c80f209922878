/** Local spreadsheet parsing in a worker thread of the main process. */
export { createLocalSpreadsheets, defaultWorkerUrl, preparedFilename } from './localSpreadsheets';
export type { LocalSpreadsheets, LocalSpreadsheetsOptions, PreparedFile } from './localSpreadsheets';
