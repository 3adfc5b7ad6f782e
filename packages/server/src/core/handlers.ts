// The one handler type: what a handler sees and what it must return, typed from the contract. Both methods of
// a read share one handler, keyed by the interface name (`tags.list`); it receives the POST body's shape (a GET
// query is turned into the same object) and returns the success body. The operations (../operations/) are
// written against it; the executor (./executor.ts) calls them through it, on whichever thread runs them.

import type { paths } from "@workapi/types";
import type { Context } from "./context.js";
import type { JsonChunks, JsonText } from "./json-text.js";

export type { Context };

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type PostOf<P extends keyof paths> = paths[P] extends { post: infer Op } ? Op : never;
type InputOf<Op> = Op extends { requestBody?: infer Body } ? Json<NonNullable<Body>> : never;
type OutputOf<Op> = Op extends { responses: infer R }
  ? R extends { 201: infer Created }
    ? Json<Created>
    : R extends { 200: infer Ok }
      ? Json<Ok>
      : never
  : never;

export type InterfaceName = keyof paths extends infer P ? (P extends `/${infer Name}` ? Name : never) : never;
export type Input<N extends InterfaceName> = InputOf<PostOf<`/${N}`>>;
export type Output<N extends InterfaceName> = OutputOf<PostOf<`/${N}`>>;

/**
 * A handler answers its success body, or that body already serialized (JsonText typed by the body it holds),
 * or serialized in chunks sent as they come (JsonChunks: an export of thousands).
 */
export type Handler<N extends InterfaceName> = (
  ctx: Context,
  input: Input<N>,
) => Promise<Output<N> | JsonText<Output<N>> | JsonChunks<Output<N>>>;
export type Handlers = { [N in InterfaceName]: Handler<N> };

/**
 * A handler as the executor calls it, by an operation's name, with the input already checked against that
 * operation's contract. A method's parameters are compared both ways, so every `Handler<N>` is one of these
 * as it stands: the check that the input fits `Input<N>` is the contract's, made at run time.
 */
type Called = { call(ctx: Context, input: unknown): ReturnType<Handler<InterfaceName>> }["call"];

/** The handlers by operation name, as the executor looks them up. */
export function handlerTable(handlers: Partial<Handlers>): ReadonlyMap<string, Called> {
  const table = new Map<string, Called>();
  for (const [name, handler] of Object.entries(handlers)) if (handler) table.set(name, handler);
  return table;
}
