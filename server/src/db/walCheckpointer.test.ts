import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Knex } from './knex';
import { WalCheckpointer } from './walCheckpointer';

/** Enough rows that the log passes SQLite's 1,000-page autocheckpoint in one commit. */
const ROWS = 60_000;

describe('WAL checkpoints on their own thread', () => {
  let dataDir: string;
  let filename: string;
  let db: Knex;
  let checkpointer: WalCheckpointer | null;
  const log = pino({ level: 'silent' });

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-wal-'));
    filename = path.join(dataDir, 'wal.sqlite');
    db = createDatabase({ kind: 'sqlite', filename });
    await db.raw('create table rows (id integer primary key, body text not null)');
    checkpointer = null;
  });
  afterEach(async () => {
    await checkpointer?.stop();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const autocheckpointPages = async () => ((await db.raw('pragma wal_autocheckpoint')) as { walAutocheckpoint: number }[])[0]!.walAutocheckpoint;
  const databaseFileBytes = () => fs.statSync(filename).size;

  async function writeRows(): Promise<void> {
    await db.transaction(async (trx) => {
      for (let start = 0; start < ROWS; start += 500) {
        await trx('rows').insert(Array.from({ length: 500 }, (_, i) => ({ body: `row ${start + i} ${'x'.repeat(80)}` })));
      }
    });
  }

  it("leaves the copy to the thread: the server's commit writes the log only, the thread copies all of it", async () => {
    // A timer that never fires in the test, so only the checkpoint asked for copies anything.
    checkpointer = await WalCheckpointer.start(db, filename, log, 3_600_000);
    expect(await autocheckpointPages()).toBe(0);
    const before = databaseFileBytes();
    await writeRows();
    // The commit left the rows in the log: the database file has not grown.
    expect(databaseFileBytes()).toBe(before);

    const copied = await checkpointer.checkpointNow();
    expect(copied.log).toBeGreaterThan(1_000);
    expect(copied.checkpointed).toBe(copied.log);
    expect(databaseFileBytes()).toBeGreaterThan(before + ROWS * 80);
    expect(Number(((await db('rows').count({ n: '*' }).first()) as { n: number }).n)).toBe(ROWS);
  });

  it('copies on its timer without being asked', async () => {
    checkpointer = await WalCheckpointer.start(db, filename, log, 20);
    const before = databaseFileBytes();
    await writeRows();
    const deadline = Date.now() + 30_000;
    while (databaseFileBytes() <= before + ROWS * 80) {
      if (Date.now() > deadline) throw new Error('the thread never copied the log');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Number(((await db('rows').count({ n: '*' }).first()) as { n: number }).n)).toBe(ROWS);
  });

  it("gives the copy back to the server's connection when the thread ends unasked", async () => {
    checkpointer = await WalCheckpointer.start(db, filename, log, 3_600_000);
    expect(await autocheckpointPages()).toBe(0);
    await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const deadline = Date.now() + 30_000;
    while ((await autocheckpointPages()) !== 1_000) {
      if (Date.now() > deadline) throw new Error('inline checkpoints never came back');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await expect(checkpointer.checkpointNow()).rejects.toThrow();
    checkpointer = null;
    // The server's own commit checkpoints again.
    const before = databaseFileBytes();
    await writeRows();
    expect(databaseFileBytes()).toBeGreaterThan(before);
  });
});
