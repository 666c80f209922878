import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from './messages';
import { PARAMETER_LIMITS, parameterProblem, parameterProblemText, parameterRule } from './parameterLimits';
import { checkPhone } from './phone';
import {
  createColumnStats,
  createSpreadsheetCheck,
  dataCsvLine,
  INVALID_ROWS_CSV_HEADER,
  INVALID_SAMPLE_MAX,
  invalidRowCsvLine,
  isPhoneLike,
  spreadsheetColumnNames,
  spreadsheetMappingProblems,
  suggestMapping,
} from './spreadsheetCheck';
import type { InvalidSpreadsheetRow } from './spreadsheets';
import type { TTemplateComponent } from './types';

describe('spreadsheetColumnNames', () => {
  it('names blank headers Column N and numbers repeats, as the server does', () => {
    expect(spreadsheetColumnNames([' Phone ', '', 'Name', 'Name'], 5)).toEqual(['Phone', 'Column 2', 'Name', 'Name (2)', 'Column 5']);
  });
});

describe('spreadsheetMappingProblems', () => {
  const header = ['Phone', 'Name', 'City'];

  it('accepts a mapping whose columns are all in the header', () => {
    expect(spreadsheetMappingProblems(header, { recipientColumn: 'Phone', variableMappings: { '{{1}}': 'Name', 2: 'City', 3: '' } })).toEqual([]);
  });

  it('asks for a recipient column when none is chosen', () => {
    expect(spreadsheetMappingProblems(header, { recipientColumn: ' ', variableMappings: {} })).toEqual([messages.spreadsheets.recipientColumnRequired]);
  });

  it('names each column the file does not have', () => {
    expect(spreadsheetMappingProblems(header, { recipientColumn: 'Mobile', variableMappings: { 1: 'Surname' } })).toEqual([
      fillMessage(messages.sending.recipientColumnMissing, { column: 'Mobile' }),
      fillMessage(messages.spreadsheets.mappedColumnMissing, { column: 'Surname', name: '1' }),
    ]);
  });
});

describe('createSpreadsheetCheck', () => {
  const header = ['Name', 'Phone', 'City', 'Notes'];
  const mapping = { recipientColumn: 'Phone', variableMappings: { '{{1}}': 'Name', 2: 'City', 3: 'Name' } };

  it('writes the recipient column first, then each mapped column once, under the header names', () => {
    const check = createSpreadsheetCheck(header, mapping);
    expect(check.outputColumns).toEqual(['Phone', 'Name', 'City']);
    expect(check.headerLine).toBe('Phone,Name,City\r\n');
  });

  it('normalises numbers and keeps the mapped cells as written, from positions or keys', () => {
    const check = createSpreadsheetCheck(header, mapping);
    expect(check.addRow(['Asha', '98765 43210', 'Pune', 'x'], 2)).toBe('919876543210,Asha,Pune\r\n');
    expect(check.addRow({ Name: ' Ravi, Jr ', Phone: '+44 20 7946 0018', City: '=SUM(A1)' }, 3)).toBe('442079460018,"Ravi, Jr",=SUM(A1)\r\n');
    expect(check.result()).toEqual({ validRows: 2, invalidRows: 0, duplicatesRemoved: 0, invalidSample: [] });
  });

  it('lists invalid numbers and missing values with catalogue reasons, each one to onInvalid', () => {
    const seen: InvalidSpreadsheetRow[] = [];
    const check = createSpreadsheetCheck(header, mapping, { onInvalid: (row) => seen.push(row) });
    expect(check.addRow(['Asha', '12345', 'Pune'], 2)).toBeNull();
    expect(check.addRow(['Ravi', 'call me', 'Delhi'], 3)).toBeNull();
    expect(check.addRow(['', '9876543210', 'Delhi'], 4)).toBeNull();
    expect(check.addRow(['Meena', '', 'Goa'], 5)).toBeNull();
    const expected = [
      { line: 2, value: '12345', reason: messages.phone.invalid.too_short },
      { line: 3, value: 'call me', reason: messages.phone.invalid.characters },
      { line: 4, value: '9876543210', reason: fillMessage(messages.sending.skipped.missing_value, { name: '1', column: 'Name' }) },
      { line: 5, value: '', reason: messages.phone.invalid.empty },
    ];
    expect(seen).toEqual(expected);
    expect(check.result()).toEqual({ validRows: 0, invalidRows: 4, duplicatesRemoved: 0, invalidSample: expected });
  });

  it('removes repeats of a number (by its stored form), keeping the first', () => {
    const check = createSpreadsheetCheck(['Phone'], { recipientColumn: 'Phone', variableMappings: {} });
    expect(check.addRow(['9876543210'], 2)).toBe('919876543210\r\n');
    expect(check.addRow(['+91 98765-43210'], 3)).toBeNull();
    expect(check.addRow(['09876543210'], 4)).toBeNull();
    expect(check.addRow(['919876543211'], 5)).toBe('919876543211\r\n');
    expect(check.result()).toMatchObject({ validRows: 2, duplicatesRemoved: 2, invalidRows: 0 });
  });

  it('keeps a second order to the same number, and lists only a row repeating the number and every value, with its line', () => {
    const seen: InvalidSpreadsheetRow[] = [];
    const orders = createSpreadsheetCheck(['Phone', 'Name', 'Order'], { recipientColumn: 'Phone', variableMappings: { '1': 'Name', '2': 'Order' } }, { onInvalid: (row) => seen.push(row) });
    expect(orders.addRow(['9876543210', 'Asha', 'ORD-1003'], 2)).toBe('919876543210,Asha,ORD-1003\r\n');
    expect(orders.addRow(['9876543210', 'Asha', 'ORD-1004'], 3)).toBe('919876543210,Asha,ORD-1004\r\n');
    expect(orders.addRow(['+91 98765 43210', ' Asha ', 'ORD-1003'], 4)).toBeNull();
    expect(orders.addRow(['9876543210', 'Asha', 'ORD-1004'], 5)).toBeNull();
    const repeats = [
      { line: 4, value: '+91 98765 43210', reason: fillMessage(messages.sending.skipped.duplicate_in_list, { row: 2 }) },
      { line: 5, value: '9876543210', reason: fillMessage(messages.sending.skipped.duplicate_in_list, { row: 3 }) },
    ];
    expect(seen).toEqual(repeats);
    expect(orders.result()).toEqual({ validRows: 2, invalidRows: 0, duplicatesRemoved: 2, invalidSample: repeats });
  });

  it('lets a complete row claim a number that an earlier row lacking a value did not', () => {
    const check = createSpreadsheetCheck(header, mapping);
    expect(check.addRow(['', '9876543210', 'Pune'], 2)).toBeNull();
    expect(check.addRow(['Asha', '9876543210', 'Pune'], 3)).toBe('919876543210,Asha,Pune\r\n');
    expect(check.result()).toMatchObject({ validRows: 1, invalidRows: 1, duplicatesRemoved: 0 });
  });

  it('skips empty rows without counting them', () => {
    const check = createSpreadsheetCheck(header, mapping);
    expect(check.addRow(['', ' ', ''], 2)).toBeNull();
    expect(check.addRow({}, 3)).toBeNull();
    expect(check.result()).toEqual({ validRows: 0, invalidRows: 0, duplicatesRemoved: 0, invalidSample: [] });
  });

  it('keeps at most INVALID_SAMPLE_MAX invalid rows in the result but counts them all', () => {
    let reported = 0;
    const check = createSpreadsheetCheck(['Phone'], { recipientColumn: 'Phone', variableMappings: {} }, { onInvalid: () => (reported += 1) });
    for (let line = 2; line < INVALID_SAMPLE_MAX + 502; line += 1) check.addRow(['abc'], line);
    const result = check.result();
    expect(result.invalidRows).toBe(INVALID_SAMPLE_MAX + 500);
    expect(result.invalidSample).toHaveLength(INVALID_SAMPLE_MAX);
    expect(reported).toBe(INVALID_SAMPLE_MAX + 500);
  });

  it('refuses a mapping the header cannot satisfy with the catalogue text', () => {
    expect(() => createSpreadsheetCheck(header, { recipientColumn: 'Mobile', variableMappings: {} })).toThrow(
      fillMessage(messages.sending.recipientColumnMissing, { column: 'Mobile' }),
    );
  });

  it('maps to blank and repeated headers by the names the server gives them', () => {
    const check = createSpreadsheetCheck(['Phone', '', 'Name', 'Name'], { recipientColumn: 'Phone', variableMappings: { 1: 'Column 2', 2: 'Name (2)' } });
    expect(check.headerLine).toBe('Phone,Column 2,Name (2)\r\n');
    expect(check.addRow(['9876543210', 'a', 'b', 'c'], 2)).toBe('919876543210,a,c\r\n');
  });
});

describe('data and invalid-rows CSV lines', () => {
  it('quotes only what CSV needs in the data file, including ; and tabs', () => {
    expect(dataCsvLine(['a"b', 'c;d', 'e\tf', '-5', 'plain'])).toBe('"a""b","c;d","e\tf",-5,plain\r\n');
  });

  it('guards formulas in the invalid-rows file a user opens', () => {
    expect(INVALID_ROWS_CSV_HEADER).toBe('line,value,reason\r\n');
    expect(invalidRowCsvLine({ line: 7, value: '=HYPERLINK("x")', reason: 'Bad, very' })).toBe(`7,"'=HYPERLINK(""x"")","Bad, very"\r\n`);
  });
});

describe('isPhoneLike', () => {
  it('agrees with the shared phone rule', () => {
    const values = ['9876543210', '5876543210', '12345678', '123456789012345', '1234567890123456', '09876543210', '0091987654321', '9100987654321',
      '+91 98765 43210', '(022) 1234 5678', '2024-05-06', 'Name 12345', 'user@example.com', '1234567', '98765\u00a043210', '0000000000'];
    for (const value of values) expect([value, isPhoneLike(value)]).toEqual([value, checkPhone(value).ok]);
  });
});

describe('createColumnStats', () => {
  it('counts filled, empty, distinct (capped) and phone-like values per column', () => {
    const stats = createColumnStats(['Phone', 'Name'], 3);
    stats.add(['9876543210', 'Asha']);
    stats.add(['+91 98765 43211', 'Asha']);
    stats.add(['hello', '']);
    stats.add(['12', 'Ravi', 'extra']);
    stats.add(['', 'Meena']);
    expect(stats.result()).toEqual([
      { name: 'Phone', filled: 4, empty: 1, distinct: 3, distinctCapped: true, phoneLike: 2 },
      { name: 'Name', filled: 4, empty: 1, distinct: 3, distinctCapped: true, phoneLike: 0 },
      { name: 'Column 3', filled: 1, empty: 4, distinct: 1, distinctCapped: false, phoneLike: 0 },
    ]);
  });
});

describe('suggestMapping', () => {
  const variables = [
    { key: '1', name: '1', example: 'Customer Name' },
    { key: '2', name: 'city' },
    { key: 'header_1', name: '1', example: 'Order' },
  ];

  it('maps variables whose name or example matches a header, and a phone-like header as the recipient', () => {
    const header = ['customer_name', 'Mobile No.', 'City', 'Order', 'Notes'];
    const sample = [{ customer_name: 'Asha', 'Mobile No.': '9876543210', City: 'Pune', Order: 'A1', Notes: '' }];
    expect(suggestMapping(header, sample, variables)).toEqual({
      recipientColumn: 'Mobile No.',
      variableMappings: { 1: 'customer_name', 2: 'City', header_1: 'Order' },
    });
  });

  it('takes the column with the most phone-like values when no header says phone', () => {
    const header = ['A', 'B'];
    const columns = [
      { name: 'A', filled: 10, empty: 0, distinct: 10, distinctCapped: false, phoneLike: 1 },
      { name: 'B', filled: 10, empty: 0, distinct: 10, distinctCapped: false, phoneLike: 9 },
    ];
    expect(suggestMapping(header, [], [], columns)).toEqual({ recipientColumn: 'B', variableMappings: {} });
  });

  it('leaves the recipient empty when nothing looks like a number', () => {
    expect(suggestMapping(['Name'], [{ Name: 'Asha' }], [])).toEqual({ recipientColumn: '', variableMappings: {} });
  });
});

describe('createSpreadsheetCheck: the parameter limits acceptance holds values to', () => {
  const components: TTemplateComponent[] = [
    { type: 'HEADER', format: 'TEXT', text: 'Offer for {{1}}' },
    { type: 'BODY', text: 'Dear {{1}}, your code is ready.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example/{{1}}' }] },
  ];
  const rule = parameterRule(components);
  const keyOf = (component: string) => rule.checks.find((check) => check.variable.component === component)?.variable.key ?? '';
  const [header, body, button] = [keyOf('header'), keyOf('body'), keyOf('button')];
  const mapping = { recipientColumn: 'Phone', variableMappings: { [header]: 'Head', [body]: 'Body', [button]: 'Link' }, parameterRule: rule };
  const columns = ['Phone', 'Head', 'Body', 'Link'];
  /** The reason the check gives for a row, or null when it passes. */
  const reasonFor = (cells: string[], check = createSpreadsheetCheck(columns, mapping)) => {
    const line = check.addRow(['919876543210', ...cells], 2);
    return line === null ? (check.result().invalidSample[0]?.reason ?? null) : null;
  };
  /** Acceptance's words for the first problem of these values. */
  const acceptanceReason = (values: Record<string, string>, column: string) => {
    const problem = parameterProblem(rule, values);
    if (!problem) throw new Error('expected a problem');
    return fillMessage(messages.sending.skipped.invalid_value, { why: parameterProblemText(problem), column });
  };

  it('passes values within every limit', () => {
    expect(reasonFor(['Asha', 'Asha', 'spring-sale'])).toBeNull();
  });

  it('refuses a header value over 60 characters, with acceptance\'s reason, and counts the row invalid', () => {
    const check = createSpreadsheetCheck(columns, mapping);
    const long = 'x'.repeat(PARAMETER_LIMITS.headerText + 1);
    expect(reasonFor([long, 'Asha', 'sale'], check)).toBe(acceptanceReason({ [header]: long, [body]: 'Asha', [button]: 'sale' }, 'Head'));
    expect(check.result()).toMatchObject({ validRows: 0, invalidRows: 1 });
    expect(reasonFor(['x'.repeat(PARAMETER_LIMITS.headerText), 'Asha', 'sale'])).toBeNull();
  });

  it('refuses a body value over 1,024 characters when the body has other components, and 32,768 when it stands alone', () => {
    const long = 'y'.repeat(PARAMETER_LIMITS.bodyText + 1);
    expect(reasonFor(['Asha', long, 'sale'])).toBe(acceptanceReason({ [header]: 'Asha', [body]: long, [button]: 'sale' }, 'Body'));
    const bodyOnly = parameterRule([{ type: 'BODY', text: 'Dear {{1}}' }]);
    const only = createSpreadsheetCheck(['Phone', 'Body'], { recipientColumn: 'Phone', variableMappings: { [bodyOnly.checks[0]?.variable.key ?? '']: 'Body' }, parameterRule: bodyOnly });
    expect(only.addRow(['919876543210', long], 2)).not.toBeNull();
    expect(only.addRow(['919876543211', 'z'.repeat(PARAMETER_LIMITS.bodyOnlyText + 1)], 3)).toBeNull();
    expect(only.result().invalidRows).toBe(1);
  });

  it('refuses a URL button value whose link passes 2,000 characters', () => {
    const long = 'p'.repeat(PARAMETER_LIMITS.buttonUrl);
    expect(reasonFor(['Asha', 'Asha', long])).toBe(acceptanceReason({ [header]: 'Asha', [body]: 'Asha', [button]: long }, 'Link'));
  });

  it('refuses control characters and more than four spaces in a row', () => {
    expect(reasonFor(['Asha', 'line\u0007bell', 'sale'])).toBe(acceptanceReason({ [header]: 'Asha', [body]: 'line\u0007bell', [button]: 'sale' }, 'Body'));
    expect(reasonFor(['Asha', 'wide     gap', 'sale'])).toBe(acceptanceReason({ [header]: 'Asha', [body]: 'wide     gap', [button]: 'sale' }, 'Body'));
    expect(reasonFor(['Asha', 'four    ok', 'sale'])).toBeNull();
  });

  it('holds no limit when the mapping carries no rule', () => {
    const check = createSpreadsheetCheck(columns, { ...mapping, parameterRule: undefined });
    expect(check.addRow(['919876543210', 'x'.repeat(100), 'Asha', 'sale'], 2)).not.toBeNull();
  });
});
