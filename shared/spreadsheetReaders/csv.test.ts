import { describe, expect, it } from 'vitest';
import { createCsvParser, guessDelimiter } from './csv';

/** Parses `text` pushed in pieces of `size` characters; answers [line, cells] pairs. */
function parse(text: string, size = text.length || 1): [number, string[]][] {
  const rows: [number, string[]][] = [];
  const parser = createCsvParser((cells, line) => rows.push([line, cells]));
  for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
  parser.end();
  return rows;
}

const sample = '\ufeffPhone,Name,Note\r\n"9876543210","Asha ""A"" Rao","line one\r\nline two"\r\n\r\n919876543211,Ravi,\r\n';
const expected: [number, string[]][] = [
  [1, ['Phone', 'Name', 'Note']],
  [2, ['9876543210', 'Asha "A" Rao', 'line one\r\nline two']],
  [3, ['']],
  [4, ['919876543211', 'Ravi', '']],
];

describe('createCsvParser', () => {
  it('reads quotes, doubled quotes, line breaks inside quotes, CRLF and a byte-order mark', () => {
    expect(parse(sample)).toEqual(expected);
  });

  it('gives the same rows whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 5, 7, 16]) expect(parse(sample, size)).toEqual(expected);
  });

  it('reads LF and lone CR line ends and a last line without one', () => {
    expect(parse('a,b\n1,2\n3,4')).toEqual([[1, ['a', 'b']], [2, ['1', '2']], [3, ['3', '4']]]);
    expect(parse('a,b\r1,2\r3,4\r', 2)).toEqual([[1, ['a', 'b']], [2, ['1', '2']], [3, ['3', '4']]]);
  });

  it('guesses a semicolon or tab delimiter from the first line, ignoring quoted ones', () => {
    expect(parse('Phone;Name\n9876543210;"Rao, Asha"\n')).toEqual([[1, ['Phone', 'Name']], [2, ['9876543210', 'Rao, Asha']]]);
    expect(parse('Phone\tName\n9876543210\tAsha\n', 3)).toEqual([[1, ['Phone', 'Name']], [2, ['9876543210', 'Asha']]]);
    expect(guessDelimiter('"a;b;c",d')).toBe(',');
  });

  it('keeps a trailing empty field and text after a closing quote', () => {
    expect(parse('a,b,\n"x"y,z\n')).toEqual([[1, ['a', 'b', '']], [2, ['xy', 'z']]]);
  });

  it('runs an unclosed quote to the end of the file', () => {
    expect(parse('a\n"open,\nstill')).toEqual([[1, ['a']], [2, ['open,\nstill']]]);
  });

  it('reads a file without a line break, and an empty one', () => {
    expect(parse('only,one')).toEqual([[1, ['only', 'one']]]);
    expect(parse('')).toEqual([]);
  });
});
