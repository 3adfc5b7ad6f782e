// The set-up the compatibility suites share: a seeded server on one database, calls that record every answer,
// and the closing check that every answer matched the contract (here and in the server) and that the suite
// called each interface operation it claims.
import { afterAll, beforeAll, expect } from "vitest";
import { type Contract, loadContract } from "../../src/core/contract.js";
import { seed } from "../../src/seed/index.js";
import { type Call, type Database, startTestServer, type TestServer } from "../harness.js";

export type Json = Record<string, unknown>;
export type Work = Json & { id: string; display_id: string; type: string; title?: string };

const contract: Contract = loadContract();

/** A GET query the platform's way: arrays comma-separated, nested filters as dotted keys. */
export function query(params: Record<string, string | number | boolean | Array<string | number>>): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const text = Array.isArray(value) ? value.map((v) => encodeURIComponent(String(v))).join(",") : value;
      return `${key}=${Array.isArray(value) ? text : encodeURIComponent(String(text))}`;
    })
    .join("&");
}

/** Members the platform's clients require on every user summary. */
export function expectUser(user: unknown, where: string) {
  expect(user, where).toMatchObject({ id: expect.any(String) });
}

export interface PlatformSession {
  server: TestServer;
  /** The seeded works, as works.export answers them. */
  works: Work[];
  /** Calls an operation and records the answer for the closing contract check. */
  call(method: "GET" | "POST", path: string, body?: unknown): Promise<Call>;
  /** `call`, expecting `status` (200 unless given); answers the body. */
  ok(method: "GET" | "POST", path: string, body?: unknown, status?: number): Promise<Json>;
  /** Every operation named was called, and every answer matched the contract. */
  expectAnswered(names: string[]): void;
}

/** Registers the suite's set-up and tear-down: call inside the suite's describe. */
export function platformSession(database: Database): PlatformSession {
  const answers: Array<{ operationId: string; status: number; body: unknown }> = [];
  const session: PlatformSession = {
    server: undefined as unknown as TestServer,
    works: [],
    async call(method, path, body) {
      const res = await session.server.call(method, path, body === undefined ? {} : { body });
      const bare = path.split("?")[0];
      const operation = contract.operations.find((op) => op.method === method && op.path === bare);
      expect(operation, `${method} ${bare} is an operation of the contract`).toBeDefined();
      answers.push({ operationId: operation?.operationId ?? bare ?? "", status: res.status, body: res.body });
      return res;
    },
    async ok(method, path, body, status = 200) {
      const res = await session.call(method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
      return res.body as Json;
    },
    expectAnswered(names) {
      const called = new Set(
        answers.map(
          (answer) => contract.operations.find((op) => op.operationId === answer.operationId)?.name,
        ),
      );
      for (const name of names) expect(called.has(name), name).toBe(true);
      const mismatches = answers
        .map((answer) => {
          const operation = contract.operations.find((op) => op.operationId === answer.operationId);
          const problem = operation?.checkResponse(answer.status, answer.body);
          return problem ? `${answer.operationId} ${answer.status}: ${problem}` : undefined;
        })
        .filter(Boolean);
      expect(mismatches).toEqual([]);
      expect(session.server.app.violations).toEqual([]);
    },
  };
  beforeAll(async () => {
    session.server = await startTestServer(database);
    await seed(session.server.store, session.server.org, session.server.admin, { works: 60 });
    session.works = (await session.server.call("POST", "/works.export", { body: { first: 500 } })).body.works;
  }, 180_000);
  afterAll(async () => {
    await session.server?.close();
  });
  return session;
}
