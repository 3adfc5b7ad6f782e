import { createClient, type Middleware } from "@workapi/client";

const api = createClient({ baseUrl: "http://localhost:8080", token: "<your token>", retry: true });

// Logging: one line per call, with the time it took and the request id to quote.
const started = new Map<string, number>();
const logging: Middleware = {
  onRequest({ id }) {
    started.set(id, performance.now());
  },
  onResponse({ id, request, response }) {
    const ms = Math.round(performance.now() - (started.get(id) ?? 0));
    started.delete(id);
    const requestId = response.headers.get("x-request-id");
    console.log(
      `${request.method} ${new URL(request.url).pathname} ${response.status} ${ms} ms ${requestId}`,
    );
  },
  onError({ request, error }) {
    console.error(`${request.method} ${request.url} failed:`, error);
  },
};

// Tracing: a W3C traceparent header on every request.
const tracing: Middleware = {
  onRequest({ request }) {
    const hex = (bytes: number) => {
      const random = crypto.getRandomValues(new Uint8Array(bytes));
      return Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
    };
    request.headers.set("traceparent", `00-${hex(16)}-${hex(8)}-01`);
  },
};

api.use(logging, tracing);
await api.tags.list();
api.eject(tracing);

// Middleware runs for each attempt (a retry too), told its number, and never sees the token.
export const retries: Middleware = {
  onResponse({ attempt, request, response }) {
    if (attempt > 1) console.warn(`attempt ${attempt}: ${request.method} ${request.url} ${response.status}`);
  },
};
api.use(retries);
