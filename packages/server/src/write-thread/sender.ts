// The main thread's side of the write thread. On a SQLite file the server runs writes on a thread of their own
// (./thread.ts, with its own connections to the file), so that a write's statements and its COMMIT do not hold
// the event loop that serves every read: one writer looping creates took half of the readers' capacity on one
// loop. Everywhere else (PostgreSQL, whose work is in its own processes; an in-memory database, which lives on
// one connection) the executor runs writes in this thread.
import { Worker } from "node:worker_threads";
import type { WriteThread } from "../core/executor.js";
import type { SandboxSettings } from "../core/sandbox-settings.js";
import { threadScript } from "../store/thread-script.js";
import { CallerSender, fromAnswer, toMessage, type WriteAnswer } from "./messages.js";

/**
 * Writes run on a thread of their own, over its own connections to the SQLite file in `dataDir`. The thread
 * starts alongside: reads are served at once, and a write that comes before it is ready waits for it.
 */
export function startWriteThread(dataDir: string, sandboxSettings: SandboxSettings): WriteThread {
  // The writes sent and not yet answered, counted here and there: the thread's group commits split them.
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const thread = new Worker(threadScript("write-thread/thread"), {
    // The thread runs the sandboxes' creates: it is given their settings, as it reads no environment.
    workerData: { dataDir, inFlight, sandboxSettings },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const callers = new CallerSender();
  let next = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  // Answered when its store is open: a `ready` message (migrations ran in the main thread before).
  const ready = new Promise<void>((resolve, reject) => {
    thread.once("message", () => resolve());
    thread.once("error", reject);
    thread.once("exit", () => reject(new Error("the write thread stopped before it was ready")));
  });
  ready.catch(() => {}); // a write waiting for it gets the failure; nothing else waits
  thread.on("message", (answer: WriteAnswer | { ready: true }) => {
    if ("ready" in answer) return;
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    const outcome = fromAnswer(answer);
    if ("value" in outcome) waiting.resolve(outcome.value);
    else waiting.reject(outcome.error);
  });
  thread.on("error", (error) => failAll(error));
  thread.on("exit", (code) => failAll(new Error(`the write thread stopped (exit code ${code})`)));
  return {
    async run(operation, auth, facts, arrived) {
      await ready;
      if (failure) throw failure;
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        Atomics.add(inFlight, 0, 1);
        const caller = callers.toSend(auth);
        try {
          thread.postMessage(toMessage({ id, name: operation.name, caller, facts, arrived }));
        } catch (error) {
          // Not sent (a form a message cannot carry): nothing of it is counted or waited for.
          pending.delete(id);
          Atomics.sub(inFlight, 0, 1);
          if (caller.auth) callers.notSent(auth);
          throw error;
        }
      });
    },
    async close() {
      await ready.catch(() => {});
      // The writes sent are answered before the thread is told to close (messages arrive in order, but a
      // close would not wait for the transactions already running there).
      while (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      if (failure) return;
      thread.postMessage("close");
      await new Promise((resolve) => thread.once("exit", resolve));
    },
  };
}
