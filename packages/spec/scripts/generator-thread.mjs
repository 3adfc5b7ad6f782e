// The main thread's side of a generator's worker thread (the types' openapi-typescript, the docs' request
// checks): the thread starts on first use, so its libraries load while other work goes on; each piece of work
// is one message, answered by id; and the thread keeps the process alive only while an answer is awaited.
import { Worker } from "node:worker_threads";

/**
 * The thread of the script at `url`. It is sent `{ id, ...message }` and answers `{ id, value }`, or
 * `{ id, error }` with the failure's text, which rejects as `<failed>: <error>`.
 */
export function generatorThread(url, failed) {
  let thread;
  let next = 0;
  const waiting = new Map();
  /** The thread, started if it is not running. */
  const start = () => {
    if (thread) return thread;
    thread = new Worker(url);
    thread.on("message", ({ id, value, error }) => {
      const { resolve, reject } = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) thread.unref();
      if (error === undefined) resolve(value);
      else reject(new Error(`${failed}: ${error}`));
    });
    thread.on("error", (error) => {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
      thread = undefined;
    });
    // After the listeners: a 'message' listener refs the thread's port again, and a thread started by a
    // generator's prepare() but never used (its outputs cached) would keep the process from exiting.
    thread.unref();
    return thread;
  };
  return {
    start,
    /** The thread's answer to `message`. */
    run(message) {
      const worker = start();
      const id = next++;
      // Kept alive while an answer is awaited, and no longer.
      worker.ref();
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, ...message });
      });
    },
  };
}
