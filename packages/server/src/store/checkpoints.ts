// WAL checkpoints of a SQLite file on a thread of their own. SQLite checkpoints in the connection whose
// commit grows the WAL past 1,000 frames: that commit copies the frames into the database file and syncs
// both files (synchronous = NORMAL syncs at checkpoints only). On the write thread that was most of the
// commit time: under a load of creates the median group commit took 0.5 ms, every checkpointing one 30 ms
// and up to 200 ms, some 60-80% of all commit time. Here, once a commit leaves CHECKPOINT_FRAMES frames
// uncopied, it wakes a checkpoint thread that runs the PASSIVE checkpoint instead (it copies what is
// committed without taking the write lock, so writes go on meanwhile). The writing connections keep SQLite's
// own checkpoint as a backstop, far out, for when the WAL cannot start over because writes never pause (see
// BACKSTOP_FRAMES). A kill loses nothing either way: every commit is in the WAL, which the next open replays.
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { Worker } from "node:worker_threads";
import { threadScript } from "./thread-script.js";

/** The checkpoint thread checkpoints once this many frames wait to be copied: SQLite's own default. */
export const CHECKPOINT_FRAMES = 1000;
/**
 * The writing connections' own automatic checkpoint, in WAL frames (40 MB at 4 KiB pages). A WAL starts over
 * from its beginning only when a write transaction begins while every frame in it has been copied; a write
 * thread that commits group after group gives the checkpoint thread no such moment, so past this size the
 * committing connection checkpoints (and the WAL starts over) as it did at 1,000 frames before.
 */
export const BACKSTOP_FRAMES = 10_000;

/** Slots of the shared counters: checkpoints asked for, whether one runs, whether the thread is to stop. */
const ASKED = 0;
const RUNNING = 1;
const STOP = 2;

/**
 * Who checkpoints a SQLite file's WAL, per store: "commit" (SQLite's way, the default); "thread": a
 * checkpoint thread this store starts and pokes after each commit, its connections only past
 * BACKSTOP_FRAMES; "backstop": only past BACKSTOP_FRAMES (another store of the process runs the thread).
 */
export type CheckpointMode = "commit" | "thread" | "backstop";

export interface CheckpointThread {
  /**
   * Called after each commit: wakes the thread when CHECKPOINT_FRAMES frames wait and no checkpoint runs.
   * Reading the wal-index costs a read of 100 bytes; waking the thread after every commit cost more.
   */
  committed(): void;
  close(): Promise<void>;
}

/**
 * The checkpoint thread of the SQLite file `file`, which is in WAL mode and open (its wal-index file exists
 * while a connection is open). `warn`: where its failures go. The thread itself starts with the first
 * checkpoint asked for: a server that has not written CHECKPOINT_FRAMES frames yet (one that only reads, or
 * was just started) does not hold a thread's isolate and connection for nothing.
 */
export function checkpointThread(file: string, warn: (message: string) => void): CheckpointThread {
  const signal = new Int32Array(new SharedArrayBuffer(12));
  const index = openSync(`${file}-shm`, "r");
  const header = Buffer.alloc(WAL_INDEX_BYTES);
  let exited: Promise<void> | undefined;
  /** Starts the thread: its loop runs the checkpoints asked for before it began (see checkpointLoop). */
  const start = () => {
    const thread = new Worker(threadScript("store/checkpoint-thread"), { workerData: { file, signal } });
    thread.on("message", (message: { failed: string }) =>
      warn(`store: WAL checkpoint failed: ${message.failed}`),
    );
    thread.on("error", (error) => warn(`store: the checkpoint thread stopped: ${error.message}`));
    // The thread must not keep the process alive: the store's close() stops it, an exit does not wait for it.
    thread.unref();
    exited = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
  };
  return {
    committed() {
      if (Atomics.load(signal, RUNNING) !== 0) return;
      const read = readSync(index, header, 0, WAL_INDEX_BYTES, 0);
      if (read < WAL_INDEX_BYTES || (pendingFrames(header) ?? 0) < CHECKPOINT_FRAMES) return;
      Atomics.store(signal, RUNNING, 1);
      Atomics.add(signal, ASKED, 1);
      if (exited) Atomics.notify(signal, ASKED);
      else start();
    },
    async close() {
      Atomics.store(signal, STOP, 1);
      Atomics.notify(signal, ASKED);
      await exited;
      closeSync(index);
    },
  };
}

/**
 * The checkpoint thread's loop (./checkpoint-thread.ts): waits until a checkpoint is asked for, runs it,
 * says it is done; returns when told to stop. (The thread blocks in Atomics.wait: it has nothing else to do.)
 */
export function checkpointLoop(signal: Int32Array, checkpoint: () => void): void {
  // From 0, the count the thread was started with: a checkpoint asked for while it was starting is run.
  let seen = 0;
  while (Atomics.load(signal, STOP) === 0) {
    Atomics.wait(signal, ASKED, seen);
    seen = Atomics.load(signal, ASKED);
    if (Atomics.load(signal, STOP) !== 0) return;
    try {
      checkpoint();
    } finally {
      Atomics.store(signal, RUNNING, 0);
    }
  }
}

/** Bytes of the wal-index header read: two copies of WalIndexHdr (48 bytes each), then nBackfill. */
export const WAL_INDEX_BYTES = 100;

/**
 * How many frames of the WAL are not yet copied into the database file, read from the start of its
 * wal-index (the `-shm` file), as https://www.sqlite.org/walformat.html lays it out: the header twice (a
 * writer changes the first copy, then the second; a reader that finds them different read while a writer
 * wrote), mxFrame at byte 16, nBackfill at byte 96, in the machine's byte order. SQLite has no call that
 * says it without checkpointing (its WAL hook, which does, is not in better-sqlite3). Undefined when the
 * copies differ or the header is not one this layout describes (version 3007000).
 */
export function pendingFrames(index: Buffer): number | undefined {
  if (index.length < WAL_INDEX_BYTES) return undefined;
  const u32 = (offset: number) =>
    endianness() === "LE" ? index.readUInt32LE(offset) : index.readUInt32BE(offset);
  if (u32(0) !== 3007000 || !index.subarray(0, 48).equals(index.subarray(48, 96))) return undefined;
  const maxFrame = u32(16);
  const backfilled = u32(96);
  return maxFrame >= backfilled ? maxFrame - backfilled : undefined;
}
