// Pieces the work group's handlers share (works, parts, stages, timeline entries): the scope rule of lists over typed families, and attaching artifacts to the record that owns them.
import type { components } from "@workapi/types";
import { ApiError } from "../http/errors.js";
import { resolveArtifacts } from "./refs.js";
import type { Context } from "./types.js";

type ArtifactSummary = components["schemas"]["ArtifactSummary"];

/**
 * The types a list over a typed family (works, parts) may show. Types asked for explicitly must each be
 * allowed by the token (403 otherwise, naming none of the records). Without a `type` filter the answer
 * holds only the types the token may read; a token that may read none of them gets 403.
 */
export function readableTypes(
  ctx: Context,
  asked: readonly string[] | undefined,
  all: readonly string[],
): string[] {
  if (asked && asked.length > 0) {
    for (const type of asked) ctx.requireType(type, []);
    return [...new Set(asked)];
  }
  const allowed = all.filter((type) => ctx.allowsType(type));
  if (allowed.length === 0) {
    throw new ApiError(
      "forbidden",
      "The token lacks a required scope.",
      `This needs the read, write or all scope of at least one of: ${all.join(", ")}.`,
      { object_ids: [] },
    );
  }
  return allowed;
}

/**
 * Resolves artifacts to attach to the record `ownerId` (which may not exist yet): each must exist (400
 * invalid_id) and belong to no other record (400 artifact_already_attached_to_a_parent).
 */
export async function artifactsFor(
  ctx: Context,
  field: string,
  ids: string[] | undefined,
  ownerId: string | undefined,
): Promise<ArtifactSummary[]> {
  const summaries = await resolveArtifacts(ctx, field, ids);
  for (const summary of summaries) {
    const artifact = await ctx.store.getRecord(ctx.org.id, ["artifact"], summary.id);
    const parent = artifact?.parent_id;
    if (parent && parent !== ownerId) {
      throw new ApiError(
        "artifact_already_attached_to_a_parent",
        "The artifact already belongs to another record.",
        `Artifact ${summary.display_id} is attached to ${parent}; attach a new artifact instead.`,
        { existing_parent: parent, is_same: false },
      );
    }
  }
  // The same artifact named twice is attached once.
  return summaries.filter((summary, index) => summaries.findIndex((s) => s.id === summary.id) === index);
}

/**
 * Makes `ownerId` the parent of the artifacts it now carries and releases the ones it no longer carries, so
 * that an artifact belongs to one record at a time (`artifacts.list` lists a record's files by parent).
 */
export async function syncArtifactParents(
  ctx: Context,
  ownerId: string,
  before: ArtifactSummary[] | undefined,
  after: ArtifactSummary[] | undefined,
): Promise<void> {
  const kept = new Set((after ?? []).map((artifact) => artifact.id));
  const had = new Set((before ?? []).map((artifact) => artifact.id));
  for (const artifact of before ?? []) {
    if (!kept.has(artifact.id)) await setArtifactParent(ctx, artifact.id, ownerId, null);
  }
  for (const artifact of after ?? []) {
    if (!had.has(artifact.id)) await setArtifactParent(ctx, artifact.id, null, ownerId);
  }
}

async function setArtifactParent(ctx: Context, id: string, from: string | null, to: string | null) {
  const artifact = await ctx.store.getRecord(ctx.org.id, ["artifact"], id);
  // An artifact deleted meanwhile, or already moved on to another record, is left alone.
  if (!artifact || (from !== null && artifact.parent_id !== from)) return;
  await ctx.store.updateRecord<Record<string, unknown>>(ctx.actor, "artifact", artifact.id, (current) => ({
    data: current.data,
    parent_id: to,
  }));
}
