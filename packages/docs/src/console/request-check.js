// The console's check of a request before it is sent: the validators the generator compiled from the contract
// with the reference server's own Ajv options (src/render/request-validators.mjs), so the console refuses a
// request exactly when the server would. Like the server, it stops at the first error and names the one the
// server's 400 would name; here that error is put at its field (a path of keys) with a short message.
// The validators come with console.js (data.js loads it before any console opens).
import { validators } from "./data.js";

const show = (value) => JSON.stringify(value);

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The keys of an Ajv instance path (a JSON pointer): list positions as numbers, as the form's paths have them. */
const keysOf = (pointer) =>
  pointer
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((key) => (/^(0|[1-9]\d*)$/.test(key) ? Number(key) : key));

const valueAt = (root, keys) => keys.reduce((value, key) => value?.[key], root);

// As the server picks the error of a failed oneOf/anyOf (packages/server/src/core/contract.ts, meantError): Ajv
// lists the branches' first errors before the union's, and the branch error that got deepest into the input,
// then the most telling one, says best what the caller meant; when two tie, the union's own error does.
const TELLING = { required: 4, additionalProperties: 1, type: 0, const: 0, enum: 0 };

function meantError(errors) {
  const unionAt = errors.findIndex((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  const union = errors[unionAt];
  if (!union || unionAt === 0) return errors[0];
  const score = (e) => e.instancePath.split("/").length * 10 + (TELLING[e.keyword] ?? 3);
  const candidates = errors.slice(0, unionAt).filter((e) => e.instancePath.startsWith(union.instancePath));
  const best = Math.max(...candidates.map(score));
  const top = candidates.filter((e) => score(e) === best);
  return top.length === 1 ? top[0] : union;
}

/** Ajv's error as the console shows it: { path: [keys], message }. */
function problemOf(error, input) {
  const path = keysOf(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case "required":
      return { path: [...path, params.missingProperty], message: "is required" };
    case "additionalProperties":
      return { path: [...path, params.additionalProperty], message: "is not a field of this object" };
    case "unevaluatedProperties":
      return { path: [...path, params.unevaluatedProperty], message: "is not a field of this object" };
    case "type":
      return {
        path,
        message: `must be ${String(params.type).split(",").join(" or ")}, not ${typeOf(valueAt(input, path))}`,
      };
    case "enum":
      return { path, message: `must be one of ${params.allowedValues.map(show).join(", ")}` };
    case "const":
      return { path, message: `must be ${show(params.allowedValue)}` };
    case "minLength":
      return {
        path,
        message: params.limit === 1 ? "must not be empty" : `needs at least ${params.limit} characters`,
      };
    case "maxLength":
      return { path, message: `takes at most ${params.limit} characters` };
    case "format":
      return { path, message: `must be a ${params.format}` };
    default:
      // Ajv's own words for the rest ("must be <= 100", "must NOT have more than 50 items").
      return { path, message: error.message };
  }
}

/** The problems of `input` for `validate` ([] when it passes): at most one, the one the server would name. */
function check(validate, input) {
  if (!validate) return [];
  // The server's options fill in defaults and (for queries) coerce in place: the request sent stays as typed.
  const copy = input === undefined ? undefined : structuredClone(input);
  if (validate(copy)) return [];
  const error = meantError(validate.errors ?? []);
  return error ? [problemOf(error, input)] : [{ path: [], message: "does not fit the contract" }];
}

/** The problems of an operation's body, as the server checks it. */
export const bodyProblems = (operation, body) => check(validators().body[operation.id], body);

/** The problems of a GET operation's query parameters, as the server checks them. */
export const queryProblems = (operation, params) => check(validators().query[operation.id], params);
