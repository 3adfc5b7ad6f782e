// Vistas (saved views): curated ones hold records, dynamic ones are saved filters over a kind of records,
// grouped ones hold group items such as sprints. A vista is seen by its creator and the users it is shared
// with.
import type { Vista } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import type { Filter } from "../store/types.js";
import { atomSummary } from "./support/atom-summaries.js";
import { refIn } from "./support/filters.js";
import { allOf, listPage } from "./support/records.js";
import { FAMILIES, invalidId } from "./support/references.js";

type VistaItem = NonNullable<Vista["items"]>[number];
type SharedWithFilter = NonNullable<Input<"vistas.list">["shared_with"]>[number];

/**
 * Stored beside the record's fields, never answered: one key per member (`["<user id>"]`) and one per member
 * and role (`["<user id>","<role id>"]`), so that "shared with this member in this role" is one array test
 * on the same element rather than two tests that could match different members.
 */
const ACCESS = "_access";
type StoredVista = Vista & { [ACCESS]?: string[] };

const accessKey = (member: string, role?: string) =>
  JSON.stringify(role === undefined ? [member] : [member, role]);

/** The kinds of records a dynamic vista can select (the contract's `filter_type`). */
const FILTER_TYPES = [
  "accounts",
  "articles",
  "conversations",
  "credits",
  "custom_objects",
  "dev_users",
  "incidents",
  "invoices",
  "meetings",
  "parts",
  "quotes",
  "rev_orgs",
  "rev_users",
  "works",
] as const;
type FilterType = (typeof FILTER_TYPES)[number];
/** A grouped vista groups conversations, parts or works. */
const GROUPED_FILTER_TYPES: readonly FilterType[] = ["conversations", "parts", "works"];

/**
 * The `filter_type` of a dynamic or grouped vista: its `object_type` when that is a kind such a vista can be
 * over; else the kind its flavor is built for (a support inbox holds conversations, a sprint board or a
 * now/next/later board works). Curated vistas have none.
 */
function filterTypeOf(vista: Pick<Vista, "type" | "flavor" | "object_type">): FilterType | undefined {
  if (vista.type === "curated") return undefined;
  const allowed = vista.type === "grouped" ? GROUPED_FILTER_TYPES : FILTER_TYPES;
  const named = allowed.find((kind) => kind === vista.object_type);
  if (named) return named;
  return vista.flavor === "support_inbox" ? "conversations" : "works";
}

/**
 * The vista as the interface shows it: without the access keys, with `filter_type` (and `filter`, for a
 * dynamic one), and without items when asked to skip them. Vistas stored before `filter_type` existed get it
 * here.
 */
function present(data: StoredVista, skipItems = false): Vista {
  const { [ACCESS]: _access, ...stored } = data;
  const filterType = stored.filter_type ?? filterTypeOf(stored);
  const vista: Vista = {
    ...stored,
    ...(filterType ? { filter_type: filterType } : {}),
    ...(stored.type === "dynamic" ? { filter: stored.filter ?? {} } : {}),
  };
  if (skipItems && vista.type === "grouped") {
    const { items: _items, ...rest } = vista;
    return rest;
  }
  return vista;
}

/** An item of a vista: any record of the organization, named by id or display id, as a typed summary. */
async function resolveItem(ctx: Context, field: string, id: string): Promise<VistaItem> {
  const record = await ctx.store.getRecord<Record<string, unknown>>(ctx.org.id, [], id);
  if (!record) throw invalidId(field, id, "Record");
  return atomSummary(record) as VistaItem;
}

/** User ids as stored: a display id of a user of the organization becomes its id; others stay as sent. */
async function canonicalUsers(ctx: Context, ids: string[]): Promise<string[]> {
  const users = await ctx.store.listDevUsers(ctx.org.id);
  return ids.map((id) => users.find((user) => user.id === id || user.display_id === id)?.id ?? id);
}

/** The GET form sends one `shared_with.member` / `shared_with.role` pair: an object instead of an array. */
function sharedWithEntries(value: unknown): SharedWithFilter[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as SharedWithFilter[]) : [value as SharedWithFilter];
}

async function sharedWithFilter(ctx: Context, entries: SharedWithFilter[]): Promise<Filter | undefined> {
  const alternatives: Filter[] = [];
  for (const entry of entries) {
    const [member] = entry.member === undefined ? [] : await canonicalUsers(ctx, [entry.member]);
    if (member !== undefined) {
      alternatives.push({ op: "any", path: ACCESS, values: [accessKey(member, entry.role)] });
    } else if (entry.role !== undefined) {
      alternatives.push({ op: "any", path: "shared_with", key: "role.id", values: [entry.role] });
    }
  }
  if (alternatives.length === 0) return undefined;
  return alternatives.length === 1 ? alternatives[0] : { op: "or", filters: alternatives };
}

export const vistas = {
  "vistas.create": async (ctx, input) => {
    if (input.type !== "dynamic" && input.filter !== undefined) {
      throw notPermitted(
        "filter",
        "only a dynamic vista has a filter",
        "A filter belongs to a dynamic vista; curated and grouped vistas list their items instead.",
      );
    }
    if (input.type === "dynamic" && input.items?.length) {
      throw notPermitted(
        "items",
        "a dynamic vista holds no items",
        "A dynamic vista is a saved filter over its object_type; only curated and grouped vistas hold items.",
      );
    }
    const items: VistaItem[] = [];
    for (const [index, item] of (input.items ?? []).entries()) {
      items.push(await resolveItem(ctx, `items.${index}.id`, item.id));
    }
    // Members are users of the organization, by id or display id.
    const users = await ctx.store.listDevUsers(ctx.org.id);
    const seen = new Set<string>();
    const sharedWith = (input.shared_with ?? []).map((entry, index) => {
      const user = users.find(
        (candidate) => candidate.id === entry.member || candidate.display_id === entry.member,
      );
      if (!user) throw invalidId(`shared_with.${index}.member`, entry.member, "User");
      if (seen.has(user.id)) {
        throw notPermitted(
          `shared_with.${index}.member`,
          "the member is named twice",
          `The vista is already shared with '${entry.member}'; name each member once.`,
        );
      }
      seen.add(user.id);
      const { org_id: _org, created_date: _created, ...member } = user;
      return { member, ...(entry.role !== undefined ? { role: { id: entry.role } } : {}) };
    });
    const filterType = filterTypeOf(input);
    const data: Omit<StoredVista, "id" | "display_id"> = {
      name: input.name,
      type: input.type,
      ...(input.flavor !== undefined ? { flavor: input.flavor } : {}),
      is_default: input.is_default ?? false,
      ...(input.object_type !== undefined ? { object_type: input.object_type } : {}),
      ...(filterType ? { filter_type: filterType } : {}),
      ...(input.type === "dynamic" ? { filter: input.filter ?? {} } : {}),
      ...(input.state !== undefined ? { state: input.state } : {}),
      ...(input.type !== "dynamic" ? { items } : {}),
      shared_with: sharedWith,
      [ACCESS]: sharedWith.flatMap(({ member, role }) => [
        accessKey(member.id),
        ...(role ? [accessKey(member.id, role.id)] : []),
      ]),
    };
    const record = await ctx.store.createRecord(ctx.actor, { ...FAMILIES.vista, label: input.name, data });
    return { vista: present(record.data as StoredVista) };
  },

  // Sortable: name, type, created_date, modified_date, object_version.
  "vistas.list": async (ctx, input) => {
    const members = await canonicalUsers(ctx, input.members ?? []);
    const creators = input.created_by ?? [];
    const filter = allOf(
      // Only the vistas the caller can see: created by them, or shared with them.
      {
        op: "or",
        filters: [
          { op: "eq", path: "created_by.id", value: ctx.user.id },
          { op: "any", path: ACCESS, values: [accessKey(ctx.user.id)] },
        ],
      },
      input.type?.length ? { op: "in", path: "type", values: input.type } : undefined,
      refIn("created_by", creators),
      input.flavor?.length ? { op: "in", path: "flavor", values: input.flavor } : undefined,
      input.is_default !== undefined ? { op: "eq", path: "is_default", value: input.is_default } : undefined,
      // A member can access the vistas they created and those shared with them.
      members.length > 0 && {
        op: "or",
        filters: [
          { op: "in", path: "created_by.id", values: members },
          { op: "any", path: ACCESS, values: members.map((member) => accessKey(member)) },
        ],
      },
      input.object_type?.length ? { op: "in", path: "object_type", values: input.object_type } : undefined,
      await sharedWithFilter(ctx, sharedWithEntries(input.shared_with)),
      input.state?.length ? { op: "in", path: "state", values: input.state } : undefined,
    );
    const { items, ...cursors } = await listPage<StoredVista>(ctx, FAMILIES.vista.kind, input, {
      filter,
      sortable: { name: { path: "label" }, type: { path: "type" } },
    });
    return { vistas: items.map((vista) => present(vista, input.skip_items === true)), ...cursors };
  },
} satisfies Partial<Handlers>;
