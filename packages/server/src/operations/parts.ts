// Parts of the product hierarchy (products, capabilities, features, enhancements): create, read, list,
// delete. Parts are records of kind `part` with the part type in `subtype`, the parent part in `parent_id`
// and the name in `label`.
import type { Part, PartType } from "@workapi/types";
import { fieldError, notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import type { StoredRecord } from "../store/types.js";
import { checkArtifacts, syncArtifactParents } from "./support/attachments.js";
import { recordChange } from "./support/change-events.js";
import { refAny, refIn } from "./support/filters.js";
import { readableTypes } from "./support/readable-types.js";
import { allOf, mustGet, type Sortable, storedPage } from "./support/records.js";
import {
  FAMILIES,
  PART_TYPES,
  partSummary,
  resolveRecord,
  resolveTags,
  resolveUsers,
} from "./support/references.js";

const PART_KIND = FAMILIES.product.kind;

type PartData = Partial<Part> & Record<string, unknown>;

/** The part types each type's parent may have; a product has no parent. */
const PARENT_TYPES: Record<PartType, readonly PartType[]> = {
  product: [],
  capability: ["product"],
  feature: ["capability", "feature"],
  enhancement: PART_TYPES,
};

/** Fields parts sort by besides created_date, modified_date and object_version: name and type. */
const SORTABLE: Sortable = {
  name: { path: "label" },
  type: { path: "subtype" },
};

/** The parent a new part of `type` names, checked against the hierarchy rules. */
async function parentFor(
  ctx: Context,
  type: PartType,
  ids: string[] | undefined,
): Promise<StoredRecord<Record<string, unknown>> | undefined> {
  const allowed = PARENT_TYPES[type];
  if (allowed.length === 0) {
    if (ids && ids.length > 0) {
      throw notPermitted(
        "parent_part",
        "a product has no parent part",
        "A product stands at the top of the hierarchy; leave 'parent_part' out.",
      );
    }
    return undefined;
  }
  const [id] = ids ?? [];
  if (id === undefined || (ids?.length ?? 0) !== 1) {
    throw notPermitted(
      "parent_part",
      `a ${type} needs exactly one parent part`,
      `A ${type} belongs to one parent part (${allowed.join(" or ")}); name it in 'parent_part'.`,
      [...allowed],
    );
  }
  const parent = await resolveRecord<Record<string, unknown>>(ctx, "parent_part.0", [PART_KIND], id, "Part");
  if (!allowed.includes(parent.subtype as PartType)) {
    throw notPermitted(
      "parent_part",
      `a ${type}'s parent must be a ${allowed.join(" or ")}, not a ${parent.subtype}`,
      `${parent.display_id} is a ${parent.subtype}; a ${type} belongs to a ${allowed.join(" or ")}.`,
      [...allowed],
    );
  }
  return parent;
}

const isoDate = (value: string | undefined) =>
  value === undefined ? undefined : new Date(value).toISOString();

/**
 * What a new enhancement carries besides the fields of every part: its planned dates as sent, and its state,
 * `open` until work on it starts (`state_v2`; `stage_v2` has no members in the interface yet).
 */
function enhancementFields(input: Input<"parts.create">): Partial<PartData> {
  const start = isoDate(input.target_start_date);
  const close = isoDate(input.target_close_date);
  return {
    ...(start !== undefined ? { target_start_date: start } : {}),
    ...(close !== undefined ? { target_close_date: close } : {}),
    stage_v2: {},
    state_v2: "open",
  };
}

/** A part by id or display id, and the type scope to act on it. */
async function partFor(ctx: Context, id: string): Promise<StoredRecord<PartData>> {
  const record = await mustGet<PartData>(ctx, [PART_KIND], id, "Part");
  ctx.requireType(record.subtype ?? "", [record.id]);
  return record;
}

export const parts = {
  "parts.create": async (ctx, input) => {
    ctx.requireType(input.type, []);
    // Planned dates belong to enhancements only.
    for (const field of ["target_start_date", "target_close_date"] as const) {
      if (input[field] !== undefined && input.type !== "enhancement") {
        throw fieldError(
          "invalid_field",
          field,
          `'${field}' belongs to enhancements; a ${input.type} has no planned dates.`,
        );
      }
    }
    const parent = await parentFor(ctx, input.type, input.parent_part);
    const ownedBy = await resolveUsers(ctx, "owned_by", input.owned_by);
    const tags = await resolveTags(ctx, "tags", input.tags);
    const artifacts = await checkArtifacts(ctx, "artifacts", input.artifacts);
    const record = await ctx.store.createRecord<PartData>(ctx.actor, {
      ...FAMILIES[input.type],
      subtype: input.type,
      parent_id: parent?.id ?? null,
      label: input.name,
      data: {
        type: input.type,
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        owned_by: ownedBy,
        parent_part: parent ? [partSummary(parent)] : [],
        artifacts,
        tags,
        ...(input.type === "enhancement" ? enhancementFields(input) : {}),
      },
    });
    await syncArtifactParents(ctx, record.id, [], artifacts);
    await recordChange(ctx, record, input.type, { created: true });
    return { part: record.data as Part };
  },

  "parts.get": async (ctx, input) => {
    const record = await partFor(ctx, input.id);
    return { part: record.data as Part };
  },

  "parts.list": async (ctx, input) => {
    const types = readableTypes(ctx, input.type, PART_TYPES);
    return storedPage<"parts", Part>(ctx, "parts", PART_KIND, input, {
      filter: allOf(
        types.length < PART_TYPES.length && { op: "in", path: "subtype", values: types },
        input.name?.length ? { op: "in", path: "label", values: input.name } : undefined,
        refAny("owned_by", input.owned_by),
        refAny("parent_part", input.parent_part?.parts),
        refIn("created_by", input.created_by),
        refAny("tags", input.tags, "tag"),
      ),
      sortable: SORTABLE,
    });
  },

  // A part that is the parent of other parts stays until they are deleted or moved.
  "parts.delete": async (ctx, input) => {
    const existing = await partFor(ctx, input.id);
    const children = await ctx.store.countRecords(ctx.org.id, PART_KIND, {
      op: "eq",
      path: "parent_id",
      value: existing.id,
    });
    if (children > 0) {
      throw notPermitted(
        "id",
        `${children} part${children === 1 ? " has" : "s have"} this part as parent`,
        `${existing.display_id} is the parent of ${children} part${children === 1 ? "" : "s"}; delete them first.`,
      );
    }
    await syncArtifactParents(ctx, existing.id, existing.data.artifacts, []);
    await ctx.store.deleteRecord(ctx.actor, PART_KIND, existing.id);
    await recordChange(ctx, existing, existing.subtype ?? "part", { deleted: true });
    return {};
  },
} satisfies Partial<Handlers>;
