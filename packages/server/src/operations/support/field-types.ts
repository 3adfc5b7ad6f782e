// The kind (`field_type`) of a field described without one. A survey's request `schema` carries no
// `field_type`, but every answered field descriptor has one; the platform publishes no rule for it, so this is
// the service's rule, applied in this order:
//   1. a `field_type` sent is kept;
//   2. `uenum_values` make a `uenum` field (whose `allowed_values` are those values), `allowed_values` an
//      `enum` field (numbered values: `uenum`);
//   3. `validation` with a numeric bound (`gt`, `gte`, `lt`, `lte`) makes an `int` field, one with a length or
//      text test (`eq_len`, `min_len`, `max_len`, `contains`, `pattern`, `prefix`, `suffix`) a `text` field;
//   4. a `default_value` makes a field of its JSON kind (`bool`, `int`, `double`, `text`, `struct`);
//   5. otherwise `text`.
// Item counts (`eq_items`, `min_items`, `max_items`, in `validation` or on the field) make an `array` field
// whose `base_type` is what rules 2 to 5 give.
import type { components } from "@workapi/types";

type FieldDescriptor = components["schemas"]["FieldDescriptor"];
type Validation = Record<string, unknown>;

const NUMERIC_BOUNDS = ["gt", "gte", "lt", "lte"];
const TEXT_TESTS = ["eq_len", "min_len", "max_len", "contains", "pattern", "prefix", "suffix"];
const ITEM_COUNTS = ["eq_items", "min_items", "max_items"];

const has = (source: Record<string, unknown>, keys: string[]) =>
  keys.some((key) => source[key] !== undefined);

function scalarType(field: FieldDescriptor, validation: Validation): string {
  if (field.uenum_values?.length) return "uenum";
  if (field.allowed_values?.length) {
    return field.allowed_values.every((value) => typeof value === "string") ? "enum" : "uenum";
  }
  const own = field as Record<string, unknown>;
  if (has(validation, NUMERIC_BOUNDS) || has(own, NUMERIC_BOUNDS)) return "int";
  if (has(validation, TEXT_TESTS) || has(own, TEXT_TESTS)) return "text";
  // A list's default is judged by its first item.
  const value = Array.isArray(field.default_value) ? field.default_value[0] : field.default_value;
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "double";
  if (value !== null && typeof value === "object") return "struct";
  return "text";
}

/** The field as answered: with its `field_type` (and `base_type` for lists), and a uenum's allowed values. */
export function withFieldType(field: FieldDescriptor): FieldDescriptor {
  if (field.field_type !== undefined) return field;
  const validation = (field.validation ?? {}) as Validation;
  const scalar = scalarType(field, validation);
  const isList = has(validation, ITEM_COUNTS) || has(field as Record<string, unknown>, ITEM_COUNTS);
  return {
    ...field,
    ...(isList
      ? { field_type: "array", base_type: scalar as FieldDescriptor["base_type"] }
      : { field_type: scalar }),
    ...(scalar === "uenum" && field.allowed_values === undefined && field.uenum_values
      ? { allowed_values: field.uenum_values }
      : {}),
  };
}
