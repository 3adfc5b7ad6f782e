// The one way an operation runs, whoever asks for it: a route (../http/routes.ts), the seed (../seed/calls.ts)
// and, for the part it does there, the write thread (../write-worker.ts). In order: the input is checked
// against the contract, which also applies its defaults (a route checks the query or body as it arrived,
// before it is reshaped, and says so); the handler runs with the context built here, a write in one
// transaction (on the write thread where there is one); the answer is checked against the contract when
// answers are validated.
import type { Snapshot } from "../store/changes.js";
import type { Store } from "../store/types.js";
import type { AnswerCache } from "./answers.js";
import type { Authenticated } from "./auth.js";
import { contextFor, type OperationHandler, type RequestFacts } from "./context.js";
import { type Operation, requireStorableStrings } from "./contract.js";
import { JsonChunks } from "./json-text.js";

export type Handlers = Record<string, OperationHandler>;

/** Where writes run: ./writes.ts (in this thread, or on the write thread). */
export interface Writes {
  /** Runs the write `operation` for `caller` in one transaction; its answer, or the error it threw. */
  run(operation: Operation, caller: Authenticated, facts: RequestFacts, input: unknown): Promise<unknown>;
  /** How long (ms) the oldest write still waiting for its answer has waited; 0 when none waits. */
  oldestWaitMs(): number;
  /** Waits for the writes under way, then stops (the write thread, when there is one). */
  close(): Promise<void>;
}

export interface ExecutorOptions {
  store: Store;
  handlers: Handlers;
  writes: Writes;
  /** Check every answer against the contract (development and tests). */
  validateResponses: boolean;
  /** Where answers that break the contract are recorded. */
  violations: string[];
  /** The answers of reads kept while what they read is unchanged (./answers.ts); none: every read runs. */
  answers?: AnswerCache;
}

export interface Executor {
  /** Whether an operation of this interface name has a handler. */
  has(name: string): boolean;
  /**
   * Runs `operation` for `caller` and answers its output. `inputChecked`: the caller (a route) already
   * checked the input against the contract, in the form it arrived in.
   */
  run(
    operation: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    input: unknown,
    inputChecked?: boolean,
  ): Promise<unknown>;
  /**
   * Runs the GET `operation` whose query string is `query` and whose input `input` reads and checks (only
   * when the answer is not kept: the same query string is the same input, and it passed when it was kept).
   * `committed`: what is committed, as read during this request (read now when not given).
   */
  read(
    operation: Operation,
    caller: Authenticated,
    facts: RequestFacts,
    query: string,
    input: () => Promise<unknown>,
    committed?: Snapshot,
  ): Promise<unknown>;
}

export function createExecutor(options: ExecutorOptions): Executor {
  const { store, handlers, writes, validateResponses, violations, answers } = options;
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
  const executor: Executor = {
    has: (name) => handlers[name] !== undefined,
    async run(operation, caller, facts, input, inputChecked = false) {
      if (!inputChecked) checkInput(operation, input);
      const output = operation.safe
        ? await runHandler(store, handlers, operation, caller, facts, input)
        : await writes.run(operation, caller, facts, input);
      return checked(operation, output);
    },
    async read(operation, caller, facts, query, input, committed) {
      if (!answers || !operation.safe) return executor.run(operation, caller, facts, await input(), true);
      const key = answers.key(operation, caller, facts, query);
      const at = committed ?? (await answers.committed());
      const kept = answers.get(key, at);
      if (kept) return kept;
      const value = await input();
      return answers.through(
        key,
        store,
        async (reading) =>
          checked(operation, await runHandler(reading, handlers, operation, caller, facts, value)),
        at,
      );
    },
  };
  return executor;
}

/** The contract's check of an input (defaults applied); a form's fields are checked by its handler. */
function checkInput(operation: Operation, input: unknown): void {
  if (operation.form) requireStorableStrings(input, false);
  else operation.validateInput(input);
}

/** Runs the operation's handler on `store`: a write in one transaction (every row it touches changes, or none). */
export function runHandler(
  store: Store,
  handlers: Handlers,
  operation: Operation,
  caller: Authenticated,
  facts: RequestFacts,
  input: unknown,
): Promise<unknown> {
  const handler = handlers[operation.name];
  if (!handler) throw new Error(`no handler for ${operation.name}`);
  if (operation.safe) return handler(contextFor(store, caller, operation, facts), input);
  return store.transaction((tx) => handler(contextFor(tx, caller, operation, facts), input));
}
