// The bearer token goes on every request: a string, or a (sync or async) function called for every attempt.
import { createClient } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorBody, type ScriptedServer, startScriptedServer } from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.route("/tags.list", () => ({ body: { tags: [] } }));
});

describe("auth", () => {
  it("sends a string token as a bearer token on every request", async () => {
    const api = createClient({ baseUrl: server.url, token: "secret-1" });
    await api.tags.list();
    await api.GET("/tags.list", { params: { query: { limit: 1 } } });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer secret-1",
      "Bearer secret-1",
    ]);
  });

  it("calls an async token function for every request", async () => {
    let calls = 0;
    const api = createClient({
      baseUrl: server.url,
      token: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return `refreshed-${calls}`;
      },
    });
    await api.tags.list();
    await api.tags.list({ limit: 1 });
    expect(calls).toBe(2);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer refreshed-1",
      "Bearer refreshed-2",
    ]);
  });

  it("calls a sync token function for every attempt, so a retry may carry a fresh token", async () => {
    let calls = 0;
    server.route("/tags.list", (_, attempt) =>
      attempt === 1 ? { status: 503, body: errorBody("service_unavailable") } : { body: { tags: [] } },
    );
    const api = createClient({
      baseUrl: server.url,
      token: () => `t${++calls}`,
      retry: { baseDelay: 1, jitter: false },
    });
    const { data } = await api.tags.list();
    expect(data).toEqual({ tags: [] });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer t1", "Bearer t2"]);
  });

  it("keeps an Authorization header given to a call", async () => {
    const api = createClient({ baseUrl: server.url, token: "default" });
    await api.tags.list({}, { headers: { Authorization: "Bearer other-user" } });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer other-user");
  });

  it("rejects with the token function's error and sends nothing", async () => {
    const api = createClient({
      baseUrl: server.url,
      token: () => Promise.reject(new Error("no token in the keychain")),
    });
    await expect(api.tags.list()).rejects.toThrow("no token in the keychain");
    expect(server.requests).toHaveLength(0);
  });
});
