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

/**
 * The generated request-check module of one `part` ('bodies' or 'queries') of checkedSchemas, { components,
 * schemas }, from the thread: { name, source }.
 */
export function compileChecks(part, { components, schemas }) {
  return thread.run({ part, components, schemas });
}
