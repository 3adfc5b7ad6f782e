// The route the contract gives each operation. Its input (the query of a GET, the JSON body or form of a
// POST) is read and checked against the contract as it arrived; the executor (../core/executor.ts) runs the
// operation and checks its answer; the route sends it. A known path asked with another method is a 405 that
// says which methods it answers.
import { Readable } from "node:stream";
import { HTTP_METHODS } from "@workapi/spec";
import type { FastifyRequest } from "fastify";
import type { Authenticated } from "../core/auth.js";
import { type Contract, type Operation, requireStorableStrings } from "../core/contract.js";
import { apiError } from "../core/errors.js";
import type { Executor } from "../core/executor.js";
import { JsonChunks, JsonText } from "../core/json-text.js";
import { readForm } from "./body.js";
import { shared } from "./plugin.js";
import { readQuery, unflatten } from "./query.js";

declare module "fastify" {
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

export interface RoutesOptions {
  contract: Contract;
  executor: Executor;
  bodyLimit: number;
  /** With CORS on, OPTIONS belongs to the preflight and is not refused with 405. */
  cors: boolean;
}

export const contractRoutes = shared<RoutesOptions>(async (fastify, options) => {
  const { contract, executor } = options;
  const byPath = new Map<string, Operation[]>();
  for (const operation of contract.operations) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  }
  for (const [path, operations] of byPath) {
    for (const operation of operations) {
      if (!executor.has(operation.name)) throw new Error(`no handler for ${operation.name}`);
      fastify.route({
        method: operation.method,
        url: path,
        config: { operation },
        handler: async (request, reply) => {
          const auth = request.auth as Authenticated;
          const facts = {
            requestId: request.id,
            // Where this server is reached, as the client addressed it (for answers that hold absolute URLs).
            baseUrl: `${request.protocol}://${request.host}`,
          };
          const read = () => readInput(request, operation, options.bodyLimit);
          const output =
            operation.method === "GET"
              ? await executor.read(operation, auth, facts, queryOf(request), read, request.committed)
              : await executor.run(operation, auth, facts, await read(), true);
          reply.code(operation.successStatus);
          if (output instanceof JsonText)
            return reply.type("application/json; charset=utf-8").send(output.body);
          // Sent as the store reads it; the stream, destroyed when the caller goes away, ends the reading.
          if (output instanceof JsonChunks)
            return reply.type("application/json; charset=utf-8").send(Readable.from(output.chunks));
          return reply.send(output);
        },
      });
    }
    const allowed: string[] = operations.map((operation) => operation.method);
    // Fastify answers HEAD wherever GET is (exposeHeadRoutes, in app.ts).
    if (allowed.includes("GET")) allowed.push("HEAD");
    // TRACE is left to the not-found answer, as Fastify routes it nowhere by default.
    const refused = HTTP_METHODS.map((method) => method.toUpperCase()).filter(
      (method) => method !== "TRACE" && !allowed.includes(method) && !(options.cors && method === "OPTIONS"),
    );
    fastify.route({
      method: refused,
      url: path,
      handler: async (request) => {
        const methods = operations.map((operation) => operation.method).join(" and ");
        throw apiError("bad_request", `${path} answers ${methods}, not ${request.method}.`)
          .withStatus(405)
          .withHeader("allow", allowed.join(", "));
      },
    });
  }
});

/** The query string of a request's URL, as sent. */
function queryOf(request: FastifyRequest): string {
  const at = request.url.indexOf("?");
  return at < 0 ? "" : request.url.slice(at + 1);
}

/** The operation's input, validated: a GET's query or a POST's JSON body (a form is checked by its handler). */
async function readInput(request: FastifyRequest, operation: Operation, bodyLimit: number): Promise<unknown> {
  if (operation.method === "GET") {
    const input = readQuery(queryOf(request), operation.query);
    operation.validateInput(input);
    return unflatten(input as Record<string, unknown>);
  }
  if (request.isMultipart() !== operation.form) {
    throw apiError(
      "invalid_content_type",
      operation.form
        ? `${operation.path} takes a multipart/form-data body; got '${request.headers["content-type"] ?? "no content type"}'.`
        : `Bodies must be JSON; got '${request.headers["content-type"]}'. Send Content-Type: application/json.`,
    );
  }
  // A form's fields are checked by its handler (the contract's JSON Schema describes JSON bodies).
  if (operation.form) {
    const form = await readForm(request, bodyLimit);
    requireStorableStrings(form, false);
    return form;
  }
  // No body at all is `{}`; a JSON `null` (or any body that is not an object) is refused by the schema.
  const input = request.body === undefined ? {} : request.body;
  operation.validateInput(input);
  return input;
}
