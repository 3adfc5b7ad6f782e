// The named-operation facade matches the contract, sends what it should, and sits beside the whole
// openapi-fetch client (every method, the query string as the contract publishes it, middleware).
import { createClient, type Middleware } from "@workapi/client";
import { loadSpec } from "@workapi/spec";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clientTables } from "../scripts/generate.mjs";
import type { PaginatedOperations } from "../src/generated/operations.js";
import { operations } from "../src/names.js";

// The reads (x-safe), the writes, and the paginated operations: the reads that map to a page shape.
const names = Object.keys(operations);
const safeOperations = names.filter((name) => operations[name]);
const writeOperations = names.filter((name) => !operations[name]);
const paginatedOperations = Object.fromEntries(
  Object.entries(operations).filter(([, kind]) => typeof kind === "object"),
) as unknown as PaginatedOperations;

import { errorBody, type ScriptedServer, startScriptedServer } from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const at = (root: unknown, keys: string[]) =>
  keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);

describe("the facade", () => {
  const tables = clientTables(loadSpec());

  it("has a method for every x-interface-name of the contract, at its camelCased path", () => {
    const api = createClient({ baseUrl: "http://127.0.0.1:9", token: "t" });
    expect([...safeOperations, ...writeOperations].sort()).toEqual(tables.operations.map((op) => op.name));
    expect(tables.operations.length).toBeGreaterThan(20);
    for (const op of tables.operations) {
      const method = at(api, op.keys);
      expect(typeof method, op.keys.join(".")).toBe("function");
      const paginated = op.pagination !== undefined;
      expect(typeof (method as { all?: unknown }).all, `${op.name}.all`).toBe(
        paginated ? "function" : "undefined",
      );
      expect(typeof (method as { pages?: unknown }).pages, `${op.name}.pages`).toBe(
        paginated ? "function" : "undefined",
      );
    }
    expect(typeof api.observability.sessions.data.get).toBe("function");
    expect(typeof api.stages.custom.get).toBe("function");
    expect(typeof api.orgScheduleFragments.create).toBe("function");
  });

  it("uses the generated tables, which are what the contract says", () => {
    expect(names).toEqual(tables.operations.map((op) => op.name));
    expect(safeOperations).toEqual(tables.safe);
    expect(safeOperations).toContain("tags.list");
    expect(safeOperations).not.toContain("works.delete");
    expect(Object.keys(paginatedOperations).sort()).toEqual(
      tables.operations.filter((op) => op.pagination).map((op) => op.name),
    );
    expect(paginatedOperations["tags.list"]).toEqual({ items: "tags" });
    expect(paginatedOperations["stages.custom.list"]).toEqual({
      items: "result",
      next: "cursor",
      prev: "cursor",
    });
    for (const op of tables.operations.filter((op) => op.pagination)) {
      expect(paginatedOperations[op.name as keyof typeof paginatedOperations]).toEqual(op.pagination);
    }
    expect(Object.keys(paginatedOperations)).not.toContain("works.export");
    expect(Object.keys(paginatedOperations)).not.toContain("auth-tokens.list");
  });

  it("sends a read with flat fields as GET to /<name>, its fields in the query, and answers the data", async () => {
    server.route("/observability.sessions.data.get", () => ({
      body: { recording: "web_recording", session_id: "s-1" },
    }));
    server.route("/stages.custom.get", () => ({ body: { custom_stage: { id: "STG-1" } } }));
    server.route("/works.export", () => ({ body: { works: [] } }));
    const api = createClient({ baseUrl: `${server.url}/`, token: "t" });
    const session = await api.observability.sessions.data.get({
      session_id: "s-1",
      tab_id: "tab-1",
      version_key: "v1",
    });
    expect(session.data).toEqual({ recording: "web_recording", session_id: "s-1" });
    await api.stages.custom.get({ id: "STG-1" });
    await api.works.export({ type: ["issue", "ticket"], first: 10 });
    expect(server.requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
      ["GET", "/observability.sessions.data.get", "session_id=s-1&tab_id=tab-1&version_key=v1", ""],
      ["GET", "/stages.custom.get", "id=STG-1", ""],
      ["GET", "/works.export", "type=issue,ticket&first=10", ""],
    ]);
    expect(server.requests[2]?.json).toEqual({ type: ["issue", "ticket"], first: 10 });
  });

  it("POSTs a read as JSON when a field has no flat query form, and every write", async () => {
    for (const path of ["/works.export", "/tags.list", "/tags.create"]) {
      server.route(path, () => ({ body: { works: [], tags: [], tag: { id: "TAG-1" } } }));
    }
    const api = createClient({ baseUrl: server.url, token: "t" });
    // A nested filter, a list item holding a comma, a query past 8,000 characters, and a write.
    await api.works.export({ issue: { priority: ["p0"] } });
    await api.tags.list({ name: ["a,b"] });
    const long = Array.from({ length: 900 }, (_, i) => `name-${i}`);
    await api.tags.list({ name: long });
    await api.tags.create({ name: "bug" });
    expect(server.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ["POST", "/works.export", ""],
      ["POST", "/tags.list", ""],
      ["POST", "/tags.list", ""],
      ["POST", "/tags.create", ""],
    ]);
    expect(server.requests.map((r) => r.json)).toEqual([
      { issue: { priority: ["p0"] } },
      { name: ["a,b"] },
      { name: long },
      { name: "bug" },
    ]);
  });

  it("sends the fields of a multipart/form-data operation as a form, the file last", async () => {
    server.route("/artifacts.upload", () => ({ status: 201, body: { artifact: { id: "ARTIFACT-3" } } }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const file = new Blob(["\u0089PNG bytes"], { type: "image/png" });
    const { data, response } = await api.artifacts.upload({ file, id: "ARTIFACT-3", file_name: "shot.png" });
    expect(response.status).toBe(201);
    expect(data).toEqual({ artifact: { id: "ARTIFACT-3" } });
    const [request] = server.requests;
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const body = request?.body ?? "";
    const order = ['name="id"', 'name="file_name"', 'name="file"'].map((part) => body.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(body).toContain("Content-Type: image/png");
    expect(body).toContain("\u0089PNG bytes");
    expect(body).toContain("ARTIFACT-3");
  });

  it("follows a base URL with a path", async () => {
    server.route("/api/v1/tags.list", () => ({ body: { tags: [] } }));
    const api = createClient({ baseUrl: `${server.url}/api/v1`, token: "t", retry: { baseDelay: 1 } });
    expect((await api.tags.list()).data).toEqual({ tags: [] });
  });
});

describe("the openapi-fetch client", () => {
  it("sends GET query arrays comma-separated, with the dotted names of nested filters", async () => {
    server.route("/works.export", () => ({ body: { works: [] } }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    await api.GET("/works.export", {
      params: {
        query: { type: ["issue", "ticket"], first: 10, "stage.name": ["triage", "in review"], owned_by: [] },
      },
    });
    expect(server.requests[0]?.query).toBe("type=issue,ticket&first=10&stage.name=triage,in%20review");
  });

  it("keeps its own options, such as a querySerializer and headers", async () => {
    server.route("/tags.list", () => ({ body: { tags: [] } }));
    const api = createClient({
      baseUrl: server.url,
      token: "t",
      headers: { "x-vendor-version": "2024-01-24" },
      querySerializer: { array: { style: "form", explode: true } },
    });
    await api.GET("/tags.list", { params: { query: { name: ["a", "b"] } } });
    expect(server.requests[0]?.query).toBe("name=a&name=b");
    expect(server.requests[0]?.headers["x-vendor-version"]).toBe("2024-01-24");
  });

  it("takes the call options beside params and body", async () => {
    server.route("/tags.list", (_, attempt) =>
      attempt === 1
        ? { status: 503, body: errorBody("service_unavailable") }
        : { status: 404, body: errorBody("not_found") },
    );
    const api = createClient({ baseUrl: server.url, token: "t" });
    const thrown = await api
      .GET("/tags.list", { params: { query: { limit: 1 } }, retry: { baseDelay: 1 }, throwOnError: true })
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ status: 404, body: { type: "not_found" } });
    expect(server.requests).toHaveLength(2);
    server.route("/tags.list", () => ({ delay: 1000, body: { tags: [] } }));
    await expect(api.POST("/tags.list", { body: {}, deadline: 50 })).rejects.toMatchObject({
      name: "TimeoutError",
    });
  });

  it("runs middleware for each attempt, with its number, without the token", async () => {
    server.route("/tags.list", (_, attempt) =>
      attempt === 1 ? { status: 503, body: errorBody("service_unavailable") } : { body: { tags: [] } },
    );
    const api = createClient({ baseUrl: server.url, token: "secret", retry: { baseDelay: 1 } });
    const seen: string[] = [];
    const logger: Middleware = {
      onRequest({ request, schemaPath, attempt }) {
        seen.push(`${attempt} ${request.method} ${schemaPath} auth=${request.headers.get("authorization")}`);
        request.headers.set("x-trace-id", `trace-${attempt}`);
      },
      onResponse({ response, attempt }) {
        seen.push(`${attempt} ${response.status}`);
      },
    };
    api.use(logger);
    await api.tags.list();
    expect(seen).toEqual(["1 GET /tags.list auth=null", "1 503", "2 GET /tags.list auth=null", "2 200"]);
    expect(server.requests.map((r) => r.headers["x-trace-id"])).toEqual(["trace-1", "trace-2"]);
    api.eject(logger);
    await api.tags.list();
    expect(seen).toHaveLength(4);
  });

  it("refuses a baseUrl that is not an absolute http(s) URL at creation", () => {
    for (const baseUrl of ["", "/api", "localhost:8080", "ftp://example.com", "http://"]) {
      expect(() => createClient({ baseUrl, token: "t" })).toThrow(
        `baseUrl must be an absolute http(s) URL, not ${JSON.stringify(baseUrl)}`,
      );
    }
    expect(() => createClient({ baseUrl: "HTTPS://api.example.com/v1", token: "t" })).not.toThrow();
  });

  it("lets onError middleware see a network error", async () => {
    server.route("/tags.list", () => "drop");
    const api = createClient({ baseUrl: server.url, token: "t" });
    const errors: unknown[] = [];
    api.use({
      onError({ error }) {
        errors.push(error);
        return new Response(JSON.stringify({ tags: [] }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    expect((await api.tags.list()).data).toEqual({ tags: [] });
    expect(errors).toEqual([expect.any(TypeError)]);
  });
});
