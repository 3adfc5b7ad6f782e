// Artifacts attached to records: attaching them when a record names them, finding the record an artifact
// belongs to, and the read access that record's type asks for.

import { requireScopes } from "../../core/auth.js";
import { type ApiError, apiError } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";
import type { StoredRecord } from "../../store/types.js";
import { FAMILIES, idTypeOf, resolveRecord } from "./references.js";

/** Versions of an artifact's file: one record per upload, under the artifact (parent_id). */
export const ARTIFACT_VERSION = {
  kind: "artifact_version",
  idType: "artifact_version",
  prefix: "ARTVER",
} as const;

type FileRef = { name?: string; type?: string; size?: number };
type ArtifactData = { file?: FileRef; parent?: unknown };

export interface ArtifactRef {
  id: string;
  display_id: string;
  file?: FileRef;
}

/** The id of the record an artifact is attached to: its parent_id, or a `parent` kept in its data. */
export function parentOf(artifact: StoredRecord<object>): string | undefined {
  if (artifact.parent_id) return artifact.parent_id;
  const parent = (artifact.data as { parent?: unknown }).parent;
  if (typeof parent === "string") return parent;
  if (parent && typeof parent === "object" && typeof (parent as { id?: unknown }).id === "string") {
    return (parent as { id: string }).id;
  }
  return undefined;
}

function alreadyAttached(field: string, id: string, existing: string, isSame: boolean): ApiError {
  return apiError(
    "artifact_already_attached_to_a_parent",
    `Artifact '${id}' (${field}) belongs to '${existing}'; upload the file again to attach it elsewhere.`,
    { existing_parent: existing, is_same: isSame },
  );
}

/**
 * Artifacts a record names (`field`), checked before it is written: every id must name an artifact (400
 * invalid_id) that is attached to no other record than `ownerId` (400 artifact_already_attached_to_a_parent).
 * The same artifact named twice counts once. Returns the summaries the record carries; attach them with
 * attachArtifacts (or syncArtifactParents on an update) once the record exists.
 */
export async function checkArtifacts(
  ctx: Context,
  field: string,
  ids: string[] | undefined,
  ownerId?: string,
): Promise<ArtifactRef[]> {
  const out: ArtifactRef[] = [];
  for (const [index, id] of (ids ?? []).entries()) {
    const artifact = await resolveRecord<ArtifactData>(
      ctx,
      `${field}.${index}`,
      [FAMILIES.artifact.kind],
      id,
      "Artifact",
    );
    const existing = parentOf(artifact);
    if (existing && existing !== ownerId) throw alreadyAttached(`${field}.${index}`, id, existing, false);
    if (out.some((known) => known.id === artifact.id)) continue;
    out.push({
      id: artifact.id,
      display_id: artifact.display_id,
      ...(artifact.data.file ? { file: artifact.data.file } : {}),
    });
  }
  return out;
}

/** Attaches artifacts to the record `parentId`; one already on another record is refused. */
export async function attachArtifacts(
  ctx: Context,
  field: string,
  artifacts: ArtifactRef[],
  parentId: string,
): Promise<void> {
  for (const artifact of artifacts) {
    await ctx.store.updateRecord<Record<string, unknown>>(
      ctx.actor,
      FAMILIES.artifact.kind,
      artifact.id,
      (current) => {
        const existing = parentOf(current);
        if (existing && existing !== parentId) throw alreadyAttached(field, artifact.id, existing, false);
        return { data: current.data, parent_id: parentId };
      },
    );
  }
}

/** The record type whose scopes guard a record: its id's type word; a timeline entry's is its object's. */
async function guardingType(
  ctx: Context,
  record: StoredRecord<Record<string, unknown>>,
): Promise<string | undefined> {
  if (record.kind === FAMILIES.timeline_entry.kind && typeof record.data.object === "string") {
    const object = await ctx.store.getRecord<Record<string, unknown>>(ctx.org.id, [], record.data.object);
    if (object) return guardingType(ctx, object);
  }
  return idTypeOf(record.id);
}

/**
 * x-parent-access `read`: the caller needs a read scope (`<type>:read`, `:write` or `:all`) of the record's
 * type; otherwise 403 forbidden naming the record.
 */
export async function requireReadAccess(
  ctx: Context,
  record: StoredRecord<Record<string, unknown>>,
): Promise<void> {
  const type = await guardingType(ctx, record);
  if (!type) return;
  requireScopes(ctx.token, [`${type}:read`, `${type}:write`, `${type}:all`], [record.id]);
}

/**
 * Makes `ownerId` the parent of the artifacts it now carries and releases the ones it no longer carries, so
 * that an artifact belongs to one record at a time (`artifacts.list` lists a record's files by parent).
 */
/**
 * After a record's artifacts changed from `before` to `after`: artifacts it dropped are freed, artifacts it
 * gained now belong to it (their parent is the record).
 */
export async function syncArtifactParents(
  ctx: Context,
  ownerId: string,
  before: Array<{ id: string }> | undefined,
  after: Array<{ id: string }> | undefined,
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
  const artifact = await ctx.store.getRecord(ctx.org.id, [FAMILIES.artifact.kind], id);
  // An artifact deleted meanwhile, or already moved on to another record, is left alone.
  if (!artifact || (from !== null && artifact.parent_id !== from)) return;
  await ctx.store.updateRecord<Record<string, unknown>>(
    ctx.actor,
    FAMILIES.artifact.kind,
    artifact.id,
    (current) => ({
      data: current.data,
      parent_id: to,
    }),
  );
}
