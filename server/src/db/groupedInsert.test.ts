import { describe, expect, it } from 'vitest';
import { GroupedInsert } from './groupedInsert';

/** An insert that records each statement's rows and finishes when the test lets it. */
function heldInsert() {
  const statements: number[][] = [];
  const held: { finish: () => void; fail: (error: Error) => void }[] = [];
  const insert = (rows: readonly number[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push([...rows]);
      held.push({ finish: resolve, fail: reject });
    });
  return { statements, held, insert };
}

describe('GroupedInsert', () => {
  it('inserts a lone caller’s rows at once', async () => {
    const store = heldInsert();
    const grouped = new GroupedInsert(store.insert);
    const done = grouped.add([1, 2]);
    expect(store.statements).toEqual([[1, 2]]);
    store.held[0]!.finish();
    await done;
  });

  it('joins the rows added while an insert runs into one next insert, and answers each caller after its own rows', async () => {
    const store = heldInsert();
    const grouped = new GroupedInsert(store.insert);
    const answered: string[] = [];
    const first = grouped.add([1]).then(() => answered.push('first'));
    const second = grouped.add([2, 3]).then(() => answered.push('second'));
    const third = grouped.add([4]).then(() => answered.push('third'));
    expect(store.statements).toEqual([[1]]);
    store.held[0]!.finish();
    await first;
    expect(answered).toEqual(['first']);
    await Promise.resolve();
    expect(store.statements).toEqual([[1], [2, 3, 4]]);
    store.held[1]!.finish();
    await Promise.all([second, third]);
    expect(answered).toEqual(['first', 'second', 'third']);
  });

  it('fails every caller whose rows a failed insert carried, and goes on with the next', async () => {
    const store = heldInsert();
    const grouped = new GroupedInsert(store.insert);
    const first = grouped.add([1]);
    const second = grouped.add([2]);
    const third = grouped.add([3]);
    store.held[0]!.finish();
    await first;
    await Promise.resolve();
    store.held[1]!.fail(new Error('database gone'));
    await expect(second).rejects.toThrow('database gone');
    await expect(third).rejects.toThrow('database gone');
    const fourth = grouped.add([4]);
    await Promise.resolve();
    expect(store.statements[store.statements.length - 1]).toEqual([4]);
    store.held[store.held.length - 1]!.finish();
    await fourth;
  });

  it('answers a caller with no rows at once, without an insert', async () => {
    const store = heldInsert();
    await new GroupedInsert(store.insert).add([]);
    expect(store.statements).toEqual([]);
  });
});
