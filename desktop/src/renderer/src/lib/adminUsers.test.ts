import { describe, expect, it } from 'vitest';
import { filterUsers, parseCreditInput } from './adminUsers';

const users = [
  { name: 'Asha Rao', email: 'asha@example.in', username: 'asha' },
  { name: 'Vikram Singh', email: 'VIKRAM@Shop.in', username: 'vik_shop' },
  { name: 'Meera', email: 'meera@example.in', username: 'MEERA01' },
];

describe('filterUsers', () => {
  it('matches name, e-mail or username without regard to case', () => {
    expect(filterUsers(users, 'RAO').map((u) => u.username)).toEqual(['asha']);
    expect(filterUsers(users, 'shop.IN').map((u) => u.username)).toEqual(['vik_shop']);
    expect(filterUsers(users, 'meera0').map((u) => u.username)).toEqual(['MEERA01']);
    expect(filterUsers(users, 'example').map((u) => u.username)).toEqual(['asha', 'MEERA01']);
  });

  it('returns everyone for an empty query and no one for no match', () => {
    expect(filterUsers(users, '  ')).toHaveLength(3);
    expect(filterUsers(users, 'zzz')).toEqual([]);
  });
});

describe('parseCreditInput', () => {
  it('parses whole numbers and drops a fractional part', () => {
    expect(parseCreditInput('1000')).toBe(1000);
    expect(parseCreditInput('250.75')).toBe(250);
    expect(parseCreditInput('1,00,000')).toBe(100000);
  });

  it('falls back to 0 for anything that is not a number', () => {
    expect(parseCreditInput('')).toBe(0);
    expect(parseCreditInput('abc')).toBe(0);
  });
});
