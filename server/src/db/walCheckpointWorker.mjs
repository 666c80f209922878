// The thread that copies SQLite's write-ahead log into the database file (walCheckpointer.ts says
// why it is not the server's own thread). Plain JavaScript: it needs nothing but better-sqlite3, so
// it starts without registering tsx.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ filename: string; intervalMs: number }} */
const { filename, intervalMs } = workerData;
const db = new Database(filename, { fileMustExist: true });
const port = parentPort;
if (!port) throw new Error('walCheckpointWorker runs only as a worker thread');

/**
 * PASSIVE copies what no reader still needs and never waits for the server's connection, which
 * goes on writing meanwhile; frames left behind are copied at the next turn.
 * @param {number | null} request the id of a checkpoint asked for, or null for the timer's
 */
function checkpoint(request) {
  try {
    const [result] = /** @type {{ busy: number; log: number; checkpointed: number }[]} */ (db.pragma('wal_checkpoint(PASSIVE)'));
    // The timer's turns are not reported: the log keeps its frames until the next write restarts
    // it, so they would wake the server's thread four times a second for nothing.
    if (request !== null) port.postMessage({ type: 'checkpointed', request, log: result?.log ?? 0, checkpointed: result?.checkpointed ?? 0 });
  } catch (error) {
    port.postMessage({ type: 'failed', request, message: error instanceof Error ? error.message : String(error) });
  }
}

const timer = setInterval(() => checkpoint(null), intervalMs);
port.on('message', (/** @type {{ type: 'checkpoint'; request: number } | { type: 'stop' }} */ message) => {
  if (message.type === 'checkpoint') {
    checkpoint(message.request);
    return;
  }
  clearInterval(timer);
  checkpoint(null);
  db.close();
  port.close();
});
