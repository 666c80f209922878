/**
 * The one line per figure that a script reads from `npm run bench`:
 * `bench <db> <figure> <value> ceiling <value> ratio <value>`, beside the benches' own readable
 * lines. The ceiling is measured in the same run on the same machine wherever the figure has one
 * (a bare insert, the simulator with a no-op client, a bare Koa route), so that the ratio means
 * something on a noisy 2-core machine; a fixed target is the ceiling only where there is
 * nothing to measure against (peak RSS, latency, export time).
 */

/** `sqlite` or `postgres`; `local`/`web` for figures that touch neither database. */
export type FigureDatabase = 'sqlite' | 'postgres' | 'local' | 'web';

export interface Figure {
  db: FigureDatabase;
  /** snake_case with its unit at the end, e.g. `accept_1m_seconds`. */
  figure: string;
  value: number;
  ceiling: number;
  /** For the reader of the code; the summary line carries the unit in the figure's name. */
  unit?: string;
}

/** Whole numbers stay whole; anything else keeps two decimals (enough for seconds and ratios). */
function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function figureLine({ db, figure, value, ceiling }: Figure): string {
  const ratio = ceiling === 0 ? 0 : value / ceiling;
  return `bench ${db} ${figure} ${formatValue(value)} ceiling ${formatValue(ceiling)} ratio ${ratio.toFixed(2)}`;
}

export function printFigure(figure: Figure): void {
  console.log(figureLine(figure));
}


/** A server's database kind (`sqlite`, `postgresql`) as the summary line names it. */
export function figureDb(kind: 'sqlite' | 'postgresql'): FigureDatabase {
  return kind === 'postgresql' ? 'postgres' : 'sqlite';
}
