// The write thread (see ./sender.ts): opens its own store on the SQLite file and runs each write it is sent
// with its own executor (../core/executor.ts), the one every operation runs through: the input checked and the
// handler run in one transaction, as the main thread would; it answers each in turn.
import { parentPort, workerData } from "node:worker_threads";
import type { Authenticated } from "../core/auth.js";
import { theContract } from "../core/contract.js";
import { createExecutor } from "../core/executor.js";
import type { SandboxSettings } from "../core/sandbox-settings.js";
import { handlers } from "../operations/index.js";
import { sandboxServices } from "../seed/index.js";
import { openStore } from "../store/open.js";
import { CallerKeys, callerOf, fromMessage, toAnswer, type WriteRequest } from "./messages.js";

if (!parentPort) throw new Error("write-thread/thread.js runs as a thread of the server");
const port = parentPort;
const { dataDir, inFlight, sandboxSettings } = workerData as {
  dataDir: string;
  inFlight: Int32Array;
  sandboxSettings: SandboxSettings;
};
// Its commits are the server's writes: the WAL checkpoints they would run go to a thread of their own.
const store = await openStore({
  dataDir,
  checkpoints: "thread",
  writesInFlight: () => Atomics.load(inFlight, 0),
});
const operations = new Map(theContract().operations.map((op) => [op.name, op]));
// Answers are checked against the contract by the main thread's executor, which gets them from here.
// The seed a seeded sandbox's template needs is handed to the operations here, this thread's composition root.
const executor = createExecutor({
  store,
  handlers,
  validateResponses: false,
  violations: [],
  sandboxes: sandboxServices(sandboxSettings),
  // Busy while the main thread has writes sent here and not answered (spares wait for none).
  busy: () => Atomics.load(inFlight, 0) > 0,
});
const callers = new CallerKeys<Authenticated>();

port.on("message", async (message: WriteRequest | string) => {
  if (message === "close") {
    await executor.close();
    await store.close();
    port.close();
    return;
  }
  const { id, name, caller, facts, arrived } = fromMessage(message);
  let answer: ReturnType<typeof toAnswer>;
  try {
    // First: a caller that came with this message is kept whatever becomes of the write.
    const auth = callerOf(callers, caller);
    const operation = operations.get(name);
    if (!operation) throw new Error(`no operation ${name}`);
    answer = toAnswer(id, { value: await executor.run(operation, auth, facts, arrived) });
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
