// Query strings as existing clients send them: arrays as comma lists (`state=open,closed`), repeated keys
// (`state=open&state=closed`) or quoted comma lists (`state="open","closed"`), and nested filters flattened
// with dots (`stage.name=triage`). The result is the same object a POST body would carry.
import { apiError } from "./errors.js";

interface QueryParameter {
  name: string;
  array: boolean;
  explode: boolean;
}

/** Splits `a,b` and `"a,1","b"` into items; quotes protect commas and are removed. */
export function splitList(value: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let wasQuoted = false;
  for (const char of value) {
    if (char === '"') {
      quoted = !quoted;
      wasQuoted = true;
    } else if (char === "," && !quoted) {
      items.push(current);
      current = "";
      wasQuoted = false;
    } else {
      current += char;
    }
  }
  if (quoted) throw apiError("bad_request", `The list '${value}' opens a quote it never closes.`);
  if (current !== "" || wasQuoted || items.length > 0) items.push(current);
  return items;
}

/** Collects the query string into the flat parameter names of the operation, lists split. */
export function readQuery(search: string, parameters: QueryParameter[]): Record<string, unknown> {
  const byName = new Map(parameters.map((p) => [p.name, p]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    // `name[]=a` is another common spelling of a repeated key.
    const name = key.endsWith("[]") ? key.slice(0, -2) : key;
    const parameter = byName.get(name);
    if (!parameter) {
      out[name] = value; // left for validation, which names the unknown parameter
      continue;
    }
    if (parameter.array) {
      const items = parameter.explode ? [value] : splitList(value);
      out[name] = [...((out[name] as string[] | undefined) ?? []), ...items];
    } else if (name in out) {
      throw apiError("invalid_field", `The query parameter '${name}' takes one value; send it once.`, {
        field_name: name,
      });
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Turns dotted keys into nested objects: `{"stage.name": [...]}` becomes `{stage: {name: [...]}}`. */
export function unflatten(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split(".");
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      if (next === undefined || next === null || typeof next !== "object") target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts[parts.length - 1] as string] = value;
  }
  return out;
}
