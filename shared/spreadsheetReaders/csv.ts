/**
 * An incremental CSV parser: text goes in as it is decoded, rows come out as soon as
 * they are complete, so a file of any size is read in the memory of one chunk. Environment-free:
 * the desktop's parse worker and the browser's Web Worker feed it the same way.
 *
 * RFC 4180 with what spreadsheets really write: quoted fields with doubled quotes and line breaks
 * inside, CRLF, LF or CR line ends, a byte-order mark, and a comma, semicolon or tab as delimiter,
 * chosen from the first line as the server's parser guesses it (`,` `;` `\t`).
 */

export type RowSink = (cells: string[], line: number) => void;

const QUOTE = 34;
const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter that splits the first line into the most fields outside quotes (comma on a tie). */
export function guessDelimiter(firstLine: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

export interface CsvParser {
  /** Parses what is complete in this text; the rest waits for the next push or `end`. */
  push(text: string): void;
  /** The last row (a file need not end with a line break). */
  end(): void;
}

/**
 * Calls `onRow` with each record's cells (as written: the caller trims) and its 1-based record
 * number in the file (the header is 1; an empty line still counts, as a spreadsheet shows it).
 * Empty records reach `onRow` as `['']`: the caller decides to skip them.
 */
export function createCsvParser(onRow: RowSink): CsvParser {
  let pending = '';
  let delimiter: string | null = null;
  let newline: '\n' | '\r' = '\n';
  let line = 0;
  let started = false;

  /**
   * Parses whole records of `text` from the start; answers where the unfinished record begins
   * (text.length when none is left). With `final`, the text's end ends the last record.
   */
  const parse = (text: string, final: boolean): number => {
    const delim = delimiter ?? ',';
    const length = text.length;
    let pos = 0;
    let nextDelim = -2;
    let nextNewline = -2;
    while (pos < length) {
      const recordStart = pos;
      const cells: string[] = [];
      let complete = false;
      for (;;) {
        if (text.charCodeAt(pos) === QUOTE) {
          // A quoted field: doubled quotes are one quote; it ends at a lone quote.
          let value = '';
          let at = pos + 1;
          let closed = false;
          for (;;) {
            const quote = text.indexOf('"', at);
            if (quote === -1) break;
            value += text.slice(at, quote);
            if (text.charCodeAt(quote + 1) === QUOTE) {
              value += '"';
              at = quote + 2;
              continue;
            }
            // A quote as the very last character may be the first half of a doubled one.
            if (quote + 1 === length && !final) break;
            at = quote + 1;
            closed = true;
            break;
          }
          if (!closed) {
            if (!final) return recordStart;
            // An unclosed quote runs to the end of the file, as spreadsheets read it.
            cells.push(value + text.slice(at));
            pos = length;
            complete = true;
            break;
          }
          // Anything between the closing quote and the delimiter belongs to the field, as written.
          let end = at;
          while (end < length) {
            const c = text[end];
            if (c === delim || c === '\n' || c === '\r') break;
            end += 1;
          }
          value += text.slice(at, end);
          cells.push(value);
          pos = end;
          // Caches of delimiter and newline positions are behind us now.
          nextDelim = -2;
          nextNewline = -2;
        } else {
          if (nextDelim !== -1 && nextDelim < pos) nextDelim = text.indexOf(delim, pos);
          if (nextNewline !== -1 && nextNewline < pos) nextNewline = text.indexOf(newline, pos);
          const fieldEnd = nextDelim !== -1 && (nextNewline === -1 || nextDelim < nextNewline) ? nextDelim : nextNewline;
          if (fieldEnd === -1) {
            if (!final) return recordStart;
            cells.push(text.slice(pos));
            pos = length;
            complete = true;
            break;
          }
          let value = text.slice(pos, fieldEnd);
          if (fieldEnd === nextNewline && newline === '\n' && value.charCodeAt(value.length - 1) === 13) value = value.slice(0, -1);
          cells.push(value);
          pos = fieldEnd;
        }
        // pos is at a delimiter, a line end or the end of the text.
        if (pos >= length) {
          if (!final) return recordStart;
          complete = true;
          break;
        }
        const char = text[pos];
        if (char === delim) {
          pos += 1;
          if (pos >= length) {
            if (!final) return recordStart;
            cells.push('');
            complete = true;
            break;
          }
          continue;
        }
        // A line end: CRLF, LF or a lone CR.
        if (char === '\r') {
          if (pos + 1 >= length && !final) return recordStart;
          pos += text.charCodeAt(pos + 1) === 10 ? 2 : 1;
        } else pos += 1;
        complete = true;
        break;
      }
      if (complete) {
        line += 1;
        onRow(cells, line);
      }
    }
    return length;
  };

  return {
    push(chunk) {
      let text = pending + chunk;
      if (!started) {
        if (text.length === 0) return;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        // The delimiter and line end are decided once the first line is whole.
        const firstEnd = text.search(/[\r\n]/);
        const firstLine = firstEnd === -1 ? null : text.slice(0, firstEnd);
        if (firstLine === null || (text[firstEnd] === '\r' && firstEnd + 1 === text.length)) {
          pending = text;
          return;
        }
        started = true;
        delimiter = guessDelimiter(firstLine);
        newline = text[firstEnd] === '\r' && text[firstEnd + 1] !== '\n' ? '\r' : '\n';
      }
      const rest = parse(text, false);
      pending = rest === text.length ? '' : text.slice(rest);
    },
    end() {
      let text = pending;
      pending = '';
      if (!started) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        delimiter = guessDelimiter(text.split(/\r\n|\r|\n/)[0] ?? '');
        newline = /\r(?!\n)/.test(text) && !text.includes('\n') ? '\r' : '\n';
        started = true;
      }
      if (text.length > 0) parse(text, true);
    },
  };
}
