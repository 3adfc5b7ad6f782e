// createClient: the openapi-fetch client of every path and method, and the named-operation facade.
import type { paths } from "@workapi/types";
import createFetchClient, { type Client, type ClientOptions as FetchClientOptions } from "openapi-fetch";
import { type DeprecationHook, deprecationWatcher } from "./deprecation.js";
import { ApiError } from "./errors.js";
import {
  type Facade,
  formOperations,
  type OperationIds,
  type PaginatedOperations,
} from "./generated/operations.js";
import { namedOperations, operations } from "./names.js";
import type {
  AllResult,
  Args,
  CallOptions,
  PageOptions,
  PageParams,
  PageResults,
  RetryOptions,
  Throws,
} from "./operation.js";
import { collect, paginate as follow } from "./paginate.js";
import {
  type Fetch,
  type Middleware,
  retrySettings,
  type Send,
  sendCall,
  type TokenSource,
} from "./transport.js";

/** Options of {@link createClient}; the openapi-fetch options (`headers`, `querySerializer`...) pass through. */
export interface ClientOptions extends Omit<FetchClientOptions, "baseUrl" | "fetch"> {
  /**
   * Where the interface is served: an absolute http(s) URL, e.g. `https://api.example.com` (the operation
   * paths follow it); anything else throws a TypeError at once.
   */
  baseUrl: string;
  /** The bearer token, or a function returning it (sync or async), called for every attempt of a request. */
  token?: TokenSource;
  /** Retry safe operations (x-safe) on 429, 503 and network errors: `true` for the defaults, or options. */
  retry?: RetryOptions | boolean;
  /** Milliseconds each call, retries included, may take before it rejects with a TimeoutError. */
  deadline?: number;
  /** Throw an {@link ApiError} for error answers instead of answering `{ error }`. */
  throwOnError?: boolean;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: Fetch;
  /**
   * Called the first time an operation answers with a `Deprecation` header (the contract deprecates it, or a
   * parameter the call used), once per operation; default: a console warning; `false`: never.
   */
  onDeprecated?: DeprecationHook | false;
}

/** The name (x-interface-name) of every paginated operation. */
export type PaginatedName = keyof PaginatedOperations;
type IdOf<N extends PaginatedName> = OperationIds[N];
type ItemsOf<N extends PaginatedName> = PaginatedOperations[N]["items"];

/**
 * `api.paginate(name, params, options)`: as the operation's `.all()`, or with `pages: true` its `.pages()`.
 * `T` is true when the client throws.
 */
export interface Paginate<T extends boolean = false> {
  <N extends PaginatedName, const C extends PageOptions & { pages?: false } = Empty>(
    name: N,
    ...args: Args<PageParams<IdOf<N>>, C>
  ): Promise<AllResult<IdOf<N>, ItemsOf<N>, Throws<C, T>>>;
  <N extends PaginatedName, const C extends PageOptions & { pages: true } = { pages: true }>(
    name: N,
    ...args: Args<PageParams<IdOf<N>>, C>
  ): PageResults<IdOf<N>, Throws<C, T>>;
}
type Empty = Record<never, never>;

/**
 * The client: openapi-fetch's `GET`, `POST`..., `use` and `eject` (whose middleware runs for each attempt), the
 * named operations (`api.tags.list`) and `paginate`. `T` is true when the client was created with
 * `throwOnError: true`.
 */
export type WorkApiClient<T extends boolean = false> = Omit<
  Client<paths, "application/json">,
  "use" | "eject"
> &
  Facade<T> & {
    paginate: Paginate<T>;
    /** Adds middleware, run for each attempt of every request. */
    use(...middleware: Middleware[]): void;
    /** Removes middleware added by `use`. */
    eject(...middleware: Middleware[]): void;
  };

type Init = CallOptions & { fetch?: Fetch; body?: unknown; [key: string]: unknown };
type AnyResponse = { data?: unknown; error?: unknown; response: Response };

/**
 * Whether a read's fields can go in the query of its GET twin, which takes every flat field of the POST form
 * (the generator checks it): each is a scalar or a list of scalars, none holds a comma (a list is sent
 * comma-separated), and the query stays well under the 16 KiB the server reads of a request's head.
 */
function fitsQuery(fields: Record<string, unknown>): boolean {
  // The lists' items one by one: null, an object and a nested list are objects.
  const items = Object.values(fields).flat();
  return (
    items.every((item) => typeof item !== "object" && !String(item).includes(",")) &&
    encodeURIComponent(String(items)).length < 8000 // room left in 16 KiB for names and headers
  );
}

/** A form of the fields: the plain ones first (objects as JSON), then the files (Blobs). */
function toForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const files of [false, true]) {
    for (const [key, value] of Object.entries(fields)) {
      if (value == null || value instanceof Blob !== files) continue;
      // FormData makes a string of any other value.
      form.append(key, files || typeof value !== "object" ? (value as string | Blob) : JSON.stringify(value));
    }
  }
  return form;
}

type Request = (method: string, url: string, init?: Init) => Promise<AnyResponse>;

/** The facade's method of the operation `name`: a read whose fields fit the query goes as GET, all else as POST. */
function operationCall(name: string, request: Request) {
  const read = operations[name];
  const form = formOperations.includes(name);
  return (body: Record<string, unknown> = {}, callOptions: CallOptions = {}) =>
    read && fitsQuery(body)
      ? request("GET", `/${name}`, { ...callOptions, params: { query: body } })
      : // openapi-fetch sends a FormData as it is (multipart, with its boundary), anything else as JSON.
        request("POST", `/${name}`, { ...callOptions, body: form ? toForm(body) : body });
}

/**
 * Adds `paginate` and the facade to the client, the facade's calls going through `request`: each operation's
 * method at its name's segments, spelled as the generator gives them (`stages.custom.get`,
 * `orgSchedules.list`); a paginated one also has `all` and `pages`.
 */
function addFacade(client: Record<string, unknown>, request: Request) {
  const paginate = (
    name: string,
    params?: Record<string, unknown>,
    { pages, ...pageOptions }: PageOptions & { pages?: boolean } = {},
  ) => {
    const shape = operations[name];
    if (typeof shape !== "object") throw new TypeError(`${name} is not a paginated operation`);
    const answers = follow(operationCall(name, request), shape, params, pageOptions);
    return pages ? answers : collect(answers, shape.items);
  };
  client.paginate = paginate;
  for (const [name, kind, groups, key] of namedOperations) {
    let node = client;
    for (const group of groups) {
      node[group] ??= {};
      node = node[group] as Record<string, unknown>;
    }
    const method = operationCall(name, request);
    if (typeof kind === "object") {
      Object.assign(method, {
        all: (params?: Record<string, unknown>, o?: PageOptions) => paginate(name, params, o),
        pages: (params?: Record<string, unknown>, o?: PageOptions) =>
          paginate(name, params, { ...o, pages: true }),
      });
    }
    node[key] = method;
  }
}

/** Creates a client of the interface; throws a TypeError when `baseUrl` is not an absolute http(s) URL. */
export function createClient<const O extends ClientOptions>(
  options: O,
): WorkApiClient<O extends { throwOnError: true } ? true : false> {
  const { token, retry, deadline, throwOnError, fetch, onDeprecated, ...fetchOptions } = options;
  const deprecated = deprecationWatcher(onDeprecated);
  // An absolute http(s) URL: a scheme, `//` and a host (a relative or schemeless one would fail at each call).
  if (!/^https?:\/\/[^/?#\s]/i.test(options.baseUrl)) {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, not ${JSON.stringify(options.baseUrl)}`);
  }
  // Query arrays go comma-separated, as the contract publishes them (`state=open,closed`).
  const raw = createFetchClient<paths>({
    querySerializer: { array: { style: "form", explode: false } },
    ...fetchOptions,
  });
  const send = raw.request as unknown as Send;
  let middleware: Middleware[] = [];

  // Every request, from the facade or from GET/POST..., comes here: one openapi-fetch request per attempt.
  const request: Request = async (method, url, init = {}) => {
    const {
      retry: callRetry,
      deadline: callDeadline,
      throwOnError: callThrows,
      fetch: callFetch,
      signal,
      ...rest
    } = init;
    const result = await sendCall(send, method, url, rest, {
      token,
      retry: retrySettings(retry, callRetry),
      deadline: callDeadline ?? deadline,
      fetch: callFetch ?? fetch,
      signal,
      middleware,
    });
    deprecated(`${method.toUpperCase()} ${url}`, result.response);
    if ((callThrows ?? throwOnError) && !result.response.ok) {
      throw new ApiError(result.response, result.error);
    }
    return result;
  };
  const client: Record<string, unknown> = {
    use: (...added: Middleware[]) => middleware.push(...added),
    eject: (...removed: Middleware[]) => {
      middleware = middleware.filter((m) => !removed.includes(m));
    },
    request,
  };
  addFacade(client, request);
  // openapi-fetch's GET, POST... go through `request` too.
  for (const method of Object.keys(raw)) {
    if (method === method.toUpperCase()) {
      client[method] = (url: string, init?: Init) => request(method, url, init);
    }
  }
  return client as unknown as WorkApiClient<O extends { throwOnError: true } ? true : false>;
}
