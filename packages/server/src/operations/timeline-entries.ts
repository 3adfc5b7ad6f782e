// Timeline entries: comments added to the timeline of a record, and the change events writes record there.
// Entries are records of kind `timeline_entry` whose `parent_id` is the record owning the timeline and whose
// `subtype` is the entry type. An external_ref is unique per timeline, so its column holds
// `<parent id> <external_ref>` (the column is unique per organization and kind); `data.external_ref` holds
// the reference itself.
import type { TimelineEntry } from "@workapi/types";
import { notFound, notPermitted } from "../core/errors.js";
import type { Context, Handlers } from "../core/handlers.js";
import type { Filter, StoredRecord } from "../store/types.js";
import { referencesIn } from "./support/atom-summaries.js";
import { checkArtifacts, syncArtifactParents } from "./support/attachments.js";
import { allOf, storedPage } from "./support/records.js";
import { FAMILIES, idTypeOf } from "./support/references.js";

const ENTRY_KIND = FAMILIES.timeline_entry.kind;

type EntryData = Partial<TimelineEntry> & Record<string, unknown>;

const externalRefKey = (parentId: string, externalRef: string) => `${parentId} ${externalRef}`;

/**
 * The record owning a timeline (404 when there is none) and its type word, which must be one of the types
 * that have timelines (the operation's x-scopes-by-type); the token needs that type's scope.
 */
async function timelineOwner(
  ctx: Context,
  field: string,
  id: string,
): Promise<{ record: StoredRecord<Record<string, unknown>>; type: string }> {
  const record = await ctx.store.getRecord<Record<string, unknown>>(ctx.org.id, [], id);
  if (!record) throw notFound(`Record '${id}'`);
  const type = idTypeOf(record.id) ?? record.kind;
  const types = Object.keys(ctx.operation.scopesByType?.scopes ?? {});
  if (!types.includes(type)) {
    throw notPermitted(
      field,
      `records of type ${type} have no timeline`,
      `${record.display_id} is a ${type}; timelines belong to records of the types: ${types.join(", ")}.`,
      types,
    );
  }
  ctx.requireType(type, [record.id]);
  return { record, type };
}

/** Private entries are seen only by the user who wrote them. */
function visibleTo(ctx: Context, entry: StoredRecord<EntryData>): boolean {
  return entry.data.visibility !== "private" || entry.data.created_by?.id === ctx.user.id;
}

const seenByCaller = (ctx: Context): Filter => ({
  op: "or",
  filters: [
    { op: "ne", path: "visibility", value: "private" },
    { op: "eq", path: "created_by.id", value: ctx.user.id },
  ],
});

export const timelineEntries = {
  "timeline-entries.create": async (ctx, input) => {
    const { record: owner, type } = await timelineOwner(ctx, "object", input.object);
    const artifacts = await checkArtifacts(ctx, "artifacts", input.artifacts);
    const record = await ctx.store.createRecord<EntryData>(ctx.actor, {
      ...FAMILIES.timeline_entry,
      subtype: input.type,
      parent_id: owner.id,
      external_ref: input.external_ref === undefined ? null : externalRefKey(owner.id, input.external_ref),
      data: {
        type: input.type,
        object: owner.id,
        object_display_id: owner.display_id,
        object_type: type,
        ...(input.body !== undefined ? { body: input.body } : {}),
        // A comment's body is plain text; the records it names by display id are its references.
        ...(input.type === "timeline_comment"
          ? { body_type: "text" as const, references: await referencesIn(ctx, input.body) }
          : {}),
        artifacts,
        visibility: input.visibility ?? "internal",
        labels: input.labels ?? [],
        ...(input.external_ref !== undefined ? { external_ref: input.external_ref } : {}),
      },
    });
    await syncArtifactParents(ctx, record.id, [], artifacts);
    return { timeline_entry: record.data };
  },

  // With external_ref, `id` names the record whose timeline holds the entry; without, the entry itself.
  "timeline-entries.get": async (ctx, input) => {
    let entry: StoredRecord<EntryData> | undefined;
    if (input.external_ref !== undefined) {
      const { record: owner } = await timelineOwner(ctx, "id", input.id);
      [entry] = await ctx.store.findRecords<EntryData>(ctx.org.id, ENTRY_KIND, {
        filter: { op: "eq", path: "external_ref", value: externalRefKey(owner.id, input.external_ref) },
        limit: 1,
      });
      if (!entry || !visibleTo(ctx, entry)) {
        throw notFound(`Timeline entry with external_ref '${input.external_ref}' on ${owner.display_id}`);
      }
    } else {
      entry = await ctx.store.getRecord<EntryData>(ctx.org.id, [ENTRY_KIND], input.id);
      if (!entry || !visibleTo(ctx, entry)) throw notFound(`Timeline entry '${input.id}'`);
      // The owner may be gone (a deleted record keeps its change events): its type is in its id.
      const ownerId = entry.parent_id ?? String(entry.data.object ?? "");
      ctx.requireType(idTypeOf(ownerId) ?? "", [ownerId]);
    }
    return { timeline_entry: entry.data };
  },

  "timeline-entries.list": async (ctx, input) => {
    const { record: owner } = await timelineOwner(ctx, "object", input.object);
    return storedPage<"timeline_entries", TimelineEntry>(ctx, "timeline_entries", ENTRY_KIND, input, {
      filter: allOf(
        { op: "eq", path: "parent_id", value: owner.id },
        input.visibility?.length ? { op: "in", path: "visibility", values: input.visibility } : undefined,
        seenByCaller(ctx),
      ),
    });
  },
} satisfies Partial<Handlers>;
