// Contract-driven fuzzing of every operation on every database: requests valid per the contract (with ids that
// exist and random ones), requests with one thing broken (types, null, required fields, undeclared fields, bounds,
// enums, NUL bytes, lone surrogates, huge strings and arrays, garbage cursors) and requests with missing or bad
// credentials. Every answer must be declared by the contract (status, content type, body) and never a 5xx;
// input the contract forbids must be refused with a typed 4xx; valid input must not be refused for a made-up
// reason. Then the life of each record family: create -> get -> update -> list -> delete -> get is 404.
// FUZZ_RUNS (requests per database, default 10,000) and FUZZ_SEED (default fixed) tune a run; a failure
// prints the shrunk request as a curl line.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/seed/index.js";
import { arbitraryOf, type Mutation, mutationsOf } from "./fuzz/arbitraries.js";
import {
  type Answer,
  contractScopes,
  exampleOnly,
  nonConformance,
  type Operation,
  operations,
  spec as specDoc,
  typedClientError,
} from "./fuzz/contract.js";
import { curlLine, send, type WireRequest, wireRequest } from "./fuzz/requests.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
// One property sends about a hundred requests (more while shrinking a failure, some of them megabytes).
const PROPERTY_TIMEOUT = 180_000;
// Shares of each operation's requests; rounded up, so a passing run sends at least FUZZ_RUNS requests.
const perOperation = RUNS / operations.length;
const positiveRuns = Math.ceil(perOperation * 0.4);
const negativeRuns = Math.ceil(perOperation * 0.45);
const authRuns = Math.ceil(perOperation * 0.15);
const lifecycleRuns = Math.max(1, Math.round(RUNS / 250));

/** 400 types that say the request broke the schema: a request the contract allows must never get them. */
const SCHEMA_REFUSALS = new Set(["missing_required_field", "unexpected_json_type", "invalid_enum_value"]);

// Seeds differ per operation and kind so that one property's shrinking does not shift the others.
function seedFor(label: string): number {
  let hash = SEED;
  for (const char of label) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

class Failure extends Error {}

// Named so a run says what it left out: they answer their documented examples only (src/http/example-only.ts).
if (exampleOnly.length > 0) {
  describe("example-only operations (no handler yet, not fuzzed)", () => {
    for (const label of exampleOnly) it.skip(label, () => {});
  });
}

describe.each(databases)("fuzz on %s", (database) => {
  let server: TestServer;
  /** Ids seen in list answers, by the field they were found under (`owned_by`, `tag`, `works`). */
  const pool = new Map<string, Set<string>>();
  const tokens = new Map<string, string>();
  let sent = 0;
  let started = 0;
  let serverErrors = 0;

  beforeAll(async () => {
    started = Date.now();
    server = await startTestServer(database, { rateLimitMax: 1_000_000_000, validateResponses: false });
    await seed(server.store, server.org, server.admin, { works: 20 });
    // Ids that exist, from every list operation, filed under the field that holds them: positive requests
    // pick from them.
    const collect = (value: unknown, under: string): void => {
      if (Array.isArray(value)) for (const item of value) collect(item, under);
      else if (value && typeof value === "object") {
        for (const [key, inner] of Object.entries(value)) {
          if (key === "id" && typeof inner === "string") {
            const ids = pool.get(under) ?? new Set();
            pool.set(under, ids.add(inner));
          } else collect(inner, key);
        }
      }
    };
    for (const operation of operations.filter((o) => o.method === "POST" && o.name.endsWith(".list"))) {
      const answer = await server.call("POST", operation.path, { body: {} });
      const family = operation.name.slice(0, -".list".length);
      for (const [key, inner] of Object.entries(answer.body ?? {}))
        collect(inner, Array.isArray(inner) ? family : key);
    }
  }, 300_000);

  afterAll(async () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `fuzz on ${database}: ${sent} requests sent in ${seconds} s, ${serverErrors} answered 5xx (seed ${SEED})`,
    );
    await server?.close();
  });

  async function exchange(_operation: Operation, request: WireRequest): Promise<Answer> {
    sent++;
    const answer = await send(server.url, request);
    if (answer.status >= 500) serverErrors++;
    return answer;
  }

  function fail(request: WireRequest, why: string): never {
    throw new Failure(`${why}\n  ${curlLine(server.url, request, [server.adminToken, ...tokens.values()])}`);
  }

  /** The ids a string field may name: the operation's own family for a top-level `id`, else by field name. */
  function idsFor(operation: Operation, field: string, parent: string): string[] {
    const family = operation.name.slice(0, operation.name.lastIndexOf("."));
    const keys =
      field === "id"
        ? parent
          ? [parent, parent.replace(/s$/, "")]
          : [family]
        : [field, field.replace(/s$/, "")];
    return [...new Set(keys.flatMap((key) => [...(pool.get(key) ?? [])]))].sort();
  }

  function positive(
    operation: Operation,
    tuning: { maxDepth?: number; idsOnly?: boolean } = {},
  ): fc.Arbitrary<Record<string, unknown>> {
    const options = { ids: (field: string, parent: string) => idsFor(operation, field, parent), ...tuning };
    return (arbitraryOf(specDoc, operation.input, options) as fc.Arbitrary<Record<string, unknown>>)
      .filter((value) => operation.validInput(structuredClone(value)))
      .filter(
        // A double quote cannot be written inside a comma-separated query list.
        (value) => operation.method === "POST" || !JSON.stringify(value).includes('\\"'),
      );
  }

  const ADMIN = () => `Bearer ${server.adminToken}`;

  for (const operation of operations) {
    const label = `${operation.method} ${operation.path}`;
    const mutations = mutationsOf(specDoc, operation.input).filter(
      (m) => operation.method === "POST" || queryMutation(m),
    );

    it(
      `${label}: valid requests are answered as declared and not refused`,
      async () => {
        await check(
          `positive ${label}`,
          fc.asyncProperty(positive(operation), async (input) => {
            const request = wireRequest(operation, input, ADMIN());
            const answer = await exchange(operation, request);
            const wrong = nonConformance(operation, answer);
            if (wrong) fail(request, wrong);
            if (
              [401, 403, 413].includes(answer.status) ||
              (answer.status === 400 && SCHEMA_REFUSALS.has(answer.body.type))
            )
              fail(request, `a valid request was refused: ${answer.status} ${answer.text.slice(0, 300)}`);
          }),
          positiveRuns,
        );
      },
      PROPERTY_TIMEOUT,
    );

    // Oversized input (huge strings and arrays) is its own property, so that a failure of one kind does not
    // hide the other behind fast-check's stop at the first counterexample.
    const oversized = (m: Mutation) => m.kind.startsWith("huge ");
    for (const [what, chosen] of [
      ["malformed", mutations.filter((m) => !oversized(m))],
      ["oversized", mutations.filter(oversized)],
    ] as const) {
      if (chosen.length === 0) continue;
      it(
        `${label}: ${what} requests are refused with a typed 4xx or answered as declared, never a 5xx`,
        async () => {
          // Every mutation is tried at least once (on one valid request) before random pairs: fast-check counts
          // these examples in the runs.
          const base = fc.sample(positive(operation), { numRuns: 1, seed: seedFor(label) })[0] as Record<
            string,
            unknown
          >;
          await check(
            `${what} ${label}`,
            fc.asyncProperty(positive(operation), fc.constantFrom(...chosen), async (input, mutation) => {
              const broken = mutation.apply(input);
              const request = wireRequest(operation, broken, ADMIN());
              const answer = await exchange(operation, request);
              const wrong = nonConformance(operation, answer);
              if (wrong) fail(request, `${mutation.kind} ${mutation.field ?? ""}: ${wrong}`);
              const forbidden =
                mutation.kind.startsWith("garbage cursor") ||
                mutation.kind.startsWith("nested ") ||
                (operation.method === "POST" && mutation.kind.endsWith(" body")) ||
                !operation.validInput(structuredClone(broken));
              // A garbage cursor on the list of a record that does not exist may get that record's typed 404.
              if (
                forbidden &&
                !(
                  typedClientError(operation, answer) &&
                  [
                    400,
                    413,
                    ...(oversized(mutation) ? [431] : []),
                    ...(mutation.kind.startsWith("garbage cursor") ? [404] : []),
                  ].includes(answer.status)
                )
              )
                fail(
                  request,
                  `${mutation.kind} ${mutation.field ?? ""}: input the contract forbids was answered ${answer.status} ${answer.text.slice(0, 200)}`,
                );
            }),
            // Without oversized mutations, the malformed property takes the whole negative share.
            Math.ceil(negativeRuns * (what === "oversized" ? 0.2 : mutations.some(oversized) ? 0.8 : 1)),
            chosen.map((mutation) => [base, mutation] as [Record<string, unknown>, Mutation]),
          );
        },
        PROPERTY_TIMEOUT,
      );
    }

    it(
      `${label}: missing, malformed and insufficient credentials are refused with a typed 401/403`,
      async () => {
        const kinds = [
          "none",
          "unknown token",
          "not bearer",
          ...(operation.scopes.length ? ["no scope"] : []),
        ];
        await check(
          `auth ${label}`,
          fc.asyncProperty(positive(operation), fc.constantFrom(...kinds), async (input, kind) => {
            let authorization: string | null = null;
            if (kind === "unknown token") authorization = "Bearer wk_fuzz_not_a_real_token";
            if (kind === "not bearer") authorization = "Basic dXNlcjpwYXNz";
            if (kind === "no scope") authorization = `Bearer ${await tokenWithout(operation)}`;
            const request = wireRequest(operation, input, authorization);
            const answer = await exchange(operation, request);
            const wrong = nonConformance(operation, answer);
            if (wrong) fail(request, `${kind}: ${wrong}`);
            const expected = kind === "no scope" ? 403 : 401;
            if (answer.status !== expected || !typedClientError(operation, answer))
              fail(
                request,
                `${kind}: expected a typed ${expected}, got ${answer.status} ${answer.text.slice(0, 200)}`,
              );
          }),
          authRuns,
        );
      },
      PROPERTY_TIMEOUT,
    );
  }

  /** A token of the admin with one scope of another resource than any the operation accepts. */
  async function tokenWithout(operation: Operation): Promise<string> {
    const resources = new Set(operation.scopes.map((s) => s.split(":")[0]));
    const scope = contractScopes.find((s) => !resources.has(s.split(":")[0])) as string;
    let token = tokens.get(scope);
    if (!token) {
      token = await server.token([scope]);
      tokens.set(scope, token);
    }
    return token;
  }

  async function check<T>(
    label: string,
    property: fc.IAsyncProperty<T>,
    numRuns: number,
    examples: T[] = [],
  ): Promise<void> {
    const details = await fc.check(property, {
      numRuns,
      seed: seedFor(label),
      endOnFailure: false,
      examples,
    });
    if (details.failed) {
      const error = details.errorInstance;
      const message = error instanceof Failure ? error.message : String(error);
      throw new Error(
        `${label} failed after ${details.numRuns} runs (${details.numShrinks} shrinks; reproduce with FUZZ_SEED=${SEED}):\n${message}`,
      );
    }
    expect(details.numRuns).toBe(numRuns);
  }

  // The life of a record, for every family with create, get and delete (update and list where it has them).
  for (const family of lifecycleFamilies()) {
    it(
      `${family.name}: create -> get -> update -> list -> delete -> get answers 404`,
      async () => {
        let lived = 0;
        let updated = 0;
        const create = family.create as Operation;
        await check(
          `lifecycle ${family.name}`,
          fc.asyncProperty(
            // Shallow records with ids that exist: a record that can be created most of the time.
            positive(create, { maxDepth: 1, idsOnly: true }),
            family.update ? positive(family.update, { maxDepth: 0, idsOnly: true }) : fc.constant({}),
            async (generated, change) => {
              // An artifact attaches to one record only and the seed's are all attached, so a lifecycle's record
              // carries none. A member refused by name (an issue's own member on a task, say: a rule only the
              // descriptions state) is left out and the create tried again, so that records do live.
              const { artifacts: _attached, ...body } = generated as Record<string, unknown>;
              let createRequest = wireRequest(create, body, ADMIN());
              let created = await exchange(create, createRequest);
              for (let tries = 0; tries < 8; tries++) {
                const wrong = nonConformance(create, created);
                if (wrong) fail(createRequest, wrong);
                const named = created.status === 400 ? created.body?.field_name : undefined;
                if (typeof named !== "string" || !(named in body)) break;
                delete body[named];
                createRequest = wireRequest(create, body, ADMIN());
                created = await exchange(create, createRequest);
              }
              const wrong = nonConformance(create, created);
              if (wrong) fail(createRequest, wrong);
              if (created.status >= 300) return; // refused for a reason the contract declares (a made-up id)
              const record = Object.values(created.body as object)[0] as { id: string };
              lived++;
              const step = async (
                operation: Operation,
                input: Record<string, unknown>,
                expected: number,
                refusable = false,
              ) => {
                const request = wireRequest(operation, input, ADMIN());
                const answer = await exchange(operation, request);
                const bad = nonConformance(operation, answer);
                if (bad) fail(request, bad);
                // A generated change may name a stage or id that does not exist: a typed 400 about that field
                // (never about the record's own id) is a fair answer.
                const fairRefusal =
                  refusable &&
                  answer.status === 400 &&
                  answer.body.field_name &&
                  answer.body.field_name !== "id";
                if (answer.status !== expected && !fairRefusal)
                  fail(
                    request,
                    `${operation.name} after create: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 200)}`,
                  );
                return answer;
              };
              const got = await step(family.get, { id: record.id }, 200);
              if ((Object.values(got.body)[0] as { id: string }).id !== record.id)
                fail(wireRequest(family.get, { id: record.id }, ADMIN()), "get answered another record");
              if (family.update) {
                const answer = await step(family.update, { ...change, id: record.id }, 200, true);
                if (answer.status === 200) updated++;
              }
              if (family.list) {
                let cursor: string | undefined;
                let seen = false;
                for (let page = 0; page < 50 && !seen; page++) {
                  const answer = await step(family.list, { limit: 100, ...(cursor ? { cursor } : {}) }, 200);
                  const items = Object.values(answer.body).find(Array.isArray) as Array<{ id: string }>;
                  seen = items.some((item) => item.id === record.id);
                  cursor = answer.body.next_cursor;
                  if (!cursor) break;
                }
                if (!seen)
                  fail(
                    wireRequest(family.list, { limit: 100 }, ADMIN()),
                    `${record.id} is missing from the list`,
                  );
              }
              await step(family.delete, { id: record.id }, family.delete.responses.has(204) ? 204 : 200);
              const gone = await step(family.get, { id: record.id }, 404);
              if (!typedClientError(family.get, gone))
                fail(wireRequest(family.get, { id: record.id }, ADMIN()), "404 untyped");
            },
          ),
          lifecycleRuns,
        );
        // Generated records are refused now and then for reasons the contract declares (a part hierarchy, an id
        // of the wrong kind); some must have lived, or the steps after create were never tried.
        expect(lived, `${family.name}: records created`).toBeGreaterThan(0);
        if (family.update) expect(updated, `${family.name}: records updated`).toBeGreaterThan(0);
      },
      PROPERTY_TIMEOUT,
    );
  }
});

function queryMutation(mutation: Mutation): boolean {
  // A query string has no null, no object, no nesting and no body of another type: those are for JSON bodies.
  return !/ body$|^null field$|^wrong type \((object|array)\)$|^nested /.test(mutation.kind);
}

interface Family {
  name: string;
  create: Operation;
  get: Operation;
  delete: Operation;
  update?: Operation;
  list?: Operation;
}

function lifecycleFamilies(): Family[] {
  const post = (name: string) => operations.find((o) => o.method === "POST" && o.name === name);
  const families: Family[] = [];
  for (const create of operations.filter((o) => o.method === "POST" && o.name.endsWith(".create"))) {
    const family = create.name.slice(0, -".create".length);
    const get = post(`${family}.get`);
    const remove = post(`${family}.delete`);
    if (!get || !remove) continue;
    const update = post(`${family}.update`);
    const list = post(`${family}.list`);
    families.push({
      name: family,
      create,
      get,
      delete: remove,
      ...(update ? { update } : {}),
      ...(list ? { list } : {}),
    });
  }
  return families;
}
