// What a handler sees and what it must return, typed from the contract. Both methods of a read share one
// handler, keyed by the interface name (`tags.list`); it receives the POST body's shape (a GET query is turned
// into the same object) and returns the success body.

import type { paths } from "@workapi/types";
import type { Context } from "../../core/context.js";
import type { JsonChunks, JsonText } from "../../core/json-text.js";

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
