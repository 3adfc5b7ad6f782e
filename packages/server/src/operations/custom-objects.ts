// Custom objects: records of application-defined leaf types (kind custom_object, subtype = leaf type),
// counted and listed with the prefix-notation filter language of ./config-object-filters.ts.
import type { CustomObject, StageInfo } from "@workapi/types";
import { apiError } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import type { Filter } from "../store/types.js";
import { checkCustomFields } from "./support/change-events.js";
import { compileExpressions, readExpressions } from "./support/custom-object-filters.js";
import { allOf, storedPage } from "./support/records.js";
import { FAMILIES, resolveStage } from "./support/references.js";
import { checkEntry, diagramFor, startStage } from "./support/stage-rules.js";

const ofLeafType = (leafType: string): Filter => ({ op: "eq", path: "subtype", value: leafType });

/**
 * The stage a new object starts in, by the rules works follow (./work-diagrams.ts): with a stage diagram for
 * the leaf type, a stage sent must be an open stage of the diagram, and none sent means the diagram's start
 * stage. Without a diagram, any custom stage of the organization may be named, and none sent leaves the
 * object without a stage.
 */
async function firstStage(
  ctx: Context,
  leafType: string,
  ref: Input<"custom-objects.create">["stage"],
): Promise<StageInfo | undefined> {
  const diagram = await diagramFor(ctx, leafType);
  if (!ref) return diagram ? startStage(ctx, diagram) : undefined;
  const stage = await resolveStage(ctx, "stage", ref);
  if (diagram) checkEntry(diagram, "stage", stage);
  return stage;
}

/** The filter expressions of a count or list request (see config-object-filters.ts). */
function expressionFilter(ctx: Context, raw: unknown, base: string): Filter | undefined {
  return compileExpressions(readExpressions(raw, base, ctx.operation.method === "GET"));
}

export const customObjects = {
  "custom-objects.create": async (ctx, input) => {
    const fragments = checkCustomFields(input.custom_fields, input.custom_schema_spec, input.leaf_type);
    if (input.unique_key !== undefined) {
      const taken = await ctx.store.countRecords(
        ctx.org.id,
        FAMILIES.custom_object.kind,
        allOf(ofLeafType(input.leaf_type), { op: "eq", path: "unique_key", value: input.unique_key }),
      );
      if (taken > 0) {
        throw apiError(
          "conflict",
          `An object of leaf type '${input.leaf_type}' already has the unique_key '${input.unique_key}'.`,
        );
      }
    }
    const stage = await firstStage(ctx, input.leaf_type, input.stage);
    const data: Omit<CustomObject, "id" | "display_id"> = {
      leaf_type: input.leaf_type,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.unique_key !== undefined ? { unique_key: input.unique_key } : {}),
      ...(input.custom_fields !== undefined ? { custom_fields: input.custom_fields } : {}),
      ...(fragments.length > 0 ? { custom_schema_fragments: fragments } : {}),
      ...(stage ? { stage } : {}),
    };
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.custom_object,
      subtype: input.leaf_type,
      label: input.title ?? "",
      // The unique index on external references keeps unique_key unique per leaf type, even under races.
      external_ref:
        input.unique_key === undefined ? null : JSON.stringify([input.leaf_type, input.unique_key]),
      data,
    });
    return { custom_object: record.data as CustomObject };
  },

  "custom-objects.count": async (ctx, input) => {
    const filter = allOf(ofLeafType(input.leaf_type), expressionFilter(ctx, input.filters, "filters"));
    return { count: await ctx.store.countRecords(ctx.org.id, FAMILIES.custom_object.kind, filter) };
  },

  // Sortable: title, unique_key, stage.name, created_date, modified_date, object_version.
  "custom-objects.list": async (ctx, input) => {
    return storedPage<"result", CustomObject>(ctx, "result", FAMILIES.custom_object.kind, input, {
      filter: allOf(ofLeafType(input.leaf_type), expressionFilter(ctx, input.filter, "filter")),
      sortable: {
        title: { path: "label" },
        unique_key: { path: "unique_key" },
        "stage.name": { path: "stage.name" },
      },
    });
  },
} satisfies Partial<Handlers>;
