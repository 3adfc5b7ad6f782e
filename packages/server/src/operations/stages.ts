// Custom stages (stages.custom.*): a custom stage (kind `custom_stage`, name in `label`) belongs to one of
// the organization's built-in states; the stage diagrams of ./stage-diagrams.ts connect them.
import type { CustomStage } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import { mustGet, resultPage, type Sortable } from "./support/records.js";
import { ensureStates, FAMILIES, invalidId } from "./support/references.js";

const STAGE_KIND = FAMILIES.custom_stage.kind;

type StageData = Partial<CustomStage> & Record<string, unknown>;

/** Custom stages sort by name and ordinal too. */
const STAGE_SORTABLE: Sortable = { name: { path: "label" }, ordinal: { path: "ordinal", type: "number" } };

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
} satisfies Partial<Handlers>;
