import { describe, expect, it } from 'vitest';
import { CONTACTS } from '../constants';
import { ATTRIBUTE_NAME_PATTERN, attributeNameOfColumn } from './contacts';
import { ZCustomSendRequest } from './sending';

describe('attributeNameOfColumn', () => {
  it('names a column as an attribute the contacts accept', () => {
    expect(attributeNameOfColumn('Order No')).toBe('order_no');
    expect(attributeNameOfColumn('  First-Name (as on PAN) ')).toBe('first_name_as_on_pan');
    expect(attributeNameOfColumn('Name')).toBe('name');
    expect(attributeNameOfColumn('2nd line')).toBe('col_2nd_line');
    expect(attributeNameOfColumn('नाम')).toBe('col');
    const long = attributeNameOfColumn('x'.repeat(200));
    expect(long).toHaveLength(CONTACTS.attributeNameMaxLength);
    for (const column of ['Order No', '2nd line', 'नाम', 'x'.repeat(200)]) expect(ATTRIBUTE_NAME_PATTERN.test(attributeNameOfColumn(column))).toBe(true);
  });
});

describe('ZCustomSendRequest rememberColumns', () => {
  const base = { templateName: 't', language: 'en', phoneNumberId: '1', recipientColumn: 'Phone', data: [{ Phone: '9876543210' }] };
  it('takes the tick as a JSON boolean or a multipart string, and leaves it off when absent', () => {
    expect(ZCustomSendRequest.parse({ ...base, rememberColumns: true }).rememberColumns).toBe(true);
    expect(ZCustomSendRequest.parse({ ...base, rememberColumns: 'true' }).rememberColumns).toBe(true);
    expect(ZCustomSendRequest.parse({ ...base, rememberColumns: false }).rememberColumns).toBe(false);
    expect(ZCustomSendRequest.parse(base).rememberColumns).toBeUndefined();
  });
});
