// The store's filters over record columns and JSON data, on every database.
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor, Filter } from "../../src/store/types.js";
import { describeStores } from "./suite.js";

describeStores("store filters", (env) => {
  const { newActor, work } = env;

  describe("filters", () => {
    let actor: Actor;
    /** Titles of the records matching `filter`, sorted. */
    const titles = async (filter: Filter) => {
      const found = await env.store.findRecords<{ title: string }>(actor.orgId, "work", {
        filter,
        limit: 100,
      });
      expect(await env.store.countRecords(actor.orgId, "work", filter)).toBe(found.length);
      // A list's page (its query compiled once per shape, its values bound apart) finds the same, run twice:
      // the second run binds this filter's values into the query the first compiled.
      for (let run = 0; run < 2; run++) {
        const page = await env.store.listRecords<{ title: string }>(actor.orgId, "work", {
          filter,
          limit: 100,
        });
        expect(page.items.map((r) => r.id)).toEqual(found.map((r) => r.id));
      }
      return found.map((r) => r.data.title).sort();
    };

    beforeAll(async () => {
      actor = await newActor();
      const rows: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [
          {
            title: "a",
            priority: 1,
            stage: { name: "triage" },
            owned_by: [{ id: "u1" }, { id: "u2" }],
            labels: ["x", "y"],
            is_spam: false,
            custom_fields: { tnt__priority: "high" },
          },
          { subtype: "bug", external_ref: "r-a" },
        ],
        [
          {
            title: "b",
            priority: 2,
            stage: { name: "triage" },
            owned_by: [{ id: "u2" }],
            labels: ["y"],
            is_spam: true,
          },
          { subtype: "bug" },
        ],
        [
          {
            title: "c",
            priority: 9,
            stage: { name: "done" },
            owned_by: [],
            labels: [7, "z"],
            is_spam: false,
          },
          { subtype: "feature", parent_id: "P1" },
        ],
        [
          { title: "d", priority: 10, stage: { name: "done" }, owned_by: [{ id: "u3" }], custom_fields: {} },
          { subtype: "feature", parent_id: "P1" },
        ],
        // Values of other JSON types than the filters ask for: never match a typed comparison.
        [
          { title: "e", priority: "10", stage: "done", owned_by: "u1", labels: { y: 1 }, is_spam: "true" },
          {},
        ],
        [{ title: "f", priority: null, stage: null, owned_by: [{ id: 5 }, "u1"], labels: null }, {}],
      ];
      for (const [data, extra] of rows) await work(actor, data, extra);
    });

    it("matches IN lists past 500 values (bound as one value) as it matches short ones", async () => {
      const fillers = Array.from({ length: 600 }, (_, i) => `none-${i}`);
      const numbers = Array.from({ length: 600 }, (_, i) => 1000 + i);
      expect(await titles({ op: "in", path: "subtype", values: ["feature", "other", ...fillers] })).toEqual(
        await titles({ op: "in", path: "subtype", values: ["feature", "other"] }),
      );
      expect(
        await titles({ op: "in", path: "priority", values: [1, 9, "10", ...numbers, ...fillers] }),
      ).toEqual(["a", "c", "e"]);
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: ["u2", ...fillers] })).toEqual([
        "a",
        "b",
      ]);
    });

    it("compares indexed columns", async () => {
      expect(await titles({ op: "eq", path: "subtype", value: "bug" })).toEqual(["a", "b"]);
      expect(await titles({ op: "ne", path: "subtype", value: "bug" })).toEqual(["c", "d", "e", "f"]);
      expect(await titles({ op: "in", path: "subtype", values: ["feature", "other"] })).toEqual(["c", "d"]);
      expect(await titles({ op: "in", path: "subtype", values: [] })).toEqual([]);
      expect(await titles({ op: "gt", path: "label", value: "d" })).toEqual(["e", "f"]);
      expect(await titles({ op: "lte", path: "label", value: "b" })).toEqual(["a", "b"]);
      expect(await titles({ op: "eq", path: "parent_id", value: "P1" })).toEqual(["c", "d"]);
      expect(await titles({ op: "eq", path: "object_version", value: 1 })).toHaveLength(6);
      expect(await titles({ op: "gte", path: "object_version", value: 2 })).toEqual([]);
      expect(await titles({ op: "exists", path: "external_ref", exists: true })).toEqual(["a"]);
      expect(await titles({ op: "exists", path: "parent_id", exists: false })).toEqual(["a", "b", "e", "f"]);
    });

    it("compares fields inside data by their JSON type", async () => {
      expect(await titles({ op: "eq", path: "stage.name", value: "triage" })).toEqual(["a", "b"]);
      expect(await titles({ op: "eq", path: "custom_fields.tnt__priority", value: "high" })).toEqual(["a"]);
      expect(await titles({ op: "eq", path: "priority", value: 10 })).toEqual(["d"]);
      expect(await titles({ op: "eq", path: "priority", value: "10" })).toEqual(["e"]);
      // Numeric, not textual: 9 < 10.
      expect(await titles({ op: "gt", path: "priority", value: 2 })).toEqual(["c", "d"]);
      expect(await titles({ op: "gte", path: "priority", value: 2 })).toEqual(["b", "c", "d"]);
      expect(await titles({ op: "lt", path: "priority", value: 9.5 })).toEqual(["a", "b", "c"]);
      expect(await titles({ op: "lte", path: "priority", value: 1 })).toEqual(["a"]);
      expect(await titles({ op: "eq", path: "is_spam", value: true })).toEqual(["b"]);
      expect(await titles({ op: "eq", path: "is_spam", value: false })).toEqual(["a", "c"]);
      // `ne` includes the records without the field.
      expect(await titles({ op: "ne", path: "is_spam", value: false })).toEqual(["b", "d", "e", "f"]);
      expect(await titles({ op: "in", path: "priority", values: [1, 9, "10"] })).toEqual(["a", "c", "e"]);
      expect(await titles({ op: "in", path: "stage.name", values: ["done", true] })).toEqual(["c", "d"]);
    });

    it("matches array elements with any", async () => {
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: ["u2"] })).toEqual(["a", "b"]);
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: ["u1", "u3"] })).toEqual([
        "a",
        "d",
      ]);
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: [5] })).toEqual(["f"]);
      expect(await titles({ op: "any", path: "owned_by", values: ["u1"] })).toEqual(["f"]);
      expect(await titles({ op: "any", path: "labels", values: ["y"] })).toEqual(["a", "b"]);
      expect(await titles({ op: "any", path: "labels", values: [7] })).toEqual(["c"]);
      expect(await titles({ op: "any", path: "labels", values: ["7"] })).toEqual([]);
      expect(await titles({ op: "any", path: "labels", values: [] })).toEqual([]);
      expect(await titles({ op: "any", path: "missing.path", values: ["x"] })).toEqual([]);
    });

    it("tests presence with exists", async () => {
      expect(await titles({ op: "exists", path: "custom_fields", exists: true })).toEqual(["a", "d"]);
      expect(await titles({ op: "exists", path: "custom_fields.tnt__priority", exists: true })).toEqual([
        "a",
      ]);
      // JSON null counts as absent.
      expect(await titles({ op: "exists", path: "priority", exists: true })).toEqual([
        "a",
        "b",
        "c",
        "d",
        "e",
      ]);
      expect(await titles({ op: "exists", path: "labels", exists: false })).toEqual(["d", "f"]);
    });

    it("combines with and, or, not", async () => {
      const triage: Filter = { op: "eq", path: "stage.name", value: "triage" };
      const feature: Filter = { op: "eq", path: "subtype", value: "feature" };
      const high: Filter = { op: "gte", path: "priority", value: 2 };
      expect(await titles({ op: "and", filters: [triage, high] })).toEqual(["b"]);
      expect(await titles({ op: "or", filters: [triage, feature] })).toEqual(["a", "b", "c", "d"]);
      expect(await titles({ op: "not", filter: triage })).toEqual(["c", "d", "e", "f"]);
      expect(await titles({ op: "not", filter: { op: "or", filters: [triage, feature] } })).toEqual([
        "e",
        "f",
      ]);
      expect(
        await titles({
          op: "and",
          filters: [
            { op: "or", filters: [triage, feature] },
            { op: "not", filter: high },
          ],
        }),
      ).toEqual(["a"]);
      expect(await titles({ op: "and", filters: [] })).toHaveLength(6);
      expect(await titles({ op: "or", filters: [] })).toEqual([]);
    });

    it("refuses paths that are not plain dotted names", async () => {
      for (const path of ["a'b", "a..b", "", "a.b)--", "$.a", "a[0]", "data->>'x'"]) {
        await expect(titles({ op: "eq", path, value: "x" })).rejects.toThrow(/Invalid field path/);
      }
      await expect(titles({ op: "any", path: "owned_by", key: "id'--", values: ["x"] })).rejects.toThrow(
        /Invalid field path/,
      );
    });

    it("treats values as data, never as SQL", async () => {
      expect(await titles({ op: "eq", path: "stage.name", value: "x' or '1'='1" })).toEqual([]);
      expect(await titles({ op: "in", path: "subtype", values: ["bug') or ('1'='1"] })).toEqual([]);
    });
  });
});
