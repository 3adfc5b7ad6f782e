// Scenarios in a sandbox: a request carrying `Prefer: code=<status>` is answered the operation's documented
// answer for that status (the contract's example, so its body is valid against the contract's schema; a 429
// also carries `Retry-After`, the example's `retry_after` or the seconds of `Prefer: retry-after=<s>`) and
// runs nothing; `Prefer: delay=<ms>` answers late, at most
// WORKAPI_SANDBOX_MAX_DELAY_MS. A status the operation does not document is a 400 `value_not_permitted`
// naming the documented ones. Outside sandboxes `Prefer` is ignored.
import { setTimeout as sleep } from "node:timers/promises";
import { resolveRef } from "@workapi/spec";
import type { Contract, Operation } from "../core/contract.js";
import { notPermitted } from "../core/errors.js";
import { shared } from "./plugin.js";
import type { SandboxOrgs } from "./sandbox-orgs.js";

/** The header of an answer that is the contract's documented example, not the work of a handler. */
export const EXAMPLE_ONLY_HEADER = "x-workapi-example-only";

export interface ScenariosOptions {
  contract: Contract;
  sandboxOrgs: SandboxOrgs;
  /** The longest delay a `Prefer: delay` gets (WORKAPI_SANDBOX_MAX_DELAY_MS). */
  maxDelayMs: number;
}

export const scenarios = shared<ScenariosOptions>(async (fastify, { contract, sandboxOrgs, maxDelayMs }) => {
  fastify.addHook("preHandler", async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    const prefer = request.headers.prefer;
    if (!operation || !request.auth || prefer === undefined) return;
    if (!(await sandboxOrgs.isSandbox(request.auth.org.id))) return;
    const wanted = readPrefer(String(prefer));
    if (wanted.delay !== undefined) await sleep(Math.min(wanted.delay, maxDelayMs));
    if (wanted.code === undefined) return;
    const answer = documentedAnswer(contract, operation, wanted.code, wanted.retryAfter);
    if (answer.retryAfter !== undefined) reply.header("retry-after", String(answer.retryAfter));
    if (request.routeOptions.config.exampleOnly) reply.header(EXAMPLE_ONLY_HEADER, "true");
    return reply.code(wanted.code).type("application/json; charset=utf-8").send(answer.body);
  });
});

interface Preferences {
  code?: number;
  delay?: number;
  retryAfter?: number;
}

/** `code=<status>`, `delay=<ms>` and `retry-after=<s>` of a Prefer header (RFC 7240: comma-separated preferences). */
export function readPrefer(header: string): Preferences {
  const out: Preferences = {};
  for (const part of header.split(/[,;]/)) {
    const [key, raw] = part.split("=").map((s) => s.trim().replace(/^"|"$/g, ""));
    const value = Number(raw);
    const whole = raw !== undefined && raw !== "" && Number.isInteger(value) && value >= 0;
    if (key === "code") {
      if (!whole)
        throw notPermitted("Prefer", "not a status", `Prefer: code= takes an HTTP status; got '${raw}'.`);
      out.code = value;
    } else if (key === "delay") {
      if (!whole)
        throw notPermitted("Prefer", "not a delay", `Prefer: delay= takes milliseconds; got '${raw}'.`);
      out.delay = value;
    } else if (key === "retry-after") {
      if (!whole)
        throw notPermitted("Prefer", "not seconds", `Prefer: retry-after= takes seconds; got '${raw}'.`);
      out.retryAfter = value;
    }
  }
  return out;
}

interface Answer {
  body: unknown;
  retryAfter?: number;
}

/** The operation's documented answer for `status`: its example, else the first example of its schema. */
export function documentedAnswer(
  contract: Contract,
  operation: Operation,
  status: number,
  retryAfter?: number,
): Answer {
  if (!operation.statuses.includes(status)) {
    const documented = operation.statuses.map(String);
    throw notPermitted(
      "Prefer",
      "not a documented status of this operation",
      `${operation.name} documents the statuses ${documented.join(", ")}; Prefer: code=${status} is not one.`,
      documented,
    );
  }
  const spec = contract.spec;
  const item = spec.paths[operation.path] as Record<string, { responses: Record<string, unknown> }>;
  const response = resolveRef<{ content?: Record<string, { example?: unknown; schema?: unknown }> }>(
    spec,
    item[operation.method.toLowerCase()]?.responses[String(status)],
  );
  const media = response.content?.["application/json"];
  const body = media?.example !== undefined ? media.example : exampleOf(spec, media?.schema);
  if (body === undefined)
    throw new Error(`the contract gives no example of ${operation.operationId} ${status}`);
  const example = (body as { retry_after?: unknown }).retry_after;
  if (status !== 429 || typeof example !== "number") return { body };
  const seconds = retryAfter ?? example;
  return { body: { ...(body as object), retry_after: seconds }, retryAfter: seconds };
}

/** The first example of a schema, or of the first alternative of a `oneOf` that has one. */
function exampleOf(spec: unknown, node: unknown): unknown {
  if (node === undefined) return undefined;
  const schema = resolveRef<{ examples?: unknown[]; example?: unknown; oneOf?: unknown[] }>(spec, node);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  for (const alternative of schema.oneOf ?? []) {
    const found = exampleOf(spec, alternative);
    if (found !== undefined) return found;
  }
  return undefined;
}
