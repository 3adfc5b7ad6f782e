// The console's check of an answer against the contract's schema for its status (part of the docs page's
// script). Requests are checked with the server's own Ajv validators (request-check.js); answers are not, since
// Ajv's standalone code for the 1,000-odd answer schemas weighs some 3 MB minified, more than the whole page may.
// The answers' check only tells the reader whether another server answers as the contract says, and lists every
// mismatch at its field (a path of keys), which this small validator does.
// It covers the keywords the contract uses, with JSON Schema 2020-12's meaning: $ref (to components/schemas),
// allOf, anyOf, oneOf, if/then/else, type, enum, const, properties, required, additionalProperties,
// unevaluatedProperties (the properties named by the schema and the parts it applies count as evaluated),
// minProperties, items, minItems, maxItems, uniqueItems, minLength, maxLength, pattern, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, and the `date-time` format. Other keywords are ignored.
/** The errors of `value` against `schema`, each { path: [keys], message }; [] when it matches. */
export function validate(schema, value, schemas) {
  const errors = [];
  checkValue(schema, value, [], errors, schemas);
  return errors;
}

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(types, value) {
  const actual = typeOf(value);
  return [types].flat().some((type) => type === actual || (type === "number" && actual === "integer"));
}

const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const show = (value) => JSON.stringify(value);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function resolve(schema, schemas) {
  const name =
    typeof schema?.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;
  return name === undefined ? undefined : schemas[name];
}

/** The property names `schema` and the parts it applies name (for unevaluatedProperties). */
function named(schema, schemas, into = new Set(), depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 8) return into;
  for (const key of Object.keys(schema.properties ?? {})) into.add(key);
  const target = resolve(schema, schemas);
  if (target) named(target, schemas, into, depth + 1);
  for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    named(part, schemas, into, depth + 1);
  }
  for (const part of [schema.then, schema.else]) named(part, schemas, into, depth + 1);
  return into;
}

function checkAlternatives(schema, value, path, errors, schemas) {
  for (const part of schema.allOf ?? []) checkValue(part, value, path, errors, schemas);
  for (const key of ["anyOf", "oneOf"]) {
    if (!Array.isArray(schema[key])) continue;
    const results = schema[key].map((part) => validate(part, value, schemas));
    const passing = results.filter((result) => result.length === 0).length;
    if (key === "anyOf" ? passing > 0 : passing === 1) continue;
    if (passing > 1) {
      errors.push({ path, message: "matches more than one of its alternatives" });
      continue;
    }
    // None matches: the errors of the alternative that came closest say best what to change.
    const closest = results.reduce((best, result) => (result.length < best.length ? result : best));
    errors.push(...closest);
  }
  if (schema.if) {
    const holds = validate(schema.if, value, schemas).length === 0;
    const branch = holds ? schema.then : schema.else;
    if (branch) checkValue(branch, value, path, errors, schemas);
  }
}

function checkObject(schema, value, path, errors, schemas) {
  for (const name of schema.required ?? []) {
    if (!(name in value)) errors.push({ path: [...path, name], message: "is required" });
  }
  const properties = schema.properties ?? {};
  for (const [name, item] of Object.entries(value)) {
    if (name in properties) checkValue(properties[name], item, [...path, name], errors, schemas);
    else if (schema.additionalProperties === false)
      errors.push({ path: [...path, name], message: "is not a field of this object" });
    else if (typeof schema.additionalProperties === "object")
      checkValue(schema.additionalProperties, item, [...path, name], errors, schemas);
  }
  if (schema.unevaluatedProperties === false) {
    const known = named(schema, schemas);
    for (const name of Object.keys(value)) {
      if (!known.has(name)) errors.push({ path: [...path, name], message: "is not a field of this object" });
    }
  }
  if (schema.minProperties !== undefined && Object.keys(value).length < schema.minProperties) {
    errors.push({ path, message: `needs at least ${schema.minProperties} field(s)` });
  }
}

function checkArray(schema, value, path, errors, schemas) {
  if (schema.minItems !== undefined && value.length < schema.minItems)
    errors.push({ path, message: `needs at least ${schema.minItems} item(s)` });
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    errors.push({ path, message: `takes at most ${schema.maxItems} item(s)` });
  if (schema.uniqueItems && new Set(value.map(show)).size !== value.length)
    errors.push({ path, message: "has the same item twice" });
  if (!schema.items) return;
  for (const [index, item] of value.entries())
    checkValue(schema.items, item, [...path, index], errors, schemas);
}

function checkScalar(schema, value, path, errors) {
  if (typeof value === "string") {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      errors.push({
        path,
        message:
          schema.minLength === 1 ? "must not be empty" : `needs at least ${schema.minLength} characters`,
      });
    if (schema.maxLength !== undefined && length > schema.maxLength)
      errors.push({ path, message: `takes at most ${schema.maxLength} characters` });
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value))
      errors.push({ path, message: `must match ${schema.pattern}` });
    if (schema.format === "date-time" && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))))
      errors.push({ path, message: "must be a date and time (RFC 3339)" });
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push({ path, message: `must be at least ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push({ path, message: `must be at most ${schema.maximum}` });
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      errors.push({ path, message: `must be more than ${schema.exclusiveMinimum}` });
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
      errors.push({ path, message: `must be less than ${schema.exclusiveMaximum}` });
  }
}

function checkValue(schema, value, path, errors, schemas) {
  if (schema === true || schema === undefined || schema === null) return;
  if (schema === false) {
    errors.push({ path, message: "is not allowed" });
    return;
  }
  const target = resolve(schema, schemas);
  if (target) checkValue(target, value, path, errors, schemas);
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    errors.push({ path, message: `must be ${[schema.type].flat().join(" or ")}, not ${typeOf(value)}` });
    return;
  }
  if (schema.const !== undefined && !equal(schema.const, value))
    errors.push({ path, message: `must be ${show(schema.const)}` });
  if (schema.enum && !schema.enum.some((choice) => equal(choice, value)))
    errors.push({ path, message: `must be one of ${schema.enum.map(show).join(", ")}` });
  checkAlternatives(schema, value, path, errors, schemas);
  const type = typeOf(value);
  if (type === "object") checkObject(schema, value, path, errors, schemas);
  else if (type === "array") checkArray(schema, value, path, errors, schemas);
  else checkScalar(schema, value, path, errors);
}
