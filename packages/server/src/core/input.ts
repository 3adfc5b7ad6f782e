// An operation's input: what the route read of a request, as it arrived (the query string of a GET, the text of
// a JSON body, the fields and files of a form), or the value the seed passes. The executor (./executor.ts)
// alone turns it into the handler's input and checks it against the contract, on the thread that runs the
// operation: a write sent to the write thread crosses as the request's own text and is parsed there, once.
import { type Operation, requireStorableStrings } from "./contract.js";
import { apiError } from "./errors.js";
import { readQuery, unflatten } from "./query.js";

export type Arrived =
  /** A GET's query string, as sent (without the `?`). */
  | { query: string }
  /** A JSON body's text, decoded from UTF-8; an empty body is `{}`. */
  | { json: string }
  /** A multipart form's fields and files (../http/body.ts's readForm); its handler checks its fields. */
  | { form: Record<string, unknown> }
  /** An input made in code (the seed): checked as a JSON body would be. */
  | { value: unknown };

/** The handler's input of `operation` from what arrived, checked against the contract (defaults applied). */
export function inputOf(operation: Operation, arrived: Arrived): unknown {
  if ("query" in arrived) {
    // Checked as it arrived, flat, then shaped as the POST body of the same read would be.
    const input = readQuery(arrived.query, operation.query);
    operation.validateInput(input);
    return unflatten(input);
  }
  if ("form" in arrived) {
    requireStorableStrings(arrived.form, false);
    return arrived.form;
  }
  const input = "json" in arrived ? parsedBody(arrived.json) : arrived.value;
  operation.validateInput(input);
  return input;
}

/** A JSON body's value: `{}` for an empty body, a parse_error for text that is not JSON. */
function parsedBody(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw apiError(
      "parse_error",
      `${(error as Error).message}. Send a JSON object with Content-Type: application/json.`,
    );
  }
}
