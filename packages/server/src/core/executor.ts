// The one way an operation runs, whoever asks for it: a route (../http/routes.ts), the seed (../seed/calls.ts)
// and the write thread (../write-thread/thread.ts). It is handed what arrived (./input.ts) and, in order: checks
// the input against the contract, which also applies its defaults; runs the handler with the context built
// here, a write in one transaction; checks the answer against the contract when answers are validated. A write
// on a SQLite file is sent to the write thread instead, whose own executor does the same there.
import type { Snapshot } from "../store/changes.js";
import type { Store } from "../store/types.js";
import type { AnswerCache } from "./answers.js";
import type { Authenticated } from "./auth.js";
import { contextFor, type RequestFacts } from "./context.js";
import type { Operation } from "./contract.js";
import { type Handlers, handlerTable } from "./handlers.js";
import { type Arrived, inputOf } from "./input.js";
import { JsonChunks } from "./json-text.js";
import type { SandboxServices } from "./sandbox-settings.js";

/** Where writes run when not in this thread: ../write-thread/ (on a SQLite file). */
export interface WriteThread {
  /** Runs the write `operation` there, from what arrived; its answer, or the error it threw. */
  run(operation: Operation, caller: Authenticated, facts: RequestFacts, arrived: Arrived): Promise<unknown>;
  /** Waits for the writes under way, then stops the thread. */
  close(): Promise<void>;
}

export interface ExecutorOptions {
  store: Store;
  handlers: Partial<Handlers>;
  /** Where writes run; none: in this thread, on `store`. */
  writeThread?: WriteThread;
  /** Check every answer against the contract (development and tests). */
  validateResponses: boolean;
  /** Where answers that break the contract are recorded. */
  violations: string[];
  /** What the sandboxes' operations are handed (their settings, the demo data's seed). */
  sandboxes: SandboxServices;
  /** The answers of reads kept while what they read is unchanged (./answers.ts); none: every read runs. */
  answers?: AnswerCache;
  /**
   * Whether writes are being served where this executor runs them (the write thread counts those sent to
   * it); none: whether this executor is running any. Spare sandboxes are made only while none is.
   */
  busy?: () => boolean;
}

export interface Executor {
  /** Whether an operation of this interface name has a handler. */
  has(name: string): boolean;
  /**
   * Runs `operation` for `caller` on the input that `arrived`, and answers its output. `committed`: what is
   * committed, as read during this request (a write run here may look up kept records under it).
   */
  run(
    operation: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    arrived: Arrived,
    committed?: Snapshot,
  ): Promise<unknown>;
  /**
   * Runs the GET `operation` whose query string is `query`: its kept answer when there is one (the same query
   * string is the same input, and it passed when it was kept). `committed`: what is committed, as read during
   * this request (read now when not given).
   */
  read(
    operation: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    query: string,
    committed?: Snapshot,
  ): Promise<unknown>;
  /** Waits for the writes under way (and stops the write thread, when there is one). */
  close(): Promise<void>;
}

export function createExecutor(options: ExecutorOptions): Executor {
  const { store, writeThread, validateResponses, violations, answers } = options;
  const handlers = handlerTable(options.handlers);
  /** The writes this executor is running (or has sent to the write thread) and has not answered. */
  let writing = 0;
  // Spares are kept by whichever executor runs writes on its own store: this one unless a write thread does.
  const spares = writeThread
    ? undefined
    : options.sandboxes.keepSpares?.(store, options.busy ?? (() => writing > 0));
  const sandboxes = spares ? { ...options.sandboxes, spares } : options.sandboxes;
  const checked = async (operation: Operation, answer: unknown) => {
    // Checked whole, then sent whole (development and tests only: production sends chunks as they come).
    const output = validateResponses && answer instanceof JsonChunks ? await answer.whole() : answer;
    if (validateResponses) {
      const mismatch = operation.checkResponse(operation.successStatus, output);
      if (mismatch) {
        violations.push(`${operation.operationId} ${operation.successStatus}: ${mismatch}`);
        throw new Error(`answer of ${operation.operationId} breaks the contract: ${mismatch}`);
      }
    }
    return output;
  };
  /** Runs the handler on `on`: a write in one transaction (every row it touches changes, or none). */
  const handle = (
    on: Store,
    operation: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    input: unknown,
    committed?: Snapshot,
  ) => {
    const handler = handlers.get(operation.name);
    if (!handler) throw new Error(`no handler for ${operation.name}`);
    if (operation.safe) return handler(contextFor(on, caller, operation, facts, sandboxes), input);
    const run = (tx: Store) => handler(contextFor(tx, caller, operation, facts, sandboxes), input);
    return on.transaction(run, committed);
  };
  const here = async (
    op: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    arrived: Arrived,
    at?: Snapshot,
  ) => handle(store, op, caller, facts, inputOf(op, arrived), at);
  const executor: Executor = {
    has: (name) => handlers.has(name),
    async run(operation, caller, facts, arrived, committed) {
      if (operation.safe) return checked(operation, await here(operation, caller, facts, arrived));
      writing++;
      try {
        const output = writeThread
          ? await writeThread.run(operation, caller, facts, arrived)
          : await here(operation, caller, facts, arrived, committed);
        return await checked(operation, output);
      } finally {
        writing--;
      }
    },
    async read(operation, caller, facts, query, committed) {
      if (!answers || !operation.safe) return executor.run(operation, caller, facts, { query });
      const key = answers.key(operation, caller, facts, query);
      const at = committed ?? (await answers.committed());
      const kept = answers.get(key, at) ?? (await answers.shared(key, at));
      if (kept) return kept;
      const input = inputOf(operation, { query });
      return answers.through(
        key,
        store,
        async (reading) => checked(operation, await handle(reading, operation, caller, facts, input)),
        at,
      );
    },
    close: async () => {
      await spares?.close();
      await writeThread?.close();
    },
  };
  return executor;
}
