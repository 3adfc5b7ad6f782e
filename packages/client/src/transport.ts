// How a call is sent: each attempt is a whole openapi-fetch request (its middleware told the attempt number),
// whose fetch adds the bearer token and gives an error answer without a usable body one of the right type;
// the call enforces the deadline and retries what may be retried.
import type { Middleware as FetchMiddleware, MiddlewareCallbackParams } from "openapi-fetch";
import { isErrorBody, retryAfterHeader, synthesizeError } from "./errors.js";
import { operations } from "./names.js";
import type { RetryOptions } from "./operation.js";

/** A bearer token, or a function (sync or async) that returns one; a function is called for every attempt. */
export type TokenSource = string | (() => string | Promise<string>);

/** A fetch as openapi-fetch calls it: a Request, and its `requestInitExt` option as second argument. */
export type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

/** The retry options used when a client or a call turns retries on without naming them. */
export const retryDefaults: Readonly<Required<RetryOptions>> = Object.freeze({
  maxRetries: 2,
  baseDelay: 250,
  maxDelay: 10_000,
  jitter: true,
});

/** Merges the client's and the call's retry settings: undefined when retries are off. */
export function retrySettings(
  client: RetryOptions | boolean | undefined,
  call: RetryOptions | boolean | undefined,
): Required<RetryOptions> | undefined {
  if (!(call ?? client)) return undefined;
  // Spreading `true` adds nothing: the defaults stand.
  return { ...retryDefaults, ...(client as RetryOptions), ...(call as RetryOptions) };
}

/** What a middleware hook is given: openapi-fetch's parameters and the attempt, 1 for the first sending. */
export type MiddlewareParams = MiddlewareCallbackParams & { readonly attempt: number };
type Hook<K extends "onRequest" | "onResponse" | "onError"> = NonNullable<FetchMiddleware[K]>;

/**
 * openapi-fetch's middleware, run for each attempt of a request (a retry too), with the attempt's number:
 * `onRequest` before it is sent, `onResponse` with its answer, `onError` with its network error.
 */
export interface Middleware {
  onRequest?(params: MiddlewareParams): ReturnType<Hook<"onRequest">>;
  onResponse?(params: MiddlewareParams & { response: Response }): ReturnType<Hook<"onResponse">>;
  onError?(params: MiddlewareParams & { error: unknown }): ReturnType<Hook<"onError">>;
}

/** One attempt of a request as openapi-fetch sends it (its `request` method). */
export type Send = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export interface CallSettings {
  token?: TokenSource | undefined;
  retry?: Required<RetryOptions> | undefined;
  deadline?: number | undefined;
  fetch?: Fetch | undefined;
  signal?: AbortSignal | undefined;
  middleware: readonly Middleware[];
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}

/** The wait before retry number `attempt + 1`: exponential, capped, and with jitter half to all of it. */
const backoff = (retry: Required<RetryOptions>, attempt: number) => {
  const delay = Math.min(retry.maxDelay, retry.baseDelay * 2 ** attempt);
  return retry.jitter ? delay / 2 + (Math.random() * delay) / 2 : delay;
};

/** Replaces an error answer whose body is not an interface error with one whose body is. */
async function normalize(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.clone().text();
  try {
    if (isErrorBody(JSON.parse(text))) return response;
  } catch {}
  // The same answer (status, status text, headers) with the error body; its headers made to match.
  const answer = new Response(JSON.stringify(synthesizeError(response, text)), response);
  answer.headers.set("content-type", "application/json");
  answer.headers.delete("content-length");
  answer.headers.delete("content-encoding");
  return answer;
}

const HOOKS = ["onRequest", "onResponse", "onError"] as const;
type AnyHook = ((params: object) => unknown) | undefined;

/**
 * The middleware of one attempt: each hook is given the attempt's number beside openapi-fetch's parameters.
 * Every hook is there, answering nothing (as openapi-fetch takes a missing one) when the middleware has none.
 */
const attemptMiddleware = (middleware: readonly Middleware[], attempt: number) =>
  middleware.map((m) =>
    Object.fromEntries(
      // The three hooks take different parameters: each gets openapi-fetch's and the attempt.
      HOOKS.map((hook) => [hook, (params: object) => (m[hook] as AnyHook)?.call(m, { ...params, attempt })]),
    ),
  );

/**
 * Sends a call: one openapi-fetch request per attempt, retried (when the contract marks the operation x-safe,
 * its path being `/<name>`) on a 429, a 503 or a network error, within the deadline and the call's signal.
 */
export async function sendCall(
  send: Send,
  method: string,
  url: string,
  init: Record<string, unknown>,
  { token, retry, deadline, fetch: base, signal, middleware }: CallSettings,
): ReturnType<Send> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (deadline !== undefined) {
    // Not AbortSignal.timeout(): AbortSignal.any() holds its sources weakly and nothing else would hold
    // that one, so it could be collected before it fires. Here the timer holds the controller.
    const expired = new AbortController();
    timer = setTimeout(
      () => expired.abort(new DOMException("The deadline passed.", "TimeoutError")),
      deadline,
    );
    signal = signal ? AbortSignal.any([signal, expired.signal]) : expired.signal;
  }
  const retries = retry && operations[url.slice(1)] ? retry.maxRetries : 0;
  const fits = (wait: number) => Date.now() - started + wait < (deadline ?? Infinity);
  // Each attempt's fetch: the token after the middleware (which never sees it), then a typed error body.
  const fetch = async (request: Request, ext?: RequestInit) => {
    if (token && !request.headers.has("authorization")) {
      request.headers.set("authorization", `Bearer ${typeof token === "string" ? token : await token()}`);
    }
    return normalize(await (base ?? globalThis.fetch)(request, ext));
  };
  try {
    for (let attempt = 0; ; attempt++) {
      let result: Awaited<ReturnType<Send>> | undefined;
      let failure: unknown;
      try {
        // The deadline covers reading the answer too: it ends when openapi-fetch has parsed it.
        result = await send(method, url, {
          ...init,
          signal,
          fetch,
          middleware: attemptMiddleware(middleware, attempt + 1),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        failure = error;
      }
      // A network error, a 429 or a 503 may be retried. A 429 asks for `retry_after` seconds in its body,
      // else in its Retry-After header; the others wait the backoff.
      const response = result?.response;
      const after = (result?.error as { retry_after?: unknown } | undefined)?.retry_after;
      const seconds =
        response?.status === 429
          ? typeof after === "number"
            ? after
            : retryAfterHeader(response.headers)
          : undefined;
      const wait =
        !retry || attempt >= retries || (response && response.status !== 429 && response.status !== 503)
          ? -1
          : seconds === undefined
            ? backoff(retry, attempt)
            : Math.max(0, seconds) * 1000;
      if (wait < 0 || wait > (retry as Required<RetryOptions>).maxDelay || !fits(wait)) {
        if (result) return result;
        throw failure;
      }
      await sleep(wait, signal);
    }
  } finally {
    clearTimeout(timer);
  }
}
