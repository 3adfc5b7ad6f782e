// Stage diagrams (kind `stage_diagram`, leaf type in `subtype`, name in `label`): they connect the custom
// stages of ./stages.ts with the moves records of their type may make between them.
import type { CustomStage, StageDiagram } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import type { StoredRecord } from "../store/types.js";
import { mustGet, resultPage, type Sortable } from "./support/records.js";
import { FAMILIES, invalidId, resolveRecord } from "./support/references.js";
import type { DiagramNode } from "./support/stage-rules.js";

const STAGE_KIND = FAMILIES.custom_stage.kind;
const DIAGRAM_KIND = FAMILIES.stage_diagram.kind;

type StageData = Partial<CustomStage> & Record<string, unknown>;
type DiagramData = Partial<StageDiagram> & Record<string, unknown>;
type StageInput = Input<"stage-diagrams.create">["stages"][number];

/** Stage diagrams sort by name and leaf type too. */
const DIAGRAM_SORTABLE: Sortable = { name: { path: "label" }, leaf_type: { path: "subtype" } };

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
      // How the transition is shown (`ui.is_hidden`) is stored and answered as sent.
      transitions.push({
        target_stage: reference(target),
        ...(transition.ui !== undefined ? { ui: transition.ui } : {}),
      });
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

export const stageDiagrams = {
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
