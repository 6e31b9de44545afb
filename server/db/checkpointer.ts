import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { logDatabaseFault } from "./faults";

/**
 * SQLite's WAL checkpoints, off the event loop (decision 050). By default the connection that commits past 1,000 WAL
 * pages copies them into the database file and syncs it, inside that COMMIT: at the counter one group in ten waited
 * 10–30 ms for it, and every answer of the group with it. A worker thread with a connection of its own copies what
 * was committed every CHECKPOINT_EVERY_MS (PASSIVE: it waits for no reader or writer). Once the server serves
 * (`startServing`), the writer's own checkpoint waits for WRITER_CHECKPOINT_PAGES: it bounds the WAL when the worker
 * falls behind, and it restarts the WAL from its beginning, which SQLite does only for a writer that finds every page
 * copied, a moment a busy writer rarely leaves the worker; by then the worker has copied all but the last few
 * milliseconds.
 */
export const CHECKPOINT_EVERY_MS = 25;
export const WRITER_CHECKPOINT_PAGES = 10_000;

// CommonJS run by the worker: better-sqlite3 is loaded by the path the server resolved, so the worker needs no
// module of ours (the server is one bundle).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma("synchronous = FULL");
let failed = false;
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    failed = false;
  } catch (error) {
    if (!failed) parentPort.postMessage({ code: error && error.code, message: String(error && error.message || error) });
    failed = true;
  }
}, workerData.everyMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, path, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref();
  // With its SQLite code, so a full disk is logged as one (存储空间不足) whichever connection meets it first.
  worker.on("message", ({ code, message }: { code?: string; message: string }) => logDatabaseFault(Object.assign(new Error(`WAL 检查点：${message}`), { code })));
  worker.on("error", (error) => logDatabaseFault(error));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    stop: async () => {
      // Unreferenced, the worker would not keep the process alive while it is awaited: a script whose last work is
      // closing the database would end there, before whatever follows the close.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
