import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dedupeKey } from './dedupeKeys';

/** The stored key's definition: rows accepted before a change must still block identical sends. */
function definition(userId: number, templateId: number, recipient: string, variables: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(variables)
      .sort()
      .map((key) => [key, variables[key]]),
  );
  return createHash('sha256').update(`${userId}|${templateId}|${recipient}|${canonical}`).digest().toString('hex', 0, 8);
}

describe('dedupeKey', () => {
  const cases: Record<string, string>[] = [
    {},
    { '1': 'Asha', '2': '42' },
    { '10': 'ten', '2': 'two', '1': 'one' },
    { b: 'x', a: 'say "hi"\\n', c: 'ल\u2028\u0000' },
    { __proto__: 'data' } as unknown as Record<string, string>,
  ];

  it('matches the stored definition for every shape of values', () => {
    for (const variables of cases) {
      expect(dedupeKey(7, 3, '919876543210', variables)).toBe(definition(7, 3, '919876543210', variables));
    }
  });

  it('sees new values in an object of a shape already seen, and one shared object across recipients', () => {
    for (let i = 0; i < 5; i++) {
      const row = { '2': String(i), '1': 'Asha' };
      expect(dedupeKey(1, 1, `9190000000${i}`, row)).toBe(definition(1, 1, `9190000000${i}`, row));
    }
    const shared = { '1': 'Ravi' };
    const keys = ['919000000001', '919000000002'].map((to) => dedupeKey(1, 1, to, shared));
    expect(keys).toEqual(['919000000001', '919000000002'].map((to) => definition(1, 1, to, shared)));
    expect(keys[0]).not.toBe(keys[1]);
  });
});
