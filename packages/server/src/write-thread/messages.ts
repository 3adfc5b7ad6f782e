// What crosses between the main thread and the write thread (./thread.ts), and how: a write as the request's
// own text behind a line of JSON that names the operation, the caller and the request's facts; its answer, or
// the error it threw as the typed error it is answered with. Both sides use these functions.
import type { ErrorType } from "@workapi/types";
import type { Authenticated } from "../core/auth.js";
import type { RequestFacts } from "../core/context.js";
import { apiError, typedError } from "../core/errors.js";
import type { Arrived } from "../core/input.js";
import { JsonText } from "../core/json-text.js";

/** A write sent to the write thread. */
export interface WriteRequest {
  id: number;
  name: string;
  /** The caller, by the key the thread keeps it under; with the caller itself when the thread has not got it. */
  caller: { key: number; auth?: Authenticated };
  facts: RequestFacts;
  /** What the request carried, as the route read it: the thread's executor checks it. */
  arrived: Arrived;
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
  | { kind: "error"; name: string; message: string; stack: string | undefined }
);

/** The message of an answer or a thrown error (the write thread's side). */
export function toAnswer(id: number, outcome: { value: unknown } | { error: unknown }): WriteAnswer {
  if ("value" in outcome) {
    const { value } = outcome;
    return value instanceof JsonText ? { id, kind: "json", body: value.body } : { id, kind: "value", value };
  }
  const { error } = outcome;
  const typed = typedError(error);
  if (typed) {
    // The title comes from the catalogue again on the main thread's side; only the detail travels.
    const { type, detail, extras, status, headers } = typed;
    return { id, kind: "api-error", type, detail, extras, status, headers };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return { id, kind: "error", name: plain.name, message: plain.message, stack: plain.stack };
}

/**
 * A write request as the message that carries it: a line of JSON (all but what arrived), then the request's own
 * text (a JSON body's, or a query string), which the thread parses once. A form travels as it is (its files are
 * bytes). Posting a string cost the main thread about a third of cloning the request's objects (35 against
 * 112 µs for a works.create that carried an admin token's 90 scopes, before callers travelled once: see
 * CallerKeys), and the main thread serves every request.
 */
export function toMessage(request: WriteRequest): WriteRequest | string {
  const { arrived, ...header } = request;
  if ("form" in arrived) return request;
  const [kind, text] =
    "query" in arrived
      ? ["query", arrived.query]
      : ["json", "json" in arrived ? arrived.json : JSON.stringify(arrived.value)];
  // JSON.stringify writes no line break of its own: the first one ends the line of JSON.
  return `${JSON.stringify({ ...header, kind })}\n${text}`;
}

/** The write request a message carries (the write thread's side). */
export function fromMessage(message: WriteRequest | string): WriteRequest {
  if (typeof message !== "string") {
    const { arrived } = message;
    return "form" in arrived ? { ...message, arrived: { form: withBuffers(arrived.form) } } : message;
  }
  const end = message.indexOf("\n");
  const { kind, ...header } = JSON.parse(message.slice(0, end)) as Omit<WriteRequest, "arrived"> & {
    kind: "json" | "query";
  };
  const text = message.slice(end + 1);
  return { ...header, arrived: kind === "query" ? { query: text } : { json: text } };
}

/** A form's fields and files again: a message carries a Buffer as a plain Uint8Array. */
function withBuffers(form: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(form).map(([key, inner]) => [key, asBuffers(inner)]));
}

function asBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  if (Array.isArray(value)) return value.map(asBuffers);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asBuffers(inner)]));
  }
  return value;
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
    default: {
      const error = new Error(answer.message);
      error.name = answer.name;
      // The thread's stack: the log of a 500 says where it failed there.
      if (answer.stack) error.stack = answer.stack;
      return { error };
    }
  }
}
