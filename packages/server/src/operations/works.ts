// Work items (incidents, issues, opportunities, tasks, tickets): create, change, read, list, export, delete.
// Works are records of kind `work` with the work type in `subtype`, the part they belong to in `parent_id`,
// the title in `label` and `external_ref` (unique per organization) in its column.
import type { StageInfo, Work, WorkType } from "@workapi/types";
import { apiError, notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import { JsonChunks, JsonText } from "../core/json-text.js";
import { documentText, type Filter, type StoredRecord } from "../store/types.js";
import { checkArtifacts, syncArtifactParents } from "./support/attachments.js";
import { canonical, checkCustomFields, fieldDeltas, recordChange } from "./support/change-events.js";
import { dateFilter, refAny, refIn } from "./support/filters.js";
import { readableTypes } from "./support/readable-types.js";
import {
  allOf,
  BASE_SORTABLE,
  mustGet,
  mustGetJson,
  type Sortable,
  sortKeys,
  storedPage,
} from "./support/records.js";
import {
  FAMILIES,
  invalidId,
  partSummary,
  resolveRecord,
  resolveStage,
  resolveTags,
  resolveUsers,
  WORK_TYPES,
} from "./support/references.js";
import { checkEntry, checkTransition, diagramFor, startStage } from "./support/stage-rules.js";
import { typeFields, typeFilters } from "./support/work-types.js";

const WORK_KIND = FAMILIES.issue.kind;
const PART_KIND = FAMILIES.product.kind;

type WorkFilters = Omit<Input<"works.list">, "cursor" | "limit" | "mode" | "sort_by">;
type WorkData = Partial<Work> & Record<string, unknown>;

/**
 * Fields works sort by besides created_date, modified_date and object_version: title, type, the target and
 * actual close dates, and the stage's name and ordinal.
 */
const SORTABLE: Sortable = {
  title: { path: "label" },
  type: { path: "subtype" },
  target_close_date: { path: "target_close_date" },
  actual_close_date: { path: "actual_close_date" },
  "stage.name": { path: "stage.name" },
  "stage.ordinal": { path: "stage.ordinal", type: "number" },
};

/** Custom field names are plain identifiers (`tnt__priority`), so each is one segment of a data path. */
const CUSTOM_FIELD_NAME = /^[a-z_][a-z0-9_]*$/i;

/** Equality on each custom field sent; `null` matches works without the field. */
function customFieldsFilter(fields: Record<string, unknown> | undefined): Filter | undefined {
  const entries = Object.entries(fields ?? {});
  if (entries.length === 0) return undefined;
  return {
    op: "and",
    filters: entries.map(([name, value]): Filter => {
      const field = `custom_fields.${name}`;
      if (!CUSTOM_FIELD_NAME.test(name)) {
        throw apiError(
          "invalid_field",
          `'${name}' is not a custom field name; names are letters, digits and underscores.`,
          { field_name: field },
        );
      }
      if (value === null) return { op: "exists", path: field, exists: false };
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        return { op: "eq", path: field, value };
      }
      throw apiError(
        "invalid_field",
        `Custom field filters compare with a string, number, boolean or null; '${name}' got ${Array.isArray(value) ? "an array" : "an object"}.`,
        { field_name: field },
      );
    }),
  };
}

type VistaData = {
  items?: Array<{ id?: string; display_id?: string }>;
  shared_with?: Array<{ member?: { id?: string } }>;
};

/**
 * The works of a vista: those whose id or display id is among the vista's items. A vista is seen by its
 * creator and the users it is shared with; to anybody else it does not exist (400 invalid_id).
 */
async function vistaFilter(ctx: Context, vistaId: string | undefined): Promise<Filter | undefined> {
  if (vistaId === undefined) return undefined;
  const vista = await resolveRecord<VistaData>(ctx, "vista", [FAMILIES.vista.kind], vistaId, "Vista");
  const seen =
    vista.data.created_by.id === ctx.user.id ||
    (vista.data.shared_with ?? []).some((entry) => entry.member?.id === ctx.user.id);
  if (!seen) throw invalidId("vista", vistaId, "Vista");
  const refs = (vista.data.items ?? []).flatMap((item) => [item.id, item.display_id]);
  const ids = refs.filter((ref): ref is string => typeof ref === "string" && ref !== "");
  return {
    op: "or",
    filters: [
      { op: "in", path: "id", values: ids },
      { op: "in", path: "display_id", values: ids },
    ],
  };
}

/** Every filter of works.list and works.export, limited to the work types the token may read. */
async function worksFilter(ctx: Context, input: WorkFilters): Promise<Filter | undefined> {
  const types = readableTypes(ctx, input.type, WORK_TYPES);
  return allOf(
    types.length < WORK_TYPES.length && { op: "in", path: "subtype", values: types },
    dateFilter("actual_close_date", input.actual_close_date),
    refIn("applies_to_part", input.applies_to_part),
    refIn("created_by", input.created_by),
    dateFilter("created_date", input.created_date),
    customFieldsFilter(input.custom_fields),
    input.external_ref?.length ? { op: "in", path: "external_ref", values: input.external_ref } : undefined,
    refIn("modified_by", input.modified_by),
    dateFilter("modified_date", input.modified_date),
    refAny("owned_by", input.owned_by),
    refAny("reported_by", input.reported_by),
    input.stage?.name?.length ? { op: "in", path: "stage.name", values: input.stage.name } : undefined,
    input.state?.length ? { op: "in", path: "stage.state.name", values: input.state } : undefined,
    refAny("tags", input.tags, "tag"),
    dateFilter("target_close_date", input.target_close_date),
    await vistaFilter(ctx, input.vista),
    typeFilters(input),
  );
}

/** The fields that follow from the stage a work is in: the state's name, and when it was closed. */
function stageFields(stage: StageInfo | undefined, before?: WorkData): Partial<WorkData> {
  if (!stage) return {};
  const wasClosed = before?.stage?.state?.is_final === true;
  const closed = stage.state?.is_final === true;
  return {
    stage,
    state_display_name: stage.state?.name,
    // Entering a final state closes the work; leaving it reopens it.
    actual_close_date: closed
      ? wasClosed
        ? before?.actual_close_date
        : new Date().toISOString()
      : undefined,
  };
}

/**
 * `data` with `patch` applied; a key patched to undefined is removed. A value equal to the stored one keeps
 * the stored copy, so that a change that changes nothing shows no field delta.
 */
function applyPatch(data: WorkData, patch: Partial<WorkData>): WorkData {
  const next: Record<string, unknown> = { ...data };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    // A key not stored yet (every key of a create's patch) cannot equal it: no need to print both.
    else if (!(key in data) || canonical(value) !== canonical(data[key])) next[key] = value;
  }
  return next as WorkData;
}

const isoDate = (value: string | undefined) =>
  value === undefined ? undefined : new Date(value).toISOString();

/** A work by id or display id, and the type scope to act on it. */
async function workFor(ctx: Context, id: string): Promise<StoredRecord<WorkData>> {
  return inTypeScope(ctx, await mustGet<WorkData>(ctx, [WORK_KIND], id, "Work item"));
}

/** The work, once the token holds a scope of its type (its subtype). */
function inTypeScope<W extends { id: string; subtype: string | null }>(ctx: Context, work: W): W {
  ctx.requireType(work.subtype ?? "", [work.id]);
  return work;
}

export const works = {
  "works.create": async (ctx, input) => {
    ctx.requireType(input.type, []);
    const part = await resolveRecord<Record<string, unknown>>(
      ctx,
      "applies_to_part",
      [PART_KIND],
      input.applies_to_part,
      "Part",
    );
    const ownedBy = await resolveUsers(ctx, "owned_by", input.owned_by);
    const reportedBy = await resolveUsers(ctx, "reported_by", input.reported_by);
    const tags = await resolveTags(ctx, "tags", input.tags);
    const artifacts = await checkArtifacts(ctx, "artifacts", input.artifacts);
    const spec = input.custom_schema_spec as Record<string, unknown> | undefined;
    const fragments = checkCustomFields(input.custom_fields, spec, input.type);
    const ofType = await typeFields(ctx, input.type, input, "create");

    // The stage named, which must be open in the type's diagram; else the diagram's start stage, if any.
    const diagram = await diagramFor(ctx, input.type);
    let stage: StageInfo | undefined;
    if (input.stage) {
      stage = await resolveStage(ctx, "stage", input.stage);
      if (diagram) checkEntry(diagram, "stage", stage);
    } else if (diagram) {
      stage = await startStage(ctx, diagram);
    }

    const data = applyPatch(
      {
        type: input.type,
        title: input.title,
        applies_to_part: partSummary(part),
        owned_by: ownedBy,
        reported_by: reportedBy,
        artifacts,
        tags,
      },
      {
        body: input.body,
        ...stageFields(stage),
        target_close_date: isoDate(input.target_close_date),
        external_ref: input.external_ref,
        custom_fields: input.custom_fields,
        custom_schema_fragments: fragments.length > 0 ? fragments : undefined,
        subtype: typeof spec?.subtype === "string" ? spec.subtype : undefined,
        ...ofType,
      },
    );
    const record = await ctx.store.createRecord<WorkData>(ctx.actor, {
      ...FAMILIES[input.type],
      subtype: input.type,
      parent_id: part.id,
      label: input.title,
      external_ref: input.external_ref ?? null,
      data,
    });
    await syncArtifactParents(ctx, record.id, [], artifacts);
    await recordChange(ctx, record, input.type, { created: true });
    // As text: on a SQLite file the answer crosses from the write thread as one string, not an object graph
    // cloned there and printed again here.
    return JsonText.under<"work", Work>("work", documentText(record));
  },

  "works.get": async (ctx, input) => {
    // Answered with the work's stored document as it is (it holds every field the answer has).
    const record = inTypeScope(ctx, await mustGetJson(ctx, [WORK_KIND], input.id, "Work item"));
    return JsonText.under<"work", Work>("work", record.json);
  },

  "works.update": async (ctx, input) => {
    const existing = await workFor(ctx, input.id);
    const type = existing.subtype as WorkType;
    const patch: Partial<WorkData> = {};
    let partId: string | undefined;

    if (input.title !== undefined) patch.title = input.title;
    if (input.body !== undefined) patch.body = input.body;
    if (input.applies_to_part !== undefined) {
      const part = await resolveRecord<Record<string, unknown>>(
        ctx,
        "applies_to_part",
        [PART_KIND],
        input.applies_to_part,
        "Part",
      );
      patch.applies_to_part = partSummary(part);
      partId = part.id;
    }
    if (input.owned_by) {
      if (input.owned_by.set.length === 0) {
        throw notPermitted(
          "owned_by.set",
          "a work item needs at least one owner",
          "The owners may not become empty; name at least one user.",
        );
      }
      patch.owned_by = await resolveUsers(ctx, "owned_by.set", input.owned_by.set);
    }
    if (input.reported_by)
      patch.reported_by = await resolveUsers(ctx, "reported_by.set", input.reported_by.set);
    if (input.tags) patch.tags = await resolveTags(ctx, "tags.set", input.tags.set);
    if (input.artifacts) patch.artifacts = await artifactsAfter(ctx, existing, input.artifacts);
    let stage: StageInfo | undefined;
    if (input.stage) stage = await resolveStage(ctx, "stage", input.stage);
    const diagram = stage ? await diagramFor(ctx, type) : undefined;
    if (input.target_close_date !== undefined) patch.target_close_date = isoDate(input.target_close_date);
    Object.assign(patch, await typeFields(ctx, type, input, "update"));
    if (input.external_ref !== undefined) patch.external_ref = input.external_ref;
    Object.assign(patch, customFieldsAfter(existing.data, input, type));
    /** The work after the change; the stage move is checked against the stage the work is in now. */
    const change = (current: WorkData): WorkData => {
      if (!stage) return applyPatch(current, patch);
      if (diagram) checkTransition(diagram, "stage", current.stage, stage);
      return applyPatch(current, { ...patch, ...stageFields(stage, current) });
    };
    if (fieldDeltas(existing.data, change(existing.data)).length === 0)
      return { work: existing.data as Work };

    let before = existing.data;
    const updated = await ctx.store.updateRecord<WorkData>(ctx.actor, WORK_KIND, existing.id, (current) => {
      before = current.data;
      const data = change(current.data);
      return {
        data,
        label: data.title ?? current.label,
        ...(partId ? { parent_id: partId } : {}),
        ...(input.external_ref !== undefined ? { external_ref: input.external_ref } : {}),
      };
    });
    if (patch.artifacts) await syncArtifactParents(ctx, updated.id, before.artifacts, updated.data.artifacts);
    await recordChange(ctx, updated, type, { updated: fieldDeltas(before, updated.data) });
    return { work: updated.data as Work };
  },

  "works.delete": async (ctx, input) => {
    const existing = await workFor(ctx, input.id);
    await syncArtifactParents(ctx, existing.id, existing.data.artifacts, []);
    await ctx.store.deleteRecord(ctx.actor, WORK_KIND, existing.id);
    await recordChange(ctx, existing, existing.subtype ?? "work", { deleted: true });
    return {};
  },

  "works.list": async (ctx, input) => {
    return storedPage<"works", Work>(ctx, "works", WORK_KIND, input, {
      filter: await worksFilter(ctx, input),
      sortable: SORTABLE,
    });
  },

  // Not paginated: the first `first` matching works (default 50, at most 5000) in the order of `sort_by`.
  "works.export": async (ctx, input) => {
    const filter = await worksFilter(ctx, input);
    const sort = sortKeys(input.sort_by, { ...BASE_SORTABLE, ...SORTABLE });
    // Up to 5,000 works: their stored documents are the answer's items, sent as stored while they are read.
    const answer = await ctx.store.findRecordJson(
      ctx.org.id,
      WORK_KIND,
      { ...(filter ? { filter } : {}), ...(sort ? { sort } : {}), limit: input.first ?? 50 },
      "works",
    );
    return new JsonChunks<{ works: Work[] }>(answer);
  },
} satisfies Partial<Handlers>;

/** The artifacts after works.update's `artifacts`: `set` replaces them, `add`/`remove` change them. */
async function artifactsAfter(
  ctx: Context,
  existing: StoredRecord<WorkData>,
  sent: NonNullable<Input<"works.update">["artifacts"]>,
) {
  const { set, add, remove } = sent;
  if (set && (add || remove)) {
    throw apiError(
      "invalid_field",
      "Send either 'artifacts.set' or 'artifacts.add'/'artifacts.remove', not both.",
      { field_name: "artifacts" },
    );
  }
  if (set) return checkArtifacts(ctx, "artifacts.set", set, existing.id);
  // Attach the added ones that are not attached yet, then detach the removed ones (by id or display id).
  const added = await checkArtifacts(ctx, "artifacts.add", add, existing.id);
  const current = existing.data.artifacts ?? [];
  const merged = [...current, ...added.filter((a) => !current.some((c) => c.id === a.id))];
  return merged.filter((a) => !remove?.includes(a.id) && !remove?.includes(a.display_id ?? ""));
}

/** The custom fields and fragments after works.update: the fields sent replace their stored values. */
function customFieldsAfter(
  current: WorkData,
  input: Input<"works.update">,
  type: WorkType,
): Partial<WorkData> {
  const patch: Partial<WorkData> = {};
  if (input.custom_fields !== undefined || input.custom_schema_spec !== undefined) {
    const spec = input.custom_schema_spec as Record<string, unknown> | undefined;
    const fragments = checkCustomFields(input.custom_fields, spec, type);
    // The fields sent replace their stored values; the others stay.
    if (input.custom_fields) patch.custom_fields = { ...current.custom_fields, ...input.custom_fields };
    const allFragments = [...new Set([...(current.custom_schema_fragments ?? []), ...fragments])];
    if (allFragments.length > 0) patch.custom_schema_fragments = allFragments;
    if (typeof spec?.subtype === "string") patch.subtype = spec.subtype;
  }
  return patch;
}
