// The custom stages, on the built-in states, and a default stage diagram per work type.
import { actorOf } from "../core/auth.js";
import { ensureStates } from "../operations/support/references.js";
import type { DevUser, Org, Store } from "../store/types.js";
import type { Builder } from "./context.js";

/** Returns the custom stages' ids by name. */
export async function makeStages(
  { call, count }: Builder,
  tx: Store,
  org: Org,
  admin: DevUser,
): Promise<Record<string, string>> {
  const stageIds: Record<string, string> = {};
  const stateIds = Object.fromEntries(
    (await ensureStates({ store: tx, actor: actorOf(org, admin), org })).map((state) => [
      state.data.name,
      state.id,
    ]),
  );
  for (const [name, ordinal, state] of [
    ["triage", 100, "open"],
    ["in_development", 200, "in_progress"],
    ["in_review", 300, "in_progress"],
    ["resolved", 400, "closed"],
    ["wont_fix", 500, "closed"],
  ] as const) {
    const { custom_stage } = await call("stages.custom.create", {
      name,
      ordinal,
      state: stateIds[state] as string,
    });
    stageIds[name] = custom_stage.id;
    count("custom_stages");
  }
  return stageIds;
}

/** One default diagram per work type over the custom stages. */
export async function makeStageDiagrams(
  { call, count }: Builder,
  stageIds: Record<string, string>,
): Promise<void> {
  const transitions: Record<string, string[]> = {
    triage: ["in_development", "wont_fix"],
    in_development: ["in_review", "triage"],
    in_review: ["resolved", "in_development"],
    resolved: ["triage"],
    wont_fix: ["triage"],
  };
  for (const leaf of ["issue", "ticket", "task", "incident", "opportunity"]) {
    await call("stage-diagrams.create", {
      leaf_type: leaf,
      name: `${leaf} flow`,
      is_default: true,
      stages: Object.entries(transitions).map(([name, targets]) => ({
        stage_id: stageIds[name] as string,
        is_start: name === "triage",
        // Reopening a closed work is possible but not offered as a button.
        transitions: targets.map((target) => ({
          target_stage_id: stageIds[target] as string,
          ui: { is_hidden: target === "triage" && (name === "resolved" || name === "wont_fix") },
        })),
      })),
    });
    count("stage_diagrams");
  }
}
