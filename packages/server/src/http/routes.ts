// The route the contract gives each operation. It reads what the request carries (the query string of a GET,
// the JSON body's text or the form of a POST) and hands it to the executor (../core/executor.ts), which checks
// it against the contract, runs the operation and checks its answer; the route sends it. A known path asked with another method is a 405 that
// says which methods it answers.
import { Readable } from "node:stream";
import { HTTP_METHODS } from "@workapi/spec";
import type { FastifyRequest } from "fastify";
import type { Authenticated } from "../core/auth.js";
import type { Contract, Operation } from "../core/contract.js";
import { apiError } from "../core/errors.js";
import type { Executor } from "../core/executor.js";
import type { Arrived } from "../core/input.js";
import { JsonChunks, JsonText } from "../core/json-text.js";
import { readForm } from "./body.js";
import { exampleAnswer } from "./example-only.js";
import { shared } from "./plugin.js";

declare module "fastify" {
  interface FastifyContextConfig {
    operation?: Operation;
    /** The operation has no handler yet and answers its documented examples (./example-only.ts). */
    exampleOnly?: boolean;
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
      if (!executor.has(operation.name)) {
        if (!operation.unreleased) {
          throw new Error(
            `no handler for ${operation.name}: write it, or mark the operation x-unreleased in the contract while it answers only its examples`,
          );
        }
        fastify.route({
          method: operation.method,
          url: path,
          config: { operation, exampleOnly: true },
          handler: exampleAnswer(contract, operation),
        });
        continue;
      }
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
          const output =
            operation.method === "GET"
              ? await executor.read(operation, auth, facts, queryOf(request), request.committed)
              : await executor.run(
                  operation,
                  auth,
                  facts,
                  await bodyOf(request, operation, options.bodyLimit),
                  request.committed,
                );
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

/** What a POST carries: its JSON body's text, or its form (a JSON body to a form's operation is refused). */
async function bodyOf(request: FastifyRequest, operation: Operation, bodyLimit: number): Promise<Arrived> {
  if (request.isMultipart() !== operation.form) {
    throw apiError(
      "invalid_content_type",
      operation.form
        ? `${operation.path} takes a multipart/form-data body; got '${request.headers["content-type"] ?? "no content type"}'.`
        : `Bodies must be JSON; got '${request.headers["content-type"]}'. Send Content-Type: application/json.`,
    );
  }
  if (operation.form) return { form: await readForm(request, bodyLimit) };
  // No body at all is the empty text (`{}`); the body parser (./body.ts) leaves a JSON body as its text.
  return { json: typeof request.body === "string" ? request.body : "" };
}
