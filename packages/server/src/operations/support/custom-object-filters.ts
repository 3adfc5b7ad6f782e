// The filter language of custom-objects.count and custom-objects.list: prefix-notation expressions such as
// ["eq", "$custom_fields.tnt__priority", "high"], parsed and compiled into store filters.
//
//   ["eq" | "ne", field, value]                       value: string, number or boolean
//   ["gt" | "gte" | "lt" | "lte", field, value]       value: a number, or a date (ISO 8601 string)
//   ["in", field, [v1, v2, ...]]  or  ["in", field, v1, v2, ...]
//   ["exists", field]
//   ["and" | "or", expr, expr, ...]                   at least one expression
//   ["not", expr]
//
// Fields start with `$`: `$custom_fields.<name>`, `$title`, `$unique_key`, `$leaf_type`, `$stage.name`,
// `$created_date`, `$modified_date`, `$id`, `$display_id`, `$created_by.id`, `$modified_by.id`.
import { type ApiError, apiError } from "../../core/errors.js";
import type { Filter } from "../../store/types.js";

type Scalar = string | number | boolean;

interface Field {
  /** The store path: an indexed column or a dotted path into the record's data. */
  path: string;
  /** text: compares strings; date: ISO dates (normalized to UTC with milliseconds); any: custom fields. */
  kind: "text" | "date" | "any";
}

const FIELDS: Record<string, Field> = {
  title: { path: "title", kind: "text" },
  unique_key: { path: "unique_key", kind: "text" },
  leaf_type: { path: "subtype", kind: "text" },
  "stage.name": { path: "stage.name", kind: "text" },
  created_date: { path: "created_date", kind: "date" },
  modified_date: { path: "modified_date", kind: "date" },
  id: { path: "id", kind: "text" },
  display_id: { path: "display_id", kind: "text" },
  "created_by.id": { path: "created_by.id", kind: "text" },
  "modified_by.id": { path: "modified_by.id", kind: "text" },
};

const CUSTOM_FIELD = /^custom_fields(\.[A-Za-z0-9_]+)+$/;
const DATE = /^\d{4}-\d{2}-\d{2}([Tt ][0-9:.]+([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const COMPARISONS = ["eq", "ne", "gt", "gte", "lt", "lte"] as const;
const OPERATORS = [...COMPARISONS, "in", "exists", "and", "or", "not"];

/** One expression to compile and the request field it came from (`filters.2`). */
export interface Located {
  expression: unknown;
  field: string;
}

function malformed(field: string, where: string, detail: string): ApiError {
  const at = where ? ` (at ${where})` : "";
  return apiError("invalid_field", `${field}${at}: ${detail}`, {
    field_name: field,
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : JSON.stringify(value);
}

/**
 * The expressions of a request. POST bodies carry expressions as JSON arrays: `filters` (custom-objects.count)
 * and `filter` (custom-objects.list) are one expression (an array whose first item is the operator) or a list
 * of them. GET queries take three forms:
 *   - JSON: each value one expression written as JSON (the key repeated), or one value holding the JSON array
 *     of all of them: `filters=["eq","$title","Launch"]`;
 *   - quoted comma form, as the platform's SDK sends an array: the items JSON-encoded and joined by commas,
 *     `filters="eq","$title","Launch"`: one flat expression;
 *   - plain comma form: `filters=eq,$title,Launch`, or the tokens as repeated keys: one flat expression, where
 *     a token that reads as a JSON number or boolean is one (quote it in another form to keep it text).
 */
export function readExpressions(raw: unknown, base: string, fromQuery: boolean): Located[] {
  if (raw === undefined) return [];
  if (!fromQuery) {
    // A single expression, sent unwrapped.
    if (Array.isArray(raw) && typeof raw[0] === "string") return [{ expression: raw, field: base }];
    const list = Array.isArray(raw) ? raw : [raw];
    return list.map((expression, index) => ({ expression, field: `${base}.${index}` }));
  }
  const list: unknown[] = [];
  const tokens: unknown[] = [];
  for (const [index, value] of (Array.isArray(raw) ? raw : [raw]).entries()) {
    const text = String(value);
    const parsed = parseJson(text);
    if (Array.isArray(parsed)) {
      // One value may hold the whole list of expressions.
      if (parsed.length === 0 || Array.isArray(parsed[0])) list.push(...parsed);
      else list.push(parsed);
    } else if (text.trimStart().startsWith("[")) {
      throw apiError(
        "invalid_field",
        `The value ${index + 1} of '${base}' is not valid JSON: send an expression such as ["eq","$title","Spring launch"], URL-encoded.`,
        { field_name: base },
      );
    } else {
      tokens.push(...tokensOf(text));
    }
  }
  if (tokens.length > 0 && list.length > 0) {
    throw apiError(
      "invalid_field",
      `'${base}' holds both JSON expressions and the tokens of a flat one: send either expressions written as JSON or one expression as comma-separated tokens.`,
      { field_name: base },
    );
  }
  if (tokens.length > 0) return [{ expression: tokens, field: base }];
  return list.map((expression, index) => ({ expression, field: `${base}.${index}` }));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tokens of one query value in the quoted comma form (`"eq","$title","x"`) or the plain one (`eq,$title,x`). */
function tokensOf(text: string): unknown[] {
  if (text.trimStart().startsWith('"')) {
    const quoted = parseJson(`[${text}]`);
    if (Array.isArray(quoted)) return quoted;
  }
  return text.split(",").map((token) => {
    const scalar = parseJson(token);
    return typeof scalar === "number" || typeof scalar === "boolean" ? scalar : token;
  });
}

/** Compiles the expressions into one store filter (all must match), or undefined when there are none. */
export function compileExpressions(located: Located[]): Filter | undefined {
  const filters = located.map(({ expression, field }) => compile(expression, field, ""));
  if (filters.length === 0) return undefined;
  return filters.length === 1 ? filters[0] : { op: "and", filters };
}

function compile(expression: unknown, field: string, where: string): Filter {
  if (!Array.isArray(expression) || expression.length === 0) {
    throw malformed(
      field,
      where,
      `expected an expression, an array whose first element is an operator (${OPERATORS.join(", ")}), not ${describe(expression)}.`,
    );
  }
  const [op, ...operands] = expression as unknown[];
  const at = (index: number) => `${where}[${index}]`;
  switch (op) {
    case "and":
    case "or": {
      if (operands.length === 0) {
        throw malformed(field, where, `'${op}' expects at least one expression after the operator.`);
      }
      return { op, filters: operands.map((operand, i) => compile(operand, field, at(i + 1))) };
    }
    case "not": {
      if (operands.length !== 1) {
        throw malformed(field, where, `'not' expects exactly one expression, got ${operands.length}.`);
      }
      return { op: "not", filter: compile(operands[0], field, at(1)) };
    }
    case "exists": {
      if (operands.length !== 1) {
        throw malformed(field, where, `'exists' expects exactly one field, such as ["exists","$title"].`);
      }
      return { op: "exists", path: fieldOf(operands[0], field, at(1)).path, exists: true };
    }
    case "in":
      return compileIn(operands, field, where);
    case "eq":
    case "ne":
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return compileComparison(op, operands, field, where);
    default:
      throw malformed(
        field,
        at(0),
        `unknown operator ${describe(op)}; expected one of: ${OPERATORS.join(", ")}.`,
      );
  }
}

/** `["in", field, [v1, v2]]` or `["in", field, v1, v2]`. */
function compileIn(operands: unknown[], field: string, where: string): Filter {
  const at = (index: number) => `${where}[${index}]`;
  if (operands.length < 2) {
    throw malformed(
      field,
      where,
      `'in' expects a field and its values: ["in", field, [v1, v2]] or ["in", field, v1, v2].`,
    );
  }
  const target = fieldOf(operands[0], field, at(1));
  const listed = operands.length === 2 && Array.isArray(operands[1]);
  const values = (listed ? (operands[1] as unknown[]) : operands.slice(1)).map((value, i) =>
    valueFor(target, value, "in", field, listed ? `${at(2)}[${i}]` : at(i + 2)),
  );
  if (values.length === 0) throw malformed(field, at(2), "'in' expects at least one value.");
  return { op: "in", path: target.path, values };
}

/** `[op, field, value]` for eq, ne, gt, gte, lt, lte. */
function compileComparison(
  op: (typeof COMPARISONS)[number],
  operands: unknown[],
  field: string,
  where: string,
): Filter {
  const at = (index: number) => `${where}[${index}]`;
  if (operands.length !== 2) {
    throw malformed(
      field,
      where,
      `'${op}' expects a field and one value, such as ["${op}","$custom_fields.tnt__budget",100]; got ${operands.length} operands.`,
    );
  }
  const target = fieldOf(operands[0], field, at(1));
  const value = valueFor(target, operands[1], op, field, at(2));
  // Order comparisons are for numbers and dates: never on text fields, never with booleans or words.
  if (op !== "eq" && op !== "ne") {
    if (target.kind === "text") {
      throw malformed(field, at(1), `'${op}' compares numbers or dates; ${String(operands[0])} is text.`);
    }
    if (typeof value !== "number" && !(typeof value === "string" && isDate(value))) {
      throw malformed(
        field,
        at(2),
        `'${op}' compares numbers or dates; ${describe(operands[1])} is neither.`,
      );
    }
  }
  return { op, path: target.path, value };
}

function fieldOf(operand: unknown, field: string, where: string): Field {
  if (typeof operand !== "string" || !operand.startsWith("$")) {
    throw malformed(
      field,
      where,
      `expected a field name starting with '$', such as "$title", not ${describe(operand)}.`,
    );
  }
  const name = operand.slice(1);
  const known = FIELDS[name];
  if (known) return known;
  if (CUSTOM_FIELD.test(name)) return { path: name, kind: "any" };
  throw malformed(
    field,
    where,
    `unknown field ${JSON.stringify(operand)}; use $custom_fields.<name> or one of: ${Object.keys(FIELDS)
      .map((f) => `$${f}`)
      .join(", ")}.`,
  );
}

function isDate(value: string): boolean {
  return DATE.test(value) && !Number.isNaN(Date.parse(value));
}

function valueFor(target: Field, value: unknown, op: string, field: string, where: string): Scalar {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    const hint = value === null ? ' (test for a missing field with ["not", ["exists", field]])' : "";
    throw malformed(
      field,
      where,
      `'${op}' expects a string, number or boolean value, not ${describe(value)}${hint}.`,
    );
  }
  if (target.kind === "date") {
    if (typeof value !== "string" || !isDate(value)) {
      throw malformed(
        field,
        where,
        `expected a date such as "2026-11-02T09:15:00.000Z", not ${describe(value)}.`,
      );
    }
    // Stored dates are UTC with milliseconds: compare like with like.
    return new Date(value).toISOString();
  }
  if (target.kind === "text" && typeof value !== "string") {
    throw malformed(field, where, `expected a string value, not ${describe(value)}.`);
  }
  return value;
}
