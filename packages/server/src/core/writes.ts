// Where a write operation runs: its handler in one transaction of the store. On a SQLite file the server runs
// writes on a thread of their own (a worker with its own connections to the file), so that a write's
// statements and its COMMIT do not hold the event loop that serves every read: one writer looping creates
// took half of the readers' capacity on one loop. Everywhere else (PostgreSQL, whose work is in its own
// processes; an in-memory database, which lives on one connection) writes run in this thread.
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { ErrorType } from "@workapi/types";
import { type Store, StoreError } from "../store/types.js";
import { workerScript } from "../worker-script.js";
import type { Authenticated } from "./auth.js";
import type { RequestFacts } from "./context.js";
import { ApiError, apiError } from "./errors.js";
import { type Handlers, runHandler, type Writes } from "./executor.js";
import { JsonText } from "./json-text.js";

/** The start times of the writes waiting for their answers, oldest first (a Map keeps insertion order). */
class Waiting<T> extends Map<number, T & { since: number }> {
  oldestWaitMs(): number {
    for (const { since } of this.values()) return performance.now() - since;
    return 0;
  }
}

/** Writes run by their handlers on `store`, in this thread. */
export function writesHere(store: Store, handlers: Handlers): Writes {
  const waiting = new Waiting<object>();
  let next = 0;
  return {
    async run(operation, caller, facts, input) {
      const id = next++;
      waiting.set(id, { since: performance.now() });
      try {
        return await runHandler(store, handlers, operation, caller, facts, input);
      } finally {
        waiting.delete(id);
      }
    },
    oldestWaitMs: () => waiting.oldestWaitMs(),
    close: async () => {},
  };
}

/** A write sent to the write thread. */
export interface WriteRequest {
  id: number;
  name: string;
  /** The caller, by the key the thread keeps it under; with the caller itself when the thread has not got it. */
  caller: { key: number; auth?: Authenticated };
  facts: RequestFacts;
  input: unknown;
}

/** How many callers the write thread keeps: a few MB at most (an admin token carries some 90 scopes). */
export const KEPT_CALLERS = 1000;

/**
 * The callers the write thread keeps, by key, the oldest dropped past `size`. A caller travels with its first
 * write only: printing and parsing an admin token's 90 scopes in every message was a tenth of a create's work
 * in the two threads. The thread keeps them in a `CallerKeys` too, and both take them in the same order (the
 * messages'), so the sending side knows which the thread still has without being told.
 */
export class CallerKeys<T> {
  readonly #kept = new Map<number, T>();
  constructor(private readonly size = KEPT_CALLERS) {}
  has(key: number): boolean {
    return this.#kept.has(key);
  }
  get(key: number): T | undefined {
    return this.#kept.get(key);
  }
  keep(key: number, value: T): void {
    this.#kept.set(key, value);
    if (this.#kept.size > this.size) this.#kept.delete(this.#kept.keys().next().value as number);
  }
}

/**
 * The sending side: a caller's key, by its token record, which the credentials cache keeps (with the
 * caller's organization and user) until a credential changes. A fresh read of the credentials is a new
 * record, so a caller is never sent by the key of an older one.
 */
export class CallerSender {
  readonly #keys = new WeakMap<object, number>();
  readonly #sent: CallerKeys<true>;
  #next = 0;
  /** `size`: as many as the thread keeps. */
  constructor(size = KEPT_CALLERS) {
    this.#sent = new CallerKeys<true>(size);
  }
  toSend(auth: Authenticated): WriteRequest["caller"] {
    const key = this.#keys.get(auth.token);
    if (key !== undefined && this.#sent.has(key)) return { key };
    const fresh = this.#next++;
    this.#keys.set(auth.token, fresh);
    this.#sent.keep(fresh, true);
    return { key: fresh, auth };
  }
  /**
   * The message that carried `auth` was not sent: its next write carries it again. (The key it had stays
   * counted here, so this side drops keys no later than the thread does, never after it.)
   */
  notSent(auth: Authenticated): void {
    this.#keys.delete(auth.token);
  }
}

/** The receiving side (the write thread): the caller of a request, kept when it came with it. */
export function callerOf(
  kept: CallerKeys<Authenticated>,
  { key, auth }: WriteRequest["caller"],
): Authenticated {
  if (auth) {
    kept.keep(key, auth);
    return auth;
  }
  const known = kept.get(key);
  // The two sides keep the same keys; a miss is a fault of this code, answered as one (a 500).
  if (!known) throw new Error(`the write thread does not hold caller ${key}`);
  return known;
}

/** The write thread's answer: the handler's answer, or the error it threw, in a form a message carries. */
export type WriteAnswer = { id: number } & (
  | { kind: "value"; value: unknown }
  | { kind: "json"; body: string | Uint8Array }
  | {
      kind: "api-error";
      type: ErrorType;
      detail: string;
      extras: Record<string, unknown>;
      status: number;
      headers: Record<string, string>;
    }
  | { kind: "store-error"; code: StoreError["code"]; message: string; field: string | undefined }
  | { kind: "error"; name: string; message: string; stack: string | undefined }
);

/** The message of an answer or a thrown error (the write thread's side). */
export function toAnswer(id: number, outcome: { value: unknown } | { error: unknown }): WriteAnswer {
  if ("value" in outcome) {
    const { value } = outcome;
    return value instanceof JsonText ? { id, kind: "json", body: value.body } : { id, kind: "value", value };
  }
  const { error } = outcome;
  if (error instanceof ApiError) {
    // The title comes from the catalogue again on this thread's side; only the detail travels.
    const { type, detail, extras, status, headers } = error;
    return { id, kind: "api-error", type, detail, extras, status, headers };
  }
  if (error instanceof StoreError) {
    return { id, kind: "store-error", code: error.code, message: error.message, field: error.field };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return { id, kind: "error", name: plain.name, message: plain.message, stack: plain.stack };
}

/**
 * A write request as the message that carries it: its JSON, except for a form's (its files are bytes). Posting
 * a string cost the main thread about a third of cloning the request's objects (35 against 112 µs for a
 * works.create that carried an admin token's 90 scopes, before callers travelled once: see CallerKeys), and
 * the main thread serves every request.
 */
export function toMessage(request: WriteRequest, form: boolean): WriteRequest | string {
  return form ? request : JSON.stringify(request);
}

/** The write request a message carries (the write thread's side). */
export function fromMessage(message: WriteRequest | string): WriteRequest {
  return typeof message === "string" ? (JSON.parse(message) as WriteRequest) : message;
}

/** The answer again, or the error to throw (this thread's side). */
export function fromAnswer(answer: WriteAnswer): { value: unknown } | { error: Error } {
  switch (answer.kind) {
    case "value":
      return { value: answer.value };
    case "json":
      return {
        value: new JsonText(typeof answer.body === "string" ? answer.body : Buffer.from(answer.body)),
      };
    case "api-error":
      return {
        error: apiError(answer.type, answer.detail, answer.extras)
          .withStatus(answer.status)
          .withHeaders(answer.headers),
      };
    case "store-error":
      return { error: new StoreError(answer.code, answer.message, answer.field) };
    default: {
      const error = new Error(answer.message);
      error.name = answer.name;
      // The thread's stack: the log of a 500 says where it failed there.
      if (answer.stack) error.stack = answer.stack;
      return { error };
    }
  }
}

/**
 * Writes run on a thread of their own, over its own connections to the SQLite file in `dataDir`. The thread
 * starts alongside: reads are served at once, and a write that comes before it is ready waits for it.
 */
export function writesOnThread(dataDir: string): Writes {
  // The writes sent and not yet answered, counted here and there: the thread's group commits split them.
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerScript("write-worker"), { workerData: { dataDir, inFlight } });
  const pending = new Waiting<{ resolve: (value: unknown) => void; reject: (error: Error) => void }>();
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
    worker.once("message", () => resolve());
    worker.once("error", reject);
    worker.once("exit", () => reject(new Error("the write thread stopped before it was ready")));
  });
  ready.catch(() => {}); // a write waiting for it gets the failure; nothing else waits
  worker.on("message", (answer: WriteAnswer | { ready: true }) => {
    if ("ready" in answer) return;
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    const outcome = fromAnswer(answer);
    if ("value" in outcome) waiting.resolve(outcome.value);
    else waiting.reject(outcome.error);
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`the write thread stopped (exit code ${code})`)));
  return {
    async run(operation, auth, facts, input) {
      await ready;
      if (failure) throw failure;
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, since: performance.now() });
        Atomics.add(inFlight, 0, 1);
        const caller = callers.toSend(auth);
        try {
          worker.postMessage(toMessage({ id, name: operation.name, caller, facts, input }, operation.form));
        } catch (error) {
          // Not sent (an input a message cannot carry): nothing of it is counted or waited for.
          pending.delete(id);
          Atomics.sub(inFlight, 0, 1);
          if (caller.auth) callers.notSent(auth);
          throw error;
        }
      });
    },
    oldestWaitMs: () => pending.oldestWaitMs(),
    async close() {
      await ready.catch(() => {});
      // The writes sent are answered before the thread is told to close (messages arrive in order, but a
      // close would not wait for the transactions already running there).
      while (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      if (failure) return;
      worker.postMessage("close");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}
