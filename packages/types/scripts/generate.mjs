// The types generator: packages/types/src/schema.d.ts, openapi-typescript's types of the bundled contract, made
// on a thread of its own (./types-thread.mjs).
import { Worker } from "node:worker_threads";
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";

const TYPES_FILE = "packages/types/src/schema.d.ts";

let thread;
let next = 0;
const waiting = new Map();

/** The thread, started (and openapi-typescript loading there) on first use. */
function started() {
  if (!thread) {
    thread = new Worker(new URL("./types-thread.mjs", import.meta.url));
    thread.on("message", ({ id, text, error }) => {
      const { resolve, reject } = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) thread.unref();
      if (error === undefined) resolve(text);
      else reject(new Error(`openapi-typescript failed: ${error}`));
    });
    thread.on("error", (error) => {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
      thread = undefined;
    });
    // After the listeners: a 'message' listener refs the thread's port again, and a thread started by
    // prepare() but never used (the types cached) would keep the process from exiting.
    thread.unref();
  }
  return thread;
}

/** The types of `doc`, from the thread. */
function typesOf(doc) {
  started();
  const id = next++;
  // Kept alive while an answer is awaited, and no longer.
  thread.ref();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    // Sent as a copy: openapi-typescript changes the document it is handed (a `const` becomes an `enum`), and
    // the docs page reads this same document.
    thread.postMessage({ id, doc });
  });
}

export const typesGenerator = {
  name: "types",
  inputs: ["bundle"],
  outputs: [TYPES_FILE],
  // The types are the bundle's alone, with this code: the cache of scripts/generate-cache.mjs keys on them.
  reads: [
    "packages/types/scripts/generate.mjs",
    "packages/types/scripts/types-thread.mjs",
    "packages/spec/scripts/generated-notice.mjs",
  ],
  // The bundle is being made anew: the types will be too, so the thread starts loading TypeScript meanwhile.
  prepare() {
    started();
  },
  async generate({ inputs }) {
    return { files: { [TYPES_FILE]: `// ${GENERATED_NOTICE}\n${await typesOf(inputs.bundle.doc)}` } };
  },
};
