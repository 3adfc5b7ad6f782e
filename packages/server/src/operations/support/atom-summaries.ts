// Typed short references to records of any family (the contract's AtomSummary), as curated vistas hold them
// and comments refer to them: `type` says what the record is, and the members that go with the type follow
// (`title` and `owned_by` for works, `name` and `owned_by` for parts, `name` for tags and SLAs...).
import type { components } from "@workapi/types";
import type { Context } from "../../core/handlers.js";
import type { StoredRecord } from "../../store/types.js";

type AtomSummary = components["schemas"]["AtomSummary"];
type Data = Record<string, unknown>;

const pick = (data: Data, keys: string[]): Data =>
  Object.fromEntries(keys.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]));

/** The summary of a stored record; `display_name` stays beside the typed members for readers that show it. */
export function atomSummary(record: StoredRecord<object>): AtomSummary {
  const data = record.data as Data;
  const base = { id: record.id, display_id: record.display_id };
  const displayName = String(data.title ?? data.name ?? data.display_name ?? record.display_id);
  const stage = (data.stage as { name?: string } | undefined)?.name;
  switch (record.kind) {
    case "work": {
      const type = record.subtype ?? "issue";
      return {
        type,
        ...base,
        display_name: displayName,
        title: String(data.title ?? ""),
        owned_by: (data.owned_by as AtomSummary["owned_by"]) ?? [],
        ...(stage !== undefined ? { stage: { name: stage } } : {}),
        ...(type === "issue" ? pick(data, ["priority", "priority_v2", "sprint"]) : {}),
        ...(type === "ticket" ? pick(data, ["account", "rev_org", "severity"]) : {}),
      } as AtomSummary;
    }
    case "part":
      return {
        type: record.subtype ?? "product",
        ...base,
        display_name: displayName,
        name: String(data.name ?? ""),
        owned_by: (data.owned_by as AtomSummary["owned_by"]) ?? [],
      } as AtomSummary;
    case "article":
      return {
        type: "article",
        ...base,
        display_name: displayName,
        title: String(data.title ?? ""),
        ...pick(data, ["article_type", "resource"]),
      } as AtomSummary;
    case "conversation":
      return { type: "conversation", ...base, display_name: displayName, title: String(data.title ?? "") };
    case "tag":
      return { type: "tag", ...base, display_name: displayName, name: String(data.name ?? "") };
    case "sla":
      return {
        type: "sla",
        ...base,
        display_name: displayName,
        name: String(data.name ?? ""),
        ...pick(data, ["status", "sla_type"]),
      } as AtomSummary;
    case "rev_org":
      return { type: "rev_org", ...base, display_name: displayName };
    case "timeline_entry":
      return { type: record.subtype ?? "timeline_comment", ...base };
    default:
      return { type: record.kind, ...base, display_name: displayName };
  }
}

/** Display ids as a text names them (`ISS-12`, `TKT-7`): upper-case letters, a dash, digits. */
const DISPLAY_ID = /\b[A-Z]{2,12}-\d+\b/g;

/** At most this many different display ids of one text are looked up. */
const MAX_REFERENCES = 50;

/**
 * The records a text refers to by display id, as summaries, each once and in the order first named. Words that
 * look like display ids but name no record of the organization are plain text.
 */
export async function referencesIn(ctx: Context, text: string | undefined): Promise<AtomSummary[]> {
  const names = [...new Set(text?.match(DISPLAY_ID) ?? [])].slice(0, MAX_REFERENCES);
  const found: AtomSummary[] = [];
  for (const name of names) {
    const record = await ctx.store.getRecord<object>(ctx.org.id, [], name);
    if (record) found.push(atomSummary(record));
  }
  return found;
}
