// The checkpoint thread (see ./checkpoints.ts): its own connection to the SQLite file, which copies
// committed WAL frames into the database file when a commit asks for it, so that the writing connection
// need not.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { checkpointLoop } from "./checkpoints.js";

if (!parentPort) throw new Error("store/checkpoint-thread.js runs as a thread of the server");
const port = parentPort;
const { file, signal } = workerData as { file: string; signal: Int32Array };
const db = new Database(file);
// A PASSIVE checkpoint never waits for a lock; this is for opening the connection.
db.pragma("busy_timeout = 5000");
// This connection writes nothing, so it commits nothing: it checkpoints only when asked to below.
const checkpoint = db.prepare("pragma wal_checkpoint(passive)");
try {
  checkpointLoop(signal, () => {
    try {
      checkpoint.run();
    } catch (error) {
      // The next commit past the mark asks again; the writers' backstop bounds the WAL meanwhile.
      port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
    }
  });
} finally {
  db.close();
}
