// Stage diagrams as the rules of a record type's stages: which stage a new record starts in, which stages a
// record may enter, and which moves are allowed from the stage it is in.
import type { StageDiagram, StageInfo } from "@workapi/types";
import { notPermitted } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";
import type { StoredRecord } from "../../store/types.js";
import { FAMILIES, stageInfo } from "./references.js";

export type DiagramNode = NonNullable<StageDiagram["stages"]>[number];

/**
 * The stage diagram that governs records of `leafType`: the one marked default, else the oldest one. Diagrams
 * store their leaf type in the `subtype` column.
 */
export async function diagramFor(
  ctx: Context,
  leafType: string,
): Promise<StoredRecord<StageDiagram> | undefined> {
  const diagrams = await ctx.store.findBySubtype<StageDiagram>(
    ctx.org.id,
    FAMILIES.stage_diagram.kind,
    leafType,
  );
  return diagrams.find((diagram) => diagram.data.is_default) ?? diagrams[0];
}

function nodeOf(diagram: StoredRecord<StageDiagram>, stageId: string | undefined): DiagramNode | undefined {
  if (!stageId) return undefined;
  return diagram.data.stages?.find((node) => node.stage?.id === stageId);
}

function names(nodes: DiagramNode[]): string[] {
  return nodes.map((node) => node.stage?.name ?? node.stage?.id ?? "");
}

/** The stage a new record of the diagram's type starts in, or undefined when the diagram names none. */
export async function startStage(
  ctx: Context,
  diagram: StoredRecord<StageDiagram>,
): Promise<StageInfo | undefined> {
  const start = diagram.data.stages?.find((node) => node.is_start);
  const id = start?.stage?.id;
  if (!id) return undefined;
  const stage = await ctx.store.getRecord<{ name: string }>(ctx.org.id, [FAMILIES.custom_stage.kind], id);
  return stage ? stageInfo(stage) : undefined;
}

/** A new record may start in any stage of the diagram that is not deprecated. */
export function checkEntry(diagram: StoredRecord<StageDiagram>, field: string, target: StageInfo): void {
  const open = (diagram.data.stages ?? []).filter((node) => !node.is_deprecated);
  if (!open.some((node) => node.stage?.id === target.stage?.id)) {
    throw notPermitted(
      field,
      `stage '${target.name}' is not an open stage of the ${diagram.data.leaf_type} stage diagram; allowed: ${names(open).join(", ")}`,
      `Records of type ${diagram.data.leaf_type} follow the stage diagram ${diagram.display_id}, where '${target.name}' is not a stage records may enter.`,
      names(open),
    );
  }
}

/**
 * A move from `current` to `target` must follow a transition of the diagram into a stage that is not
 * deprecated. Staying in the same stage is no move. A record whose stage is not in the diagram (it has none,
 * or the diagram changed since) may enter any open stage of the diagram.
 */
export function checkTransition(
  diagram: StoredRecord<StageDiagram>,
  field: string,
  current: StageInfo | undefined,
  target: StageInfo,
): void {
  const from = nodeOf(diagram, current?.stage?.id);
  if (!from) {
    checkEntry(diagram, field, target);
    return;
  }
  if (from.stage?.id === target.stage?.id) return;
  const targets = (from.transitions ?? [])
    .map((transition) => nodeOf(diagram, transition.target_stage?.id))
    .filter((node): node is DiagramNode => node !== undefined && !node.is_deprecated);
  if (!targets.some((node) => node.stage?.id === target.stage?.id)) {
    const allowed = names(targets);
    throw notPermitted(
      field,
      `no transition from '${current?.name}' to '${target.name}'; allowed: ${allowed.length > 0 ? allowed.join(", ") : "none"}`,
      `The stage diagram ${diagram.display_id} allows moves from '${current?.name}' only to: ${allowed.length > 0 ? allowed.join(", ") : "no other stage"}.`,
      allowed,
    );
  }
}
