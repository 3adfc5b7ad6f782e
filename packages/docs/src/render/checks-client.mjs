// The main thread's side of ./checks-thread.mjs: starts the thread on first use and hands it work.
import { Worker } from "node:worker_threads";

let thread;
let next = 0;
const waiting = new Map();

/** Starts the thread (Ajv loading there), if it is not running. */
export function startChecksThread() {
  if (thread) return thread;
  thread = new Worker(new URL("./checks-thread.mjs", import.meta.url));
  thread.on("message", ({ id, modules, error }) => {
    const { resolve, reject } = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) thread.unref();
    if (error === undefined) resolve(modules);
    else reject(new Error(`the console's request checks did not compile: ${error}`));
  });
  thread.on("error", (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    thread = undefined;
  });
  // After the listeners: a 'message' listener refs the thread's port again, and a thread started by prepare()
  // but never used (its generator cached) kept the process from exiting.
  thread.unref();
  return thread;
}

/** The generated request-check modules of `components` and `schemas` ({ bodies, queries }), from the thread. */
export function compileChecks(components, schemas) {
  startChecksThread();
  const id = next++;
  // Kept alive while an answer is awaited, and no longer.
  thread.ref();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thread.postMessage({ id, components, schemas });
  });
}
