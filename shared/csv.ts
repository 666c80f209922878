/**
 * CSV cells as the product writes them (report exports on the server, skipped-row lists in the
 * renderer). Isomorphic.
 *
 * A cell a spreadsheet would run as a formula starts with = + - or @ (or a tab or carriage return,
 * which some strip first). A leading single quote makes it text, as OWASP advises for CSV.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
