// Every operation of the contract, both methods, against the error types the interface lists for it that a
// request can always trigger: no token, a deactivated organization, a token without the operation's scopes,
// an oversized body, too many requests, a handler failure, and shutting down. Each answer is validated
// against the contract (the harness records any mismatch), so the status and body are the documented ones.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../src/core/contract.js";
import { exampleOnlyOperations } from "../src/http/example-only.js";
import { handlers } from "../src/operations/index.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

type Case = [string, Operation];

// Example-only operations (x-unreleased, no handler yet) go through the same checks before any handler, so they
// stay in the matrix; the failing-handler server gives them one. Named so a run says which they are.
const exampleOnly = (operations: readonly Operation[]) =>
  exampleOnlyOperations(operations, (name) => name in handlers).map((o) => `${o.method} ${o.path}`);

describe.each(databases)("every operation on %s", (database) => {
  let server: TestServer;
  let failing: TestServer;
  let cases: Case[];
  beforeAll(async () => {
    server = await startTestServer(database, { bodyLimit: 2048, rateLimitMax: 1_000_000 });
    cases = server.app.contract.operations.map((operation) => [
      `${operation.method} ${operation.path}`,
      operation,
    ]);
    // The same contract with every handler replaced by one that throws.
    const boom = async () => {
      throw new Error("scripted failure");
    };
    failing = await startTestServer(database, {
      handlers: Object.fromEntries(server.app.contract.operations.map((operation) => [operation.name, boom])),
    });
  });
  afterAll(async () => {
    await server.close();
    await failing.close();
  });

  const send = (target: TestServer, operation: Operation, token: string | null, body: unknown = {}) =>
    operation.method === "GET"
      ? target.call("GET", operation.path, { token })
      : target.call("POST", operation.path, { token, body });

  it("answers every operation without a token with 401 unauthenticated", async () => {
    for (const [where, operation] of cases) {
      const res = await send(server, operation, null);
      expect(res.status, where).toBe(401);
      expect(res.body.type, where).toBe("unauthenticated");
    }
  });

  it("answers a deactivated organization as each operation's interface says", async () => {
    const other = await server.otherOrg();
    await server.store.setOrgStatus(other.org.id, "deactivated");
    for (const [where, operation] of cases) {
      const res = await send(server, operation, other.token);
      expect(res.status, where).toBe(401);
      const expected = operation.errorTypes.includes("dev_org_deactivated")
        ? "dev_org_deactivated"
        : "unauthenticated";
      expect(res.body.type, where).toBe(expected);
    }
  });

  it("refuses a token holding none of the operation's scopes with 403 forbidden", async () => {
    const token = await server.token(["nothing:read"]);
    let checked = 0;
    for (const [where, operation] of cases) {
      const union = [...operation.scopes, ...Object.values(operation.scopesByType?.scopes ?? {}).flat()];
      if (union.length === 0) continue; // needs no scope (auth tokens, dev-users.self)
      const res = await send(server, operation, token);
      expect(res.status, where).toBe(403);
      expect(res.body.type, where).toBe("forbidden");
      checked++;
    }
    expect(checked).toBeGreaterThan(80);
  });

  it("answers an oversized body with 413 and max_bytes (400 where the interface has no 413)", async () => {
    for (const [where, operation] of cases) {
      if (operation.method !== "POST" || operation.name === "artifacts.upload") continue;
      const res = await server.call("POST", operation.path, { body: { padding: "x".repeat(4096) } });
      if (operation.errorTypes.includes("request_entity_too_large")) {
        expect(res.status, where).toBe(413);
        expect(res.body, where).toMatchObject({ type: "request_entity_too_large", max_bytes: 2048 });
      } else {
        expect(res.status, where).toBe(400);
        expect(res.body, where).toMatchObject({
          type: "bad_request",
          detail: expect.stringContaining("2048"),
        });
      }
    }
  });

  it("names its example-only operations", () => {
    const names = exampleOnly(server.app.contract.operations);
    if (names.length > 0) console.info(`example-only (answer their examples): ${names.join(", ")}`);
    expect(names.every((name) => cases.some(([label]) => label === name))).toBe(true);
  });

  it("answers a failing handler with internal_error and a reference id on every operation", async () => {
    for (const [where, operation] of cases) {
      // Valid input is not needed: a GET with no query and a POST of {} reach the handler only when the
      // operation has no required field; the rest answer 400 first, which the other suites cover.
      const res = await send(failing, operation, failing.adminToken);
      if (res.status === 400) continue;
      expect(res.status, where).toBe(500);
      expect(res.body, where).toMatchObject({ type: "internal_error", reference_id: expect.any(String) });
    }
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
    expect(failing.app.violations).toEqual([]);
  });
});

describe("limits on every operation", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { rateLimitMax: 1, rateLimitWindowMs: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers too_many_requests with Retry-After once a token's limit is spent", async () => {
    for (const operation of server.app.contract.operations) {
      const where = `${operation.method} ${operation.path}`;
      const token = await server.token(server.app.contract.scopes);
      const call = () =>
        operation.method === "GET"
          ? server.call("GET", operation.path, { token })
          : server.call("POST", operation.path, { token, body: {} });
      await call();
      const res = await call();
      expect(res.status, where).toBe(429);
      expect(res.body, where).toMatchObject({ type: "too_many_requests", retry_after: expect.any(Number) });
      expect(res.headers.get("retry-after"), where).toBe(String(res.body.retry_after));
    }
    expect(server.app.violations).toEqual([]);
  });

  it("closes connections while shutting down, after answering what is in flight", async () => {
    const other = await startTestServer("sqlite", {
      handlers: {
        "tags.list": async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { tags: [] };
        },
      },
    });
    // Two pipelined requests on one connection: the first is slow; the server starts closing while it runs.
    // The first is answered with Connection: close, so the connection ends and the second is left for the
    // client to send elsewhere (a request that still reached a closing server would get 503).
    const { port } = new URL(other.url);
    const socket = connect(Number(port), "127.0.0.1");
    let raw = "";
    socket.on("data", (chunk) => {
      raw += String(chunk);
    });
    const request = `GET /tags.list HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${other.adminToken}\r\n\r\n`;
    socket.write(request + request);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = other.app.fastify.close();
    await closing;
    await new Promise((resolve) => socket.once("close", resolve));
    const statuses = [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]);
    expect(statuses).toEqual(["200"]);
    expect(raw.toLowerCase()).toContain("connection: close");
    await other.store.close();
  });
});
