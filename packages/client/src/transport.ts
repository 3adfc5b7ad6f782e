// The fetch every request goes through: it adds the bearer token, enforces the deadline, retries what may be
// retried, and gives an error answer without a usable body one of the right type.
import { isErrorBody, retryAfterHeader, synthesizeError } from "./errors.js";
import { readOperations } from "./generated/operations.js";
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
  const object = (value: RetryOptions | boolean | undefined) => (typeof value === "object" ? value : {});
  return { ...retryDefaults, ...object(client), ...object(call) };
}

export interface TransportSettings {
  token?: TokenSource | undefined;
  retry?: Required<RetryOptions> | undefined;
  deadline?: number | undefined;
  fetch?: Fetch | undefined;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  });
}

/** The wait before retry number `attempt + 1`: exponential, capped, and with jitter half to all of it. */
const backoff = (retry: Required<RetryOptions>, attempt: number) => {
  const delay = Math.min(retry.maxDelay, retry.baseDelay * 2 ** attempt);
  return retry.jitter ? delay / 2 + (Math.random() * delay) / 2 : delay;
};

/** The wait a 429 asks for, in milliseconds: `retry_after` of its body, else its `Retry-After` header. */
async function retryAfter(response: Response): Promise<number | undefined> {
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  const seconds =
    typeof body?.retry_after === "number" ? body.retry_after : retryAfterHeader(response.headers);
  return seconds === undefined ? undefined : Math.max(0, seconds) * 1000;
}

/** Replaces an error answer whose body is not an interface error with one whose body is. */
async function normalize(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.clone().text();
  try {
    if (isErrorBody(JSON.parse(text))) return response;
  } catch {}
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(JSON.stringify(synthesizeError(response, text)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * Whether the contract marks this request x-safe: its path is `/<name>`, the last segment of its URL. (The
 * contract has only GET and POST forms, which agree on x-safe: the generator checks both.)
 */
function isSafe({ url }: Request): boolean {
  const path = new URL(url).pathname;
  return path.slice(path.lastIndexOf("/") + 1) in readOperations;
}

/** A transport, and `end()` to call when its call is over (it stops the deadline's timer). */
export type Transport = Fetch & { end(): void };

/** The fetch of one call: each attempt that may be retried sends a fresh clone of the Request it gets. */
export function createTransport({ token, retry, deadline, fetch: send }: TransportSettings): Transport {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const transport = async (request: Request, init?: RequestInit) => {
    const started = Date.now();
    let signal = request.signal;
    if (deadline !== undefined) {
      // Not AbortSignal.timeout(): AbortSignal.any() holds its sources weakly and nothing else would hold
      // that one, so it could be collected before it fires. Here the timer holds the controller.
      const expired = new AbortController();
      timer = setTimeout(
        () => expired.abort(new DOMException("The deadline passed.", "TimeoutError")),
        deadline,
      );
      signal = AbortSignal.any([signal, expired.signal]);
    }
    const retries = retry && isSafe(request) ? retry.maxRetries : 0;
    const fits = (wait: number) => deadline === undefined || Date.now() - started + wait < deadline;
    for (let attempt = 0; ; attempt++) {
      // The last attempt possible sends the request itself; one that may be followed by a retry sends a clone
      // (a body can be read once). Only a deadline's signal needs a Request made around it.
      const attempted = attempt < retries ? request.clone() : request;
      const attemptRequest = signal === request.signal ? attempted : new Request(attempted, { signal });
      if (token && !attemptRequest.headers.has("authorization")) {
        attemptRequest.headers.set(
          "authorization",
          `Bearer ${typeof token === "string" ? token : await token()}`,
        );
      }
      let response: Response;
      try {
        response = await (send ?? fetch)(attemptRequest, init);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const wait = retry && attempt < retries ? backoff(retry, attempt) : -1;
        if (wait < 0 || !fits(wait)) throw error;
        await sleep(wait, signal);
        continue;
      }
      const { status } = response;
      if (!retry || attempt >= retries || (status !== 429 && status !== 503)) return normalize(response);
      const wait = (status === 429 ? await retryAfter(response) : undefined) ?? backoff(retry, attempt);
      if (wait > retry.maxDelay || !fits(wait)) return normalize(response);
      await response.body?.cancel();
      await sleep(wait, signal);
    }
  };
  return Object.assign(transport, { end: () => clearTimeout(timer) });
}
