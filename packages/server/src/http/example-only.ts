// Operations the contract has but the server does not implement yet. An operation marked `x-unreleased` (added
// since the last release) may come without a handler: its route then checks the request as any other (the
// hooks before it authenticate and authorize; the input is checked against the contract here), answers the
// operation's documented example for its success status, or for the status a `Prefer: code=<status>` asks
// (the sandboxes' scenarios, ./scenarios.ts, which work everywhere here since nothing would run anyway), and
// says so in `x-workapi-example-only: true`. So a contract author can call a new operation, and a client be
// written against it, before its handler exists. A released operation without a handler stops the server at
// start (./routes.ts), and test/handlers.test.ts fails on it.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Contract, Operation } from "../core/contract.js";
import { inputOf } from "../core/input.js";
import { documentedAnswer, EXAMPLE_ONLY_HEADER, readPrefer } from "./scenarios.js";

// The header that marks an answer as the contract's example (./scenarios.ts holds it: sandboxes' scenarios
// mark theirs too, and that module stands below this one).
export { EXAMPLE_ONLY_HEADER };

/** The operations of `operations` that only answer their examples: unreleased, with no handler in `has`. */
export function exampleOnlyOperations(
  operations: readonly Operation[],
  has: (name: string) => boolean,
): Operation[] {
  return operations.filter((operation) => operation.unreleased && !has(operation.name));
}

/** The handler of an example-only operation's route. */
export function exampleAnswer(contract: Contract, operation: Operation) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The request is checked as the handler's would be, so a caller learns the contract's refusals already.
    if (operation.method === "GET") {
      const at = request.url.indexOf("?");
      inputOf(operation, { query: at < 0 ? "" : request.url.slice(at + 1) });
    } else if (!operation.form) {
      inputOf(operation, { json: typeof request.body === "string" ? request.body : "" });
    }
    const prefer = request.headers.prefer;
    const wanted = prefer === undefined ? {} : readPrefer(String(prefer));
    const status = wanted.code ?? operation.successStatus;
    const answer = documentedAnswer(contract, operation, status, wanted.retryAfter);
    if (answer.retryAfter !== undefined) reply.header("retry-after", String(answer.retryAfter));
    return reply
      .code(status)
      .header(EXAMPLE_ONLY_HEADER, "true")
      .type("application/json; charset=utf-8")
      .send(answer.body);
  };
}
