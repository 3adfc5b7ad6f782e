// Resolving the ids a request names into the summaries records carry (users, parts, tags, artifacts, stages),
// with the typed 400 `invalid_id` naming the field when an id does not exist in the caller's organization.
import type { PartSummary, StageInfo, TagWithValue, UserSummary } from "@workapi/types";
import { type ApiError, apiError } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";
import { FAMILIES } from "../../core/record-families.js";
import type { Actor, StoredRecord } from "../../store/types.js";

// The record families (kind, id word, display prefix) as the contract states them; the handlers take them
// from here, beside the resolvers.
export { FAMILIES, type Family } from "../../core/record-families.js";

export const WORK_TYPES = ["incident", "issue", "opportunity", "task", "ticket"] as const;
export const PART_TYPES = ["capability", "enhancement", "feature", "product"] as const;

/** The type word inside an id (`don:core:workapi:devo/1:issue/12` -> `issue`), or undefined. */
export function idTypeOf(id: string): string | undefined {
  return /:([a-z_]+)\/\d+$/.exec(id)?.[1];
}

export function invalidId(field: string, id: string, what: string): ApiError {
  return apiError("invalid_id", `${what} '${id}' does not exist in this organization.`, {
    field_name: field,
  });
}

/** Dev users by id or display id; every id must exist in the caller's organization. */
export async function resolveUsers(
  ctx: Context,
  field: string,
  ids: string[] | undefined,
): Promise<UserSummary[]> {
  const users: UserSummary[] = [];
  for (const [index, id] of (ids ?? []).entries()) {
    const user = await ctx.store.getDevUser(ctx.org.id, id);
    if (!user) throw invalidId(`${field}.${index}`, id, "User");
    const { org_id: _org, created_date: _created, ...summary } = user;
    users.push(summary);
  }
  return users;
}

/** A record of one of `kinds` named in a request field, or the typed 400. */
export async function resolveRecord<T extends object>(
  ctx: Context,
  field: string,
  kinds: string[],
  id: string,
  what: string,
): Promise<StoredRecord<T>> {
  const record = await ctx.store.getRecord<T>(ctx.org.id, kinds, id);
  if (!record) throw invalidId(field, id, what);
  return record;
}

export function partSummary(record: StoredRecord<Record<string, unknown>>): PartSummary {
  const data = record.data as Record<string, unknown>;
  return {
    type: record.subtype as PartSummary["type"],
    id: record.id,
    display_id: record.display_id,
    name: String(data.name ?? ""),
    owned_by: (data.owned_by as UserSummary[] | undefined) ?? [],
  };
}

export async function resolveParts(
  ctx: Context,
  field: string,
  ids: string[] | undefined,
): Promise<PartSummary[]> {
  const parts: PartSummary[] = [];
  for (const [index, id] of (ids ?? []).entries()) {
    parts.push(partSummary(await resolveRecord(ctx, `${field}.${index}`, ["part"], id, "Part")));
  }
  return parts;
}

/** Tags named as `{id, value?}`; a value must be one of the tag's allowed values when it has any. */
export async function resolveTags(
  ctx: Context,
  field: string,
  refs: Array<{ id: string; value?: string }> | undefined,
): Promise<TagWithValue[]> {
  const out: TagWithValue[] = [];
  for (const [index, ref] of (refs ?? []).entries()) {
    const tag = await resolveRecord<{
      name?: string;
      allowed_values?: string[];
      style_new?: { color?: string };
    }>(ctx, `${field}.${index}.id`, ["tag"], ref.id, "Tag");
    const allowed = tag.data.allowed_values ?? [];
    if (ref.value !== undefined && allowed.length > 0 && !allowed.includes(ref.value)) {
      throw apiError("value_not_permitted", `Tag '${tag.data.name}' takes one of: ${allowed.join(", ")}.`, {
        field_name: `${field}.${index}.value`,
        reason: "not an allowed value of the tag",
        allowed_values: allowed,
      });
    }
    out.push({
      tag: {
        id: tag.id,
        display_id: tag.display_id,
        name: tag.data.name ?? "",
        ...(tag.data.style_new ? { style_new: tag.data.style_new } : {}),
      },
      ...(ref.value !== undefined ? { value: ref.value } : {}),
    });
  }
  return out;
}

/** The built-in states every organization has; custom stages belong to one of them. */
export const STATES = [
  { name: "open", is_final: false },
  { name: "in_progress", is_final: false },
  { name: "closed", is_final: true },
] as const;

/** Creates the organization's built-in states on first use and returns them. */
export async function ensureStates(ctx: { store: Context["store"]; actor: Actor; org: { id: string } }) {
  const existing = await ctx.store.findRecords<{ name: string; is_final: boolean }>(
    ctx.org.id,
    "custom_state",
    { limit: 100 },
  );
  if (existing.length >= STATES.length) return existing;
  return ctx.store.transaction(async (tx) => {
    const again = await tx.findRecords<{ name: string; is_final: boolean }>(ctx.org.id, "custom_state", {
      limit: 100,
    });
    if (again.length >= STATES.length) return again;
    const made = [];
    for (const state of STATES) {
      made.push(
        await tx.createRecord(ctx.actor, { ...FAMILIES.custom_state, label: state.name, data: { ...state } }),
      );
    }
    return made;
  });
}

/** A stage named by `{id}` or `{name}` (id wins), as the StageInfo records carry. */
export async function resolveStage(
  ctx: Context,
  field: string,
  ref: { id?: string; name?: string },
): Promise<StageInfo> {
  let stage: StoredRecord<{ name: string; ordinal?: number; state?: StageInfo["state"] }> | undefined;
  if (ref.id) {
    stage = await ctx.store.getRecord(ctx.org.id, ["custom_stage"], ref.id);
    if (!stage) throw invalidId(`${field}.id`, ref.id, "Stage");
  } else if (ref.name) {
    [stage] = await ctx.store.findRecords(ctx.org.id, "custom_stage", {
      filter: { op: "eq", path: "label", value: ref.name },
      limit: 1,
    });
    if (!stage) {
      throw apiError(
        "invalid_field",
        `No stage is named '${ref.name}'; create it with stages.custom.create.`,
        {
          field_name: `${field}.name`,
        },
      );
    }
  } else {
    throw apiError("missing_required_field", `Name the stage by '${field}.id' or '${field}.name'.`, {
      field_name: `${field}.name`,
    });
  }
  return stageInfo(stage);
}

export function stageInfo(
  stage: StoredRecord<{ name: string; ordinal?: number; state?: StageInfo["state"] }>,
): StageInfo {
  return {
    name: stage.data.name,
    ...(stage.data.ordinal !== undefined ? { ordinal: stage.data.ordinal } : {}),
    stage: { id: stage.id, display_id: stage.display_id, name: stage.data.name },
    ...(stage.data.state ? { state: stage.data.state } : {}),
  };
}
