// Side effects shared by writes: timeline entries recording changes, and the custom-schema rule.
import { apiError } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";
import type { StoredRecord } from "../../store/types.js";
import { FAMILIES } from "./references.js";

type Value = { type: string; value?: unknown; display_value?: string };

function deltaValue(value: unknown): Value {
  if (value === undefined || value === null) return { type: "null" };
  if (typeof value === "boolean") return { type: "bool", value, display_value: String(value) };
  if (typeof value === "number") return { type: "number", value, display_value: String(value) };
  if (typeof value === "string") return { type: "string", value, display_value: value };
  return { type: Array.isArray(value) ? "array" : "object", value, display_value: JSON.stringify(value) };
}

/** JSON with object keys sorted, so that equal values compare equal whatever order the database kept. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** The fields whose values differ between two versions of a record's data (base fields left out). */
export function fieldDeltas(before: Record<string, unknown>, after: Record<string, unknown>) {
  const skip = new Set([
    "id",
    "display_id",
    "created_by",
    "created_date",
    "modified_by",
    "modified_date",
    "object_version",
  ]);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => !skip.has(name))
    .sort();
  return names
    .filter((name) => canonical(before[name]) !== canonical(after[name]))
    .map((name) => ({ name, old_value: deltaValue(before[name]), new_value: deltaValue(after[name]) }));
}

/** Adds a change event (created, updated or deleted) to a record's timeline. */
export async function recordChange(
  ctx: Context,
  target:
    | StoredRecord<Record<string, unknown>>
    | { id: string; display_id: string; kind: string; subtype: string | null },
  objectType: string,
  event: { created: true } | { deleted: true } | { updated: ReturnType<typeof fieldDeltas> },
): Promise<void> {
  const data = "data" in target ? (target.data as Record<string, unknown>) : {};
  const reference = {
    type: objectType,
    id: target.id,
    display_id: target.display_id,
    display_name: String(data.title ?? data.name ?? data.display_name ?? target.display_id),
  };
  const payload =
    "created" in event
      ? { type: "created", created: { object: reference } }
      : "deleted" in event
        ? { type: "deleted", deleted: { object_id: target.id } }
        : { type: "updated", updated: { object_type: objectType, field_deltas: event.updated } };
  await ctx.store.createRecord(ctx.actor, {
    ...FAMILIES.timeline_entry,
    subtype: "timeline_change_event",
    parent_id: target.id,
    data: {
      type: "timeline_change_event",
      object: target.id,
      object_display_id: target.display_id,
      object_type: objectType,
      visibility: "internal",
      event: payload,
    },
  });
}

/**
 * The custom-schema rule: every custom field sent needs its schema specified. Tenant fields (`tnt__*`) need
 * `custom_schema_spec.tenant_fragment`; subtype fields (`ctype__*`) need `custom_schema_spec.subtype`. Returns
 * the schema fragment identifiers the record then carries.
 */
export function checkCustomFields(
  customFields: Record<string, unknown> | undefined,
  spec: Record<string, unknown> | undefined,
  leafType: string,
): string[] {
  const fragments: string[] = [];
  if (spec?.tenant_fragment) fragments.push(`tenant_fragment:${leafType}`);
  if (typeof spec?.subtype === "string") fragments.push(`custom_type_fragment:${leafType}:${spec.subtype}`);
  // Each app named brings its app fragment for the leaf type.
  if (Array.isArray(spec?.apps)) {
    for (const app of spec.apps) {
      if (typeof app === "string") fragments.push(`app_fragment:${leafType}:${app}`);
    }
  }
  for (const name of Object.keys(customFields ?? {})) {
    const needs = name.startsWith("tnt__")
      ? "tenant_fragment"
      : name.startsWith("ctype__")
        ? "subtype"
        : undefined;
    const fail = (reason: string, detail: string) =>
      apiError("customization_validation_error", detail, {
        subtype: "missing_schema",
        field_name: `custom_fields.${name}`,
        reason,
      });
    if (!needs) {
      throw fail(
        "unknown prefix",
        `Custom field '${name}' must be named tnt__<name> (tenant) or ctype__<name> (subtype).`,
      );
    }
    if (!spec?.[needs]) {
      throw fail(
        "no schema specified for this custom field",
        `The custom field '${name}' was sent without its schema: set custom_schema_spec.${needs === "tenant_fragment" ? "tenant_fragment: true" : "subtype"}.`,
      );
    }
  }
  return fragments;
}
