// The main thread's side of ./checks-thread.mjs (@workapi/spec/generator-thread): started on first use, handed work.
import { generatorThread } from "@workapi/spec/generator-thread";

const thread = generatorThread(
  new URL("./checks-thread.mjs", import.meta.url),
  "the console's request checks did not compile",
);

/** Starts the thread (Ajv loading there), if it is not running. */
export function startChecksThread() {
  return thread.start();
}

/** The generated request-check modules of `components` and `schemas` ({ bodies, queries }), from the thread. */
export function compileChecks(components, schemas) {
  return thread.run({ components, schemas });
}
