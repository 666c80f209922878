import knexFactory from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPart, partFromNumbered, singleStatement } from './singleStatement';

// Compiles only: no connection is made.
const db = knexFactory({ client: 'pg', ...knexSnakeCaseMappers() });
afterAll(async () => {
  await db.destroy();
});

describe('partFromNumbered', () => {
  it('turns numbered placeholders into knex ones, each with its value in order of appearance', () => {
    const part = partFromNumbered('with d as (select $2 as a, $3::int as b) insert into t select * from json_to_recordset($1), d where $2 is not null', ['[]', 'x', 7]);
    expect(part.sql).toBe('with d as (select ? as a, ?::int as b) insert into t select * from json_to_recordset(?), d where ? is not null');
    expect(part.bindings).toEqual(['x', 7, '[]', 'x']);
  });

  it('sends an undefined value as NULL, as node-postgres would', () => {
    expect(partFromNumbered('select $1, $2', [undefined, 1]).bindings).toEqual([null, 1]);
  });

  it('refuses text it cannot carry over faithfully', () => {
    expect(() => partFromNumbered("select data ? 'key' from t where id = $1", [1])).toThrow(/literal "\?"/);
    expect(() => partFromNumbered('select $$text$$', [])).toThrow(/placeholders/);
    expect(() => partFromNumbered('select $2', [1])).toThrow(/"\$2" is not one of the statement's 1 placeholders/);
    expect(() => partFromNumbered('select $0', [1])).toThrow(/"\$0"/);
  });
});

describe('singleStatement', () => {
  it('names each part as a CTE, in order, with the bindings in the same order, then the answer', () => {
    const statement = singleStatement(
      [
        ['first', { sql: 'update a set n = ? returning n', bindings: [1] }],
        ['second', { sql: 'insert into b values (?, (select n from first))', bindings: [2] }],
      ],
      'select n from first',
    );
    expect(statement).toEqual({
      sql: 'with first as (update a set n = ? returning n), second as (insert into b values (?, (select n from first))) select n from first',
      bindings: [1, 2],
    });
  });
});

describe('insertPart', () => {
  it('is the insert knex compiles, columns in snake case, with values given as SQL inside the text', () => {
    const at = new Date('2026-11-28T00:00:00Z');
    const row = { userId: 4, amount: -8000, balanceAfter: db.raw('(select credit_balance from wallet_debit)'), createdAt: at, description: 'Campaign' };
    const part = insertPart(db, 'credit_transactions', row);
    const compiled = db('credit_transactions').insert(row).toSQL();
    expect(part.sql).toBe(compiled.sql);
    expect(part.sql).toContain('"balance_after"');
    expect(part.sql).toContain('(select credit_balance from wallet_debit)');
    expect(part.bindings).toEqual([-8000, at, 'Campaign', 4]);
    expect(part.bindings).toEqual(compiled.bindings);
  });

  it('keeps the text per set of columns: another row of the same columns binds its own values, another set compiles anew', () => {
    const first = insertPart(db, 'campaigns', { name: 'A', userId: 1, templateId: null });
    const second = insertPart(db, 'campaigns', { templateId: 9, userId: 2, name: 'B' });
    expect(second.sql).toBe(first.sql);
    expect(second.bindings).toEqual(['B', 9, 2]);
    const other = insertPart(db, 'campaigns', { name: 'C', userId: 3 });
    expect(other.sql).not.toBe(first.sql);
    expect(other).toEqual({ sql: db('campaigns').insert({ name: 'C', userId: 3 }).toSQL().sql, bindings: ['C', 3] });
  });
});
