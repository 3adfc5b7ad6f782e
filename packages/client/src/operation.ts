// The types of the named-operation facade: a call, its options and its answer.
import type { ErrorBody, OperationId, operations, RequestBody, SuccessBody } from "@workapi/types";
import type { HeadersOptions } from "openapi-fetch";

/** How a client retries; every field is optional and falls back to {@link retryDefaults}. */
export interface RetryOptions {
  /** How many times a request may be repeated after the first attempt. Default 2. */
  maxRetries?: number;
  /** The first backoff wait in milliseconds, doubled after each retry. Default 250. */
  baseDelay?: number;
  /**
   * The longest wait in milliseconds, for a backoff and for a 429's `retry_after`; a 429 that asks for a
   * longer wait is answered as it is. Default 10 000.
   */
  maxDelay?: number;
  /** Wait a random time between half and all of each backoff, so that clients spread out. Default true. */
  jitter?: boolean;
}

/** Options of one call; each overrides the client's option of the same name. */
export interface CallOptions {
  /** Cancels the call, including a wait between retries: it rejects at once with the signal's reason. */
  signal?: AbortSignal;
  /** The whole call, retries included, must end within this many milliseconds or it rejects (TimeoutError). */
  deadline?: number;
  /** Retry options for this call: `true` uses the client's (or the defaults), `false` turns retries off. */
  retry?: RetryOptions | boolean;
  /** Throw an {@link ApiError} for an error answer instead of answering `{ error }`. */
  throwOnError?: boolean;
  /** Extra request headers. */
  headers?: HeadersOptions;
}

/** Options of a pagination: the call options, plus the direction and the most entries to return. */
export interface PageOptions extends CallOptions {
  /** `after` (the default) follows each answer's next cursor, `before` its previous cursor. */
  mode?: "after" | "before";
  /** The most entries to return over all pages (the request's `limit` is the size of each page). */
  max?: number;
}

/**
 * The answer of a call: `data` on success (`Data`, the operation's success body unless told), the typed error
 * body on an error answer.
 */
export type Result<
  Id extends OperationId,
  Throws extends boolean,
  Data = SuccessBody<Id>,
> = Throws extends true
  ? Success<Data>
  : Success<Data> | { data?: never; error: ErrorBody<Id>; response: Response };
type Success<Data> = { data: Data; error?: never; response: Response };

/** Whether a call with options `C` throws, given the client's setting `T`. */
export type Throws<C, T extends boolean> = C extends { throwOnError: true }
  ? true
  : C extends { throwOnError: false }
    ? false
    : T;

type Empty = Record<never, never>;

/** The arguments of a call: the body may be left out when none of its fields is required. */
export type Args<Body, Options> = Empty extends Body
  ? [body?: Body, options?: Options]
  : [body: Body, options?: Options];

/** The request fields of a paginated operation, without `mode` (a pagination option). */
export type PageParams<Id extends OperationId> = Omit<RequestBody<Id>, "mode">;

/** One entry of a paginated operation's answer: an element of its `items` array. */
export type PageItem<Id extends OperationId, Items extends string> =
  NonNullable<SuccessBody<Id>[Items & keyof SuccessBody<Id>]> extends ReadonlyArray<infer Item>
    ? Item
    : never;

type Content<Id extends OperationId> = operations[Id] extends { requestBody?: { content: infer C } }
  ? C
  : never;

/**
 * What a named operation takes: its JSON body, or for a `multipart/form-data` body its fields, where the file
 * fields (`Files`) may be a Blob (or File).
 */
export type Input<Id extends OperationId, Files extends string = never> =
  Content<Id> extends { "application/json": infer Body }
    ? Body
    : Content<Id> extends { "multipart/form-data": infer Form }
      ? { [K in keyof Form]: K extends Files ? Form[K] | Blob : Form[K] }
      : never;

/** A named operation: POSTs its body and answers `{ data }` or `{ error }`, or throws when `T` is true. */
export type Operation<Id extends OperationId, T extends boolean, Files extends string = never> = <
  const C extends CallOptions = Empty,
>(
  ...args: Args<Input<Id, Files>, C>
) => Promise<Result<Id, Throws<C, T>>>;

/** The answer of `.all()`: every entry of the pages as `data`, or the first error answer. */
export type AllResult<Id extends OperationId, Items extends string, Throws extends boolean> = Result<
  Id,
  Throws,
  PageItem<Id, Items>[]
>;

/** The answers of `.pages()`, one per page, the last one an error answer if any. */
export type PageResults<Id extends OperationId, Throws extends boolean> = AsyncGenerator<
  Result<Id, Throws>,
  void,
  undefined
>;

/**
 * A named operation with cursors: also answers every entry at once (`all`) or iterates over the answer of
 * every page (`pages`). Both follow the cursors until the last page, `max` entries or an error answer, and
 * throw an ApiError instead, as calls do, with `throwOnError`.
 */
export interface PaginatedOperation<Id extends OperationId, Items extends string, T extends boolean>
  extends Operation<Id, T> {
  all<const C extends PageOptions = Empty>(
    ...args: Args<PageParams<Id>, C>
  ): Promise<AllResult<Id, Items, Throws<C, T>>>;
  pages<const C extends PageOptions = Empty>(...args: Args<PageParams<Id>, C>): PageResults<Id, Throws<C, T>>;
}
