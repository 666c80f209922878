import { describe, expect, it } from 'vitest';
import { dedupeKey } from './dedupeKeys';
import { duplicateLocksFor, MESSAGE_LOCKS_MAX } from './duplicateLocks';

const keys = (count: number) => Array.from({ length: count }, (_, i) => dedupeKey(7, 3, `9198000${String(10_000 + i)}`, { '1': 'Asha' }));

describe('duplicateLocksFor', () => {
  it('locks a send as a whole by its user and template, exclusively', () => {
    const locks = duplicateLocksFor(7, 3, null);
    expect(locks.shared).toEqual([false]);
    expect(locks.ids).toHaveLength(1);
    // Another template of the user is another lock.
    expect(duplicateLocksFor(7, 4, null).ids).not.toEqual(locks.ids);
  });

  it('locks a small group by its user and template shared, then each message in ascending order', () => {
    const group = keys(5);
    const locks = duplicateLocksFor(7, 3, [...group, group[0] as string]);
    expect(locks.ids[0]).toBe(duplicateLocksFor(7, 3, null).ids[0]);
    expect(locks.shared).toEqual([true, false, false, false, false, false]);
    const messageLocks = locks.ids.slice(1);
    // The repeated key is locked once, and the order is the same whatever order the group came in.
    expect(messageLocks).toHaveLength(5);
    expect(messageLocks).toEqual([...messageLocks].sort((x, y) => x - y));
    expect(duplicateLocksFor(7, 3, [...group].reverse()).ids).toEqual(locks.ids);
    expect(new Set(locks.classes.slice(1)).size).toBe(1);
    expect(locks.classes[1]).not.toBe(locks.classes[0]);
    for (const id of locks.ids) expect(Number.isInteger(id) && id >= -(2 ** 31) && id < 2 ** 31).toBe(true);
  });

  it('locks a group larger than the message locks allow as a whole', () => {
    expect(duplicateLocksFor(7, 3, keys(MESSAGE_LOCKS_MAX)).ids).toHaveLength(MESSAGE_LOCKS_MAX + 1);
    expect(duplicateLocksFor(7, 3, keys(MESSAGE_LOCKS_MAX + 1))).toEqual(duplicateLocksFor(7, 3, null));
  });
});
