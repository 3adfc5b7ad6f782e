// The write thread (see ./core/writes.ts): opens its own store on the SQLite file and runs each write it is
// sent, by the same handlers, contexts and transactions as the main thread would, answering each in turn.
import { parentPort, workerData } from "node:worker_threads";
import type { Authenticated } from "./core/auth.js";
import type { OperationHandler } from "./core/context.js";
import { theContract } from "./core/contract.js";
import { CallerKeys, callerOf, fromMessage, toAnswer, type WriteRequest, writesHere } from "./core/writes.js";
import { handlers } from "./operations/index.js";
import { openStore } from "./store/open.js";

if (!parentPort) throw new Error("write-worker.js runs as a worker thread of the server");
const port = parentPort;
const { dataDir, inFlight } = workerData as { dataDir: string; inFlight: Int32Array };
// Its commits are the server's writes: the WAL checkpoints they would run go to a thread of their own.
const store = await openStore({
  dataDir,
  checkpoints: "thread",
  writesInFlight: () => Atomics.load(inFlight, 0),
});
const operations = new Map(theContract().operations.map((op) => [op.name, op]));
// The same transaction and context a write gets in the main thread.
const writes = writesHere(store, handlers as unknown as Record<string, OperationHandler>);
const callers = new CallerKeys<Authenticated>();

/** A message carries a Buffer as a plain Uint8Array: uploaded files become Buffers again. */
function buffers(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  if (Array.isArray(value)) return value.map(buffers);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, buffers(inner)]));
  }
  return value;
}

port.on("message", async (message: WriteRequest | string) => {
  if (message === "close") {
    await store.close();
    port.close();
    return;
  }
  const { id, name, caller, facts, input } = fromMessage(message);
  let answer: ReturnType<typeof toAnswer>;
  try {
    // First: a caller that came with this message is kept whatever becomes of the write.
    const auth = callerOf(callers, caller);
    const operation = operations.get(name);
    if (!operation) throw new Error(`no operation ${name}`);
    const value = await writes.run(operation, auth, facts, buffers(input));
    answer = toAnswer(id, { value });
  } catch (error) {
    answer = toAnswer(id, { error });
  }
  try {
    port.postMessage(answer);
  } catch (error) {
    // An answer a message cannot carry is a fault of its handler: a 500, not a lost request.
    port.postMessage(toAnswer(id, { error }));
  } finally {
    Atomics.sub(inFlight, 0, 1);
  }
});
port.postMessage({ ready: true });
