// Custom stages and stage diagrams. A custom stage (kind `custom_stage`, name in `label`) belongs to one of
// the organization's built-in states; a stage diagram (kind `stage_diagram`, leaf type in `subtype`, name in
// `label`) connects stages with the moves records of its type may make between them.
import type { CustomStage, StageDiagram } from "@workapi/types";
import { notPermitted } from "../http/errors.js";
import type { StoredRecord } from "../store/types.js";
import { listPage, mustGet, type PageInput, type Sortable } from "./common.js";
import { ensureStates, FAMILIES, invalidId, resolveRecord } from "./refs.js";
import type { Context, Handlers, Input } from "./types.js";
import type { DiagramNode } from "./work-diagrams.js";

const STAGE_KIND = FAMILIES.custom_stage.kind;
const DIAGRAM_KIND = FAMILIES.stage_diagram.kind;

type StageData = Partial<CustomStage> & Record<string, unknown>;
type DiagramData = Partial<StageDiagram> & Record<string, unknown>;
type StageInput = Input<"stage-diagrams.create">["stages"][number];

/** Custom stages sort by name and ordinal too; stage diagrams by name and leaf type. */
const STAGE_SORTABLE: Sortable = { name: { path: "label" }, ordinal: { path: "ordinal", type: "number" } };
const DIAGRAM_SORTABLE: Sortable = { name: { path: "label" }, leaf_type: { path: "subtype" } };

/** A page as `{result, cursor}`: the one cursor continues in the direction `mode` asked for. */
async function resultPage<T extends object>(
  ctx: Context,
  kind: string,
  input: PageInput,
  sortable: Sortable,
): Promise<{ result: T[]; cursor?: string }> {
  const page = await listPage<T>(ctx, kind, input, { sortable });
  const cursor = input.mode === "before" ? page.prev_cursor : page.next_cursor;
  return { result: page.items, ...(cursor ? { cursor } : {}) };
}

const reference = (stage: StoredRecord<StageData>) => ({
  id: stage.id,
  display_id: stage.display_id,
  name: String(stage.data.name ?? stage.label),
});

/**
 * The stages of a diagram as stored, from the request's nodes: every stage and transition target must be a
 * custom stage (invalid_id naming the field), named once, targets must be stages of the diagram, and
 * exactly one stage starts (value_not_permitted otherwise), one that records may enter.
 */
async function diagramStages(ctx: Context, nodes: StageInput[]): Promise<DiagramNode[]> {
  const stages: Array<StoredRecord<StageData>> = [];
  for (const [index, node] of nodes.entries()) {
    const field = `stages.${index}.stage_id`;
    const stage = await resolveRecord<StageData>(ctx, field, [STAGE_KIND], node.stage_id, "Custom stage");
    if (stages.some((other) => other.id === stage.id)) {
      throw notPermitted(field, "the stage is already in the diagram", `${stage.display_id} is named twice.`);
    }
    stages.push(stage);
  }
  const inDiagram = (id: string) => stages.find((stage) => stage.id === id || stage.display_id === id);
  const out: DiagramNode[] = [];
  for (const [index, node] of nodes.entries()) {
    const transitions = [];
    for (const [t, transition] of (node.transitions ?? []).entries()) {
      const field = `stages.${index}.transitions.${t}.target_stage_id`;
      const id = transition.target_stage_id;
      const target = inDiagram(id);
      if (!target) {
        const exists = await ctx.store.getRecord(ctx.org.id, [STAGE_KIND], id);
        if (!exists) throw invalidId(field, id, "Custom stage");
        throw notPermitted(
          field,
          "the target stage is not in the diagram",
          `${exists.display_id} is not one of the diagram's stages; add it to 'stages' or move elsewhere.`,
          stages.map((stage) => stage.display_id),
        );
      }
      transitions.push({ target_stage: reference(target) });
    }
    const stage = stages[index] as StoredRecord<StageData>;
    out.push({
      stage: reference(stage),
      is_start: node.is_start === true,
      is_deprecated: node.is_deprecated === true,
      transitions,
    });
  }
  const starts = out.filter((node) => node.is_start);
  if (starts.length !== 1) {
    throw notPermitted(
      "stages",
      `exactly one stage must be marked is_start; ${starts.length} are`,
      "Mark exactly one stage of the diagram with 'is_start: true': the stage new records start in.",
    );
  }
  const startIndex = out.findIndex((node) => node.is_start);
  if (out[startIndex]?.is_deprecated) {
    throw notPermitted(
      `stages.${startIndex}.is_deprecated`,
      "the start stage cannot be deprecated",
      "New records start in the start stage, so it must stay open to them.",
    );
  }
  return out;
}

/** Makes `diagram` the only default diagram of its leaf type. */
async function clearOtherDefaults(ctx: Context, diagram: StoredRecord<DiagramData>): Promise<void> {
  const others = await ctx.store.findRecords<DiagramData>(ctx.org.id, DIAGRAM_KIND, {
    filter: {
      op: "and",
      filters: [
        { op: "eq", path: "subtype", value: diagram.subtype ?? "" },
        { op: "eq", path: "is_default", value: true },
        { op: "ne", path: "id", value: diagram.id },
      ],
    },
    limit: 1000,
  });
  for (const other of others) {
    await ctx.store.updateRecord<DiagramData>(ctx.actor, DIAGRAM_KIND, other.id, (current) => ({
      data: { ...current.data, is_default: false },
    }));
  }
}

export const stages = {
  "stages.custom.create": async (ctx, input) => {
    const states = await ensureStates(ctx);
    const state = states.find(
      (candidate) => candidate.id === input.state || candidate.display_id === input.state,
    );
    if (!state) throw invalidId("state", input.state, "State");
    // Records name stages by name ({name: "triage"}), so a name belongs to one stage.
    const [same] = await ctx.store.findRecords(ctx.org.id, STAGE_KIND, {
      filter: { op: "eq", path: "label", value: input.name },
      limit: 1,
    });
    if (same) {
      throw notPermitted(
        "name",
        "a stage with this name exists",
        `The stage ${same.display_id} is already named '${input.name}'; stage names are unique.`,
      );
    }
    const record = await ctx.store.createRecord<StageData>(ctx.actor, {
      ...FAMILIES.custom_stage,
      label: input.name,
      data: {
        name: input.name,
        ordinal: input.ordinal,
        state: {
          id: state.id,
          display_id: state.display_id,
          name: state.data.name,
          is_final: state.data.is_final,
        },
      },
    });
    return { custom_stage: record.data };
  },

  "stages.custom.get": async (ctx, input) => {
    const record = await mustGet<StageData>(ctx, [STAGE_KIND], input.id, "Custom stage");
    return { custom_stage: record.data };
  },

  "stages.custom.list": (ctx, input) => resultPage<CustomStage>(ctx, STAGE_KIND, input, STAGE_SORTABLE),

  "stage-diagrams.create": async (ctx, input) => {
    const stages = await diagramStages(ctx, input.stages);
    const record = await ctx.store.createRecord<DiagramData>(ctx.actor, {
      ...FAMILIES.stage_diagram,
      subtype: input.leaf_type,
      label: input.name,
      data: {
        name: input.name,
        leaf_type: input.leaf_type,
        is_default: input.is_default === true,
        is_custom_leaf_type: input.is_custom_leaf_type === true,
        stages,
      },
    });
    if (record.data.is_default) await clearOtherDefaults(ctx, record);
    return { stage_diagram: record.data };
  },

  "stage-diagrams.get": async (ctx, input) => {
    const record = await mustGet<DiagramData>(ctx, [DIAGRAM_KIND], input.id, "Stage diagram");
    return { stage_diagram: record.data };
  },

  "stage-diagrams.list": (ctx, input) => resultPage<StageDiagram>(ctx, DIAGRAM_KIND, input, DIAGRAM_SORTABLE),

  // Replaces the name and/or the whole list of stages; the leaf type and the default flag stay.
  "stage-diagrams.update": async (ctx, input) => {
    const existing = await mustGet<DiagramData>(ctx, [DIAGRAM_KIND], input.id, "Stage diagram");
    const stages = input.stages ? await diagramStages(ctx, input.stages) : undefined;
    const record = await ctx.store.updateRecord<DiagramData>(
      ctx.actor,
      DIAGRAM_KIND,
      existing.id,
      (current) => ({
        data: {
          ...current.data,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(stages ? { stages } : {}),
        },
        ...(input.name !== undefined ? { label: input.name } : {}),
      }),
    );
    return { stage_diagram: record.data };
  },
} satisfies Partial<Handlers>;
