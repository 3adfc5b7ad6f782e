// The record families the server numbers: for each, the kind of record it is stored as, the type word in its
// ids and the prefix of its display ids. The contract states them once (`x-record-families` on the schemas of
// the records, spec/README.md); the docs' code samples and the examples use the same prefixes. Dev users and
// access tokens, which the store keeps in tables of its own, are the store's (../store/record-ids.ts, generated).
import { type RecordFamily, recordFamilies } from "@workapi/spec";
import { theContract } from "./contract.js";

/**
 * The families kept as records, the keys of FAMILIES. Only the names are written here, for the type;
 * test/record-families.test.ts checks that they are exactly the contract's families that have a kind.
 */
export const FAMILY_NAMES = [
  "issue",
  "ticket",
  "task",
  "incident",
  "opportunity",
  "product",
  "capability",
  "feature",
  "enhancement",
  "tag",
  "article",
  "artifact",
  "code_change",
  "conversation",
  "rev_org",
  "account",
  "sla",
  "org_schedule",
  "org_schedule_fragment",
  "custom_state",
  "custom_stage",
  "stage_diagram",
  "survey",
  "vista",
  "timeline_entry",
  "custom_object",
  "observability_session",
] as const;

export type Family = (typeof FAMILY_NAMES)[number];

/** What the store needs to make a record of a family: the fields of NewRecord that name the family. */
export interface FamilyFacts {
  readonly kind: string;
  readonly idType: string;
  readonly prefix: string;
}

// Read from the thread's one contract (./contract.ts), not loaded again.
const stated = new Map(recordFamilies(theContract().spec).map((family) => [family.name, family]));

function statedFamily(name: string): RecordFamily {
  const family = stated.get(name);
  if (!family) throw new Error(`The contract states no record family '${name}' (x-record-families).`);
  return family;
}

function recordFamily(name: Family): FamilyFacts {
  const { kind, idType, prefix } = statedFamily(name);
  if (!kind) throw new Error(`The contract gives record family '${name}' no kind (x-record-families).`);
  return Object.freeze({ kind, idType, prefix });
}

/** Record families, their kind, id word and display prefix. Work and part families are per type. */
export const FAMILIES: Readonly<Record<Family, FamilyFacts>> = Object.freeze(
  Object.fromEntries(FAMILY_NAMES.map((name) => [name, recordFamily(name)])) as Record<Family, FamilyFacts>,
);
