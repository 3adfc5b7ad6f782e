// The record families the server numbers come from the contract (`x-record-families`): the names written in
// code are exactly the contract's families kept as records, and each family has the contract's facts.
import { loadSpec, recordFamilies } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { FAMILIES, FAMILY_NAMES } from "../../src/core/record-families.js";
import { PART_TYPES, WORK_TYPES } from "../../src/operations/support/references.js";
import { DEV_USER_IDS, TOKEN_IDS } from "../../src/store/record-ids.js";

const stated = recordFamilies(loadSpec());
const namesOfKind = (kind: string) =>
  stated
    .filter((family) => family.kind === kind)
    .map((family) => family.name)
    .sort();

describe("record families", () => {
  it("are named in code exactly as the contract's families kept as records", () => {
    const records = stated.filter((family) => family.kind !== undefined).map((family) => family.name);
    expect([...FAMILY_NAMES].sort()).toEqual(records.sort());
  });

  it("carry the contract's kind, id type and prefix", () => {
    for (const family of stated.filter((each) => each.kind !== undefined)) {
      expect(FAMILIES[family.name as keyof typeof FAMILIES]).toEqual({
        kind: family.kind,
        idType: family.idType,
        prefix: family.prefix,
      });
    }
  });

  it("give dev users and access tokens, kept apart from records, their id word and prefix", () => {
    const apart = stated.filter((family) => family.kind === undefined).map((family) => family.name);
    expect(apart.sort()).toEqual(["auth_token", "dev_user"]);
    // The ids stored rows already carry: a contract that changed them would orphan the rows.
    expect(DEV_USER_IDS).toEqual({ idType: "devu", prefix: "DEVU" });
    expect(TOKEN_IDS).toEqual({ idType: "token", prefix: "TOKEN" });
  });

  it("list the work and part types as the families of kind work and part", () => {
    expect(namesOfKind("work")).toEqual([...WORK_TYPES]);
    expect(namesOfKind("part")).toEqual([...PART_TYPES]);
  });
});
