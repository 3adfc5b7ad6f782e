// Retries: 429 waits what the server asks, 503 and network errors back off, only x-safe operations are
// repeated, the body goes out intact each time, and the deadline and the abort signal cut everything short.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ApiError, createClient, retryDefaults } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  errorBody,
  type Handler,
  type Reply,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const tagsPage = { tags: [{ id: "TAG-1", name: "bug" }] };
const unavailable = { status: 503, body: errorBody("service_unavailable") };
/** Answers `failures` times with `reply`, then with a page of tags. */
const failThenSucceed =
  (failures: number, reply: Reply): Handler =>
  (_, attempt) =>
    attempt <= failures ? reply : { body: tagsPage };

describe("retry defaults", () => {
  it("are explicit", () => {
    expect(retryDefaults).toEqual({ maxRetries: 2, baseDelay: 250, maxDelay: 10_000, jitter: true });
  });

  it("are off unless the client or the call turns them on", async () => {
    server.route("/tags.list", () => unavailable);
    const api = createClient({ baseUrl: server.url, token: "t" });
    const { error } = await api.tags.list();
    expect(error?.type).toBe("service_unavailable");
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.route("/tags.list", failThenSucceed(1, unavailable));
    const { data } = await api.tags.list({}, { retry: { baseDelay: 1 } });
    expect(data).toEqual(tagsPage);
    expect(server.requests).toHaveLength(2);
  });
});

describe("429", () => {
  it("waits retry_after seconds from the body", async () => {
    server.route(
      "/tags.list",
      failThenSucceed(1, { status: 429, body: errorBody("too_many_requests", { retry_after: 1 }) }),
    );
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1, jitter: false } });
    const started = Date.now();
    const { data } = await api.tags.list();
    expect(data).toEqual(tagsPage);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it("waits the Retry-After header when the body has no retry_after", async () => {
    server.route(
      "/tags.list",
      failThenSucceed(1, { status: 429, headers: { "retry-after": "1" }, body: "slow down" }),
    );
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1, jitter: false } });
    const started = Date.now();
    const { data } = await api.tags.list();
    expect(data).toEqual(tagsPage);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("answers a 429 that asks for more than maxDelay at once", async () => {
    server.route("/tags.list", () => ({
      status: 429,
      body: errorBody("too_many_requests", { retry_after: 300 }),
    }));
    const api = createClient({ baseUrl: server.url, token: "t", retry: true });
    const started = Date.now();
    const { error } = await api.tags.list();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error?.type === "too_many_requests" && error.retry_after).toBe(300);
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maxRetries and answers the last 429", async () => {
    server.route("/tags.list", () => ({
      status: 429,
      body: errorBody("too_many_requests", { retry_after: 0 }),
    }));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { maxRetries: 3 } });
    const { error, response } = await api.tags.list();
    expect(response.status).toBe(429);
    expect(error?.type).toBe("too_many_requests");
    expect(server.requests).toHaveLength(4);
  });
});

describe("503 and network errors", () => {
  it("back off exponentially on 503", async () => {
    server.route("/tags.list", failThenSucceed(2, unavailable));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 100, jitter: false } });
    const started = Date.now();
    const { data } = await api.tags.list();
    expect(data).toEqual(tagsPage);
    // 100 ms, then 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(3);
  });

  it("keeps each jittered wait between half and all of its backoff, and never past maxDelay", async () => {
    server.route("/tags.list", failThenSucceed(2, unavailable));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 200, maxDelay: 250 } });
    const started = Date.now();
    await api.tags.list();
    const elapsed = Date.now() - started;
    // At least 100 + 125 ms (half of 200 and of min(400, 250)), at most 200 + 250 ms plus the requests.
    expect(elapsed).toBeGreaterThanOrEqual(220);
    expect(elapsed).toBeLessThan(900);
  });

  it("retries a network error", async () => {
    let seen = 0;
    server.route("/tags.list", () => (++seen === 1 ? "drop" : { body: tagsPage }));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    const { data } = await api.tags.list();
    expect(data).toEqual(tagsPage);
    expect(server.requests).toHaveLength(2);
  });

  it("rejects with the network error once the retries are spent", async () => {
    server.route("/tags.list", () => "drop");
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1, maxRetries: 1 } });
    await expect(api.tags.list()).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(2);
  });

  it("retries the GET form too (x-safe on both)", async () => {
    server.route("/tags.list", failThenSucceed(1, unavailable));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    const { data } = await api.GET("/tags.list", { params: { query: { name: ["bug"] } } });
    expect(data).toEqual(tagsPage);
    expect(server.requests.map((r) => `${r.method} ${r.query}`)).toEqual(["GET name=bug", "GET name=bug"]);
  });
});

describe("what is never retried", () => {
  it("writes (not x-safe), on 503, 429 or a network error", async () => {
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    server.route("/works.delete", () => unavailable);
    const { error } = await api.works.delete({ id: "ISS-1" });
    expect(error?.type).toBe("service_unavailable");
    server.route("/works.delete", () => ({
      status: 429,
      body: errorBody("too_many_requests", { retry_after: 0 }),
    }));
    expect((await api.works.delete({ id: "ISS-1" })).error?.type).toBe("too_many_requests");
    server.route("/parts.create", () => "drop");
    await expect(
      api.parts.create(
        { type: "product", name: "Billing", owned_by: ["DEVU-1"] },
        { retry: { maxRetries: 5 } },
      ),
    ).rejects.toThrow(TypeError);
    expect(server.requests.map((r) => r.path)).toEqual(["/works.delete", "/works.delete", "/parts.create"]);
  });

  it.each([
    [400, "bad_request"],
    [401, "unauthenticated"],
    [403, "forbidden"],
    [404, "not_found"],
    [409, "conflict"],
    [413, "request_entity_too_large"],
  ])("a %i answer", async (status, type) => {
    server.route("/tags.list", () => ({ status, body: errorBody(type) }));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1, maxRetries: 5 } });
    const { error, response } = await api.tags.list();
    expect(response.status).toBe(status);
    expect(error?.type).toBe(type);
    expect(server.requests).toHaveLength(1);
  });

  it("anything when the call turns retries off", async () => {
    server.route("/tags.list", () => unavailable);
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    await api.tags.list({}, { retry: false });
    expect(server.requests).toHaveLength(1);
  });
});

describe("the request body", () => {
  it("is sent intact on every attempt", async () => {
    server.route("/works.export", failThenSucceed(2, unavailable));
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    const body = {
      type: ["issue" as const, "ticket" as const],
      first: 500,
      created_date: { type: "range" as const, after: "2026-01-01T00:00:00Z" },
      sort_by: ["created_date:desc"],
    };
    await api.works.export(body);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.json).toEqual(body);
      expect(request.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(body))));
    }
  });
});

describe("deadline and abort", () => {
  it("rejects with a TimeoutError when the deadline passes during a request", async () => {
    server.route("/tags.list", () => ({ delay: 2000, body: tagsPage }));
    const api = createClient({ baseUrl: server.url, token: "t", deadline: 150 });
    const started = Date.now();
    await expect(api.tags.list()).rejects.toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("keeps the deadline while the garbage collector runs", async () => {
    // A regression test: AbortSignal.any() holds its sources weakly, so a deadline made with
    // AbortSignal.timeout() could be collected mid-request and never fire.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    server.route("/tags.list", () => ({ delay: 1500, body: tagsPage }));
    const api = createClient({ baseUrl: server.url, token: "t", deadline: 200 });
    const collecting = setInterval(gc, 10);
    const started = Date.now();
    try {
      await expect(api.tags.list()).rejects.toMatchObject({ name: "TimeoutError" });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      clearInterval(collecting);
    }
  });

  it("counts retries against the deadline, answering the last error when the next wait cannot fit", async () => {
    server.route("/tags.list", () => unavailable);
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 100, jitter: false } });
    const started = Date.now();
    const { error } = await api.tags.list({}, { deadline: 250 });
    expect(error?.type).toBe("service_unavailable");
    expect(Date.now() - started).toBeLessThan(250);
    // The first attempt, a retry after 100 ms; the next wait (200 ms) would end past the deadline.
    expect(server.requests).toHaveLength(2);
  });

  it("aborts at once, with the signal's reason, while waiting between retries", async () => {
    server.route("/tags.list", () => unavailable);
    const api = createClient({
      baseUrl: server.url,
      token: "t",
      retry: { baseDelay: 5000, maxDelay: 5000, jitter: false },
    });
    const controller = new AbortController();
    const reason = new Error("the user went away");
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(api.tags.list({}, { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it("aborts a request in flight", async () => {
    server.route("/tags.list", () => ({ delay: 2000, body: tagsPage }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(api.tags.list({}, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("does not send at all with a signal aborted before the call", async () => {
    server.route("/tags.list", () => ({ body: tagsPage }));
    const api = createClient({ baseUrl: server.url, token: "t", retry: true });
    await expect(api.tags.list({}, { signal: AbortSignal.abort("never mind") })).rejects.toBe("never mind");
    expect(server.requests).toHaveLength(0);
  });

  it("throws an ApiError after the retries when the call asks for it", async () => {
    server.route("/tags.list", () => unavailable);
    const api = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1, maxRetries: 1 } });
    const error = await api.tags.list({}, { throwOnError: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(2);
  });
});
