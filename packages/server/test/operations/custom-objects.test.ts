// Custom objects through real HTTP: creation (unique keys, custom-field schemas, stages), and the prefix
// filter language of custom-objects.count and custom-objects.list over GET and POST: each operator, nesting,
// several expressions, and the typed errors of malformed ones, on every database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

type Expr = unknown[];
const P = "$custom_fields.tnt__priority";
const BUDGET = "$custom_fields.tnt__budget";
const LAUNCH = "$custom_fields.tnt__launch";
const ACTIVE = "$custom_fields.tnt__active";
const spec = { tenant_fragment: true };

describe.each(databases)("custom objects on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
    const make = async (body: Record<string, unknown>) => {
      const res = await server.call("POST", "/custom-objects.create", {
        body: { custom_schema_spec: spec, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await make({
      leaf_type: "campaign",
      title: "Spring",
      unique_key: "K1",
      custom_fields: {
        tnt__priority: "high",
        tnt__budget: 5000,
        tnt__launch: "2026-03-01",
        tnt__active: true,
      },
    });
    await make({
      leaf_type: "campaign",
      title: "Summer",
      unique_key: "K2",
      custom_fields: {
        tnt__priority: "low",
        tnt__budget: 20000,
        tnt__launch: "2026-06-01",
        tnt__active: false,
      },
    });
    await make({
      leaf_type: "campaign",
      title: "Autumn",
      unique_key: "K3",
      custom_fields: { tnt__priority: "high", tnt__budget: 100, tnt__active: true },
    });
    await make({ leaf_type: "campaign", title: "Winter", custom_fields: { tnt__priority: "medium" } });
    await make({
      leaf_type: "coupon",
      title: "Coupon",
      unique_key: "K1",
      custom_fields: { tnt__priority: "high" },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const countPost = async (filters: Expr[], leafType = "campaign") => {
    const res = await server.call("POST", "/custom-objects.count", {
      body: { leaf_type: leafType, filters },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.count as number;
  };
  const countGet = async (filters: Expr[]) => {
    const query = filters.map((f) => `filters=${encodeURIComponent(JSON.stringify(f))}`).join("&");
    const res = await server.call("GET", `/custom-objects.count?leaf_type=campaign&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.count as number;
  };
  const titlesPost = async (filter: unknown) => {
    const res = await server.call("POST", "/custom-objects.list", {
      body: { leaf_type: "campaign", filter, sort_by: ["title:asc"] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.result as Array<{ title: string }>).map((o) => o.title);
  };
  const titlesGet = async (filters: Expr[]) => {
    const query = filters.map((f) => `filter=${encodeURIComponent(JSON.stringify(f))}`).join("&");
    const res = await server.call(
      "GET",
      `/custom-objects.list?leaf_type=campaign&sort_by=title:asc&${query}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.result as Array<{ title: string }>).map((o) => o.title);
  };

  describe("custom-objects.create", () => {
    it("creates an object with its custom fields, schema fragments and stage", async () => {
      const stage = await server.call("POST", "/stages.custom.create", {
        body: { name: "planned", ordinal: 1, state: "STATE-1" },
      });
      expect(stage.status).toBe(201);
      const res = await server.call("POST", "/custom-objects.create", {
        body: {
          leaf_type: "launch",
          title: "Product launch",
          unique_key: "L-1",
          custom_fields: { tnt__owner: "ada" },
          custom_schema_spec: { tenant_fragment: true, validate_required_fields: true },
          stage: { name: "planned" },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.custom_object).toMatchObject({
        leaf_type: "launch",
        title: "Product launch",
        unique_key: "L-1",
        custom_fields: { tnt__owner: "ada" },
        custom_schema_fragments: ["tenant_fragment:launch"],
        stage: { name: "planned", stage: { id: stage.body.custom_stage.id, name: "planned" } },
        object_version: 1,
        created_by: { id: server.admin.id },
      });
      expect(res.body.custom_object.display_id).toMatch(/^CO-\d+$/);
      const bare = await server.call("POST", "/custom-objects.create", { body: { leaf_type: "launch" } });
      expect(bare.status).toBe(201);
      expect(bare.body.custom_object).not.toHaveProperty("stage");
      expect(bare.body.custom_object).not.toHaveProperty("custom_schema_fragments");
    });

    it("answers 409 for a unique_key already used in the leaf type, not across leaf types", async () => {
      const res = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "campaign", title: "Again", unique_key: "K2" },
      });
      expect(res.status).toBe(409);
      expect(res.body.type).toBe("conflict");
      expect(res.body.detail).toContain("K2");
      const elsewhere = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "voucher", unique_key: "K2" },
      });
      expect(elsewhere.status).toBe(201);
      expect(await countPost([])).toBe(4);
    });

    it("refuses custom fields without their schema, and a missing leaf type", async () => {
      const res = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "campaign", custom_fields: { tnt__priority: "high" } },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "customization_validation_error",
        field_name: "custom_fields.tnt__priority",
      });
      const missing = await server.call("POST", "/custom-objects.create", { body: { title: "No type" } });
      expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "leaf_type" });
    });

    it("follows the leaf type's stage diagram: its start stage by default, only its open stages", async () => {
      const stage = async (name: string) =>
        (await server.call("POST", "/stages.custom.create", { body: { name, ordinal: 1, state: "STATE-1" } }))
          .body.custom_stage as { id: string };
      const draft = await stage("deal-draft");
      const won = await stage("deal-won");
      const elsewhere = await stage("deal-elsewhere");
      const diagram = await server.call("POST", "/stage-diagrams.create", {
        body: {
          leaf_type: "deal",
          name: "Deal flow",
          is_custom_leaf_type: true,
          stages: [
            { stage_id: draft.id, is_start: true, transitions: [{ target_stage_id: won.id }] },
            { stage_id: won.id },
          ],
        },
      });
      expect(diagram.status).toBe(201);
      const started = await server.call("POST", "/custom-objects.create", { body: { leaf_type: "deal" } });
      expect(started.body.custom_object.stage).toMatchObject({ name: "deal-draft" });
      const chosen = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "deal", stage: { id: won.id } },
      });
      expect(chosen.body.custom_object.stage).toMatchObject({ name: "deal-won" });
      const outside = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "deal", stage: { id: elsewhere.id } },
      });
      expect(outside.status).toBe(400);
      expect(outside.body).toMatchObject({ type: "value_not_permitted", field_name: "stage" });
      const unknown = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "deal", stage: { name: "no-such-stage" } },
      });
      expect(unknown.body).toMatchObject({ type: "invalid_field", field_name: "stage.name" });
      const unknownId = await server.call("POST", "/custom-objects.create", {
        body: { leaf_type: "deal", stage: { id: "STAGE-99999" } },
      });
      expect(unknownId.body).toMatchObject({ type: "invalid_id", field_name: "stage.id" });
    });
  });

  describe("the filter language", () => {
    it.each<[string, Expr[], number]>([
      ["no filter", [], 4],
      ["eq", [["eq", P, "high"]], 2],
      ["ne (a missing field is not equal)", [["ne", BUDGET, 5000]], 3],
      ["in with a list", [["in", P, ["low", "medium"]]], 2],
      ["in with spread values", [["in", P, "low", "medium", "nothing"]], 2],
      ["gt on numbers", [["gt", BUDGET, 5000]], 1],
      ["gte on numbers", [["gte", BUDGET, 5000]], 2],
      ["lt on numbers", [["lt", BUDGET, 5000]], 1],
      ["lte on numbers", [["lte", BUDGET, 5000]], 2],
      ["gt on a date field", [["gt", LAUNCH, "2026-04-01"]], 1],
      ["exists", [["exists", LAUNCH]], 2],
      ["not exists", [["not", ["exists", BUDGET]]], 1],
      ["eq on a boolean", [["eq", ACTIVE, true]], 2],
      ["and", [["and", ["eq", P, "high"], ["gt", BUDGET, 1000]]], 1],
      ["or", [["or", ["eq", P, "low"], ["lt", BUDGET, 1000]]], 2],
      [
        "nesting",
        [["and", ["or", ["eq", P, "high"], ["eq", P, "low"]], ["not", ["eq", "$title", "Spring"]]]],
        2,
      ],
      [
        "several expressions, all of which must match",
        [
          ["eq", P, "high"],
          ["gt", BUDGET, 1000],
        ],
        1,
      ],
      ["title and unique_key", [["or", ["eq", "$title", "Winter"], ["eq", "$unique_key", "K2"]]], 2],
      ["created_date", [["gte", "$created_date", "2000-01-01T00:00:00Z"]], 4],
      ["created_date in the future", [["gt", "$created_date", "2999-01-01"]], 0],
      ["leaf_type scopes the count", [["eq", "$leaf_type", "coupon"]], 0],
      ["display_id", [["exists", "$display_id"]], 4],
    ])("counts with %s, through POST and GET", async (_name, filters, expected) => {
      expect(await countPost(filters)).toBe(expected);
      expect(await countGet(filters)).toBe(expected);
    });

    describe("custom-objects.count", () => {
      it("counts per leaf type", async () => {
        expect(await countPost([["eq", P, "high"]], "coupon")).toBe(1);
        expect(await countPost([], "nothing-of-this-type")).toBe(0);
      });
    });

    describe("custom-objects.list", () => {
      it("takes on GET one value holding the whole array of expressions", async () => {
        const all = JSON.stringify([
          ["eq", P, "high"],
          ["gt", BUDGET, 1000],
        ]);
        const res = await server.call(
          "GET",
          `/custom-objects.count?leaf_type=campaign&filters=${encodeURIComponent(all)}`,
        );
        expect(res.body.count).toBe(1);
        const list = await server.call(
          "GET",
          `/custom-objects.list?leaf_type=campaign&filter=${encodeURIComponent(all)}`,
        );
        expect(list.body.result.map((o: { title: string }) => o.title)).toEqual(["Spring"]);
      });

      it("lists with one expression or an array of them (POST) and repeated keys (GET)", async () => {
        expect(await titlesPost(["eq", P, "high"])).toEqual(["Autumn", "Spring"]);
        expect(
          await titlesPost([
            ["eq", P, "high"],
            ["lt", BUDGET, 1000],
          ]),
        ).toEqual(["Autumn"]);
        expect(await titlesPost(["or", ["exists", LAUNCH], ["eq", "$title", "Winter"]])).toEqual([
          "Spring",
          "Summer",
          "Winter",
        ]);
        expect(await titlesGet([["ne", P, "high"]])).toEqual(["Summer", "Winter"]);
        expect(
          await titlesGet([
            ["in", P, ["high", "low"]],
            ["eq", ACTIVE, true],
          ]),
        ).toEqual(["Autumn", "Spring"]);
        expect(await titlesGet([])).toEqual(["Autumn", "Spring", "Summer", "Winter"]);
      });

      it("pages and sorts lists within the leaf type", async () => {
        const first = await server.call("POST", "/custom-objects.list", {
          body: { leaf_type: "campaign", limit: 3, sort_by: ["title:desc"] },
        });
        expect(first.body.result.map((o: { title: string }) => o.title)).toEqual([
          "Winter",
          "Summer",
          "Spring",
        ]);
        expect(first.body.result.every((o: { leaf_type: string }) => o.leaf_type === "campaign")).toBe(true);
        const next = await server.call("POST", "/custom-objects.list", {
          body: { leaf_type: "campaign", limit: 3, sort_by: ["title:desc"], cursor: first.body.next_cursor },
        });
        expect(next.body.result.map((o: { title: string }) => o.title)).toEqual(["Autumn"]);
        const byKey = await server.call(
          "GET",
          "/custom-objects.list?leaf_type=campaign&sort_by=unique_key:desc",
        );
        expect(byKey.body.result.map((o: { title: string }) => o.title)).toEqual([
          "Autumn",
          "Summer",
          "Spring",
          "Winter",
        ]);
      });

      it.each<[string, Expr, string]>([
        ["an unknown operator", ["like", P, "h%"], "unknown operator"],
        ["eq without a value", ["eq", "$title"], "'eq' expects a field and one value"],
        ["eq with two values", ["eq", "$title", "a", "b"], "'eq' expects a field and one value"],
        [
          "not with two expressions",
          ["not", ["exists", "$title"], ["exists", "$title"]],
          "exactly one expression",
        ],
        ["and without expressions", ["and"], "at least one expression"],
        ["exists without a field", ["exists"], "'exists' expects exactly one field"],
        ["in without values", ["in", P], "'in' expects a field and its values"],
        ["in with an empty list", ["in", P, []], "at least one value"],
        ["a field without $", ["eq", "title", "Spring"], "starting with '$'"],
        ["an unknown field", ["eq", "$colour", "red"], "unknown field"],
        ["a malformed custom field", ["eq", "$custom_fields.", "x"], "unknown field"],
        ["gt on a text field", ["gt", "$title", "M"], "compares numbers or dates"],
        ["gt with a word", ["gt", BUDGET, "lots"], "compares numbers or dates"],
        ["a null value", ["eq", P, null], "exists"],
        ["an object value", ["eq", P, { value: "high" }], "string, number or boolean"],
        ["a number for a text field", ["eq", "$title", 3], "expected a string"],
        ["a word for a date field", ["gt", "$created_date", "yesterday"], "expected a date"],
        ["a nested error", ["and", ["eq", P, "high"], ["or", ["eq", P]]], "at [2][1]"],
        ["an operand that is not an expression", ["and", "x"], "expected an expression"],
        ["a nested operator that is not a string", ["not", [3, P, "x"]], "unknown operator 3"],
      ])(
        "refuses %s naming filters.N, on count and list, through POST and GET",
        async (_name, expr, message) => {
          const checks = [
            server.call("POST", "/custom-objects.count", {
              body: { leaf_type: "campaign", filters: [["exists", P], expr] },
            }),
            server.call(
              "GET",
              `/custom-objects.count?leaf_type=campaign&filters=${encodeURIComponent(JSON.stringify(["exists", P]))}&filters=${encodeURIComponent(JSON.stringify(expr))}`,
            ),
            server.call("POST", "/custom-objects.list", {
              body: { leaf_type: "campaign", filter: [["exists", P], expr] },
            }),
            server.call(
              "GET",
              `/custom-objects.list?leaf_type=campaign&filter=${encodeURIComponent(JSON.stringify(["exists", P]))}&filter=${encodeURIComponent(JSON.stringify(expr))}`,
            ),
          ];
          const fields = ["filters.1", "filters.1", "filter.1", "filter.1"];
          for (const [index, pending] of checks.entries()) {
            const res = await pending;
            expect(res.status, `${index}: ${JSON.stringify(res.body)}`).toBe(400);
            expect(res.body).toMatchObject({ type: "invalid_field", field_name: fields[index] });
            expect(res.body.detail).toContain(message);
          }
        },
      );

      it("names `filter` for a single malformed expression in a list body", async () => {
        const res = await server.call("POST", "/custom-objects.list", {
          body: { leaf_type: "campaign", filter: ["eq", "$title"] },
        });
        expect(res.body).toMatchObject({ type: "invalid_field", field_name: "filter" });
      });

      it("refuses GET filters that are broken JSON or malformed tokens, and POST filters that are not expressions", async () => {
        const res = await server.call(
          "GET",
          `/custom-objects.count?leaf_type=campaign&filters=${encodeURIComponent('["eq",')}`,
        );
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ type: "invalid_field", field_name: "filters" });
        expect(res.body.detail).toContain("not valid JSON");
        const list = await server.call("GET", "/custom-objects.list?leaf_type=campaign&filter=high");
        expect(list.body).toMatchObject({ type: "invalid_field", field_name: "filter" });
        expect(list.body.detail).toContain("unknown operator");
        const post = await server.call("POST", "/custom-objects.count", {
          body: { leaf_type: "campaign", filters: ["eq"] },
        });
        expect(post.status).toBe(400);
        expect(post.body).toMatchObject({ type: "invalid_field", field_name: "filters" });
        expect(post.body.detail).toContain("'eq' expects a field and one value");
        const notExpressions = await server.call("POST", "/custom-objects.count", {
          body: { leaf_type: "campaign", filters: [5] },
        });
        expect(notExpressions.status).toBe(400);
        expect(notExpressions.body.field_name).toBe("filters.0");
        const noLeaf = await server.call("GET", "/custom-objects.count");
        expect(noLeaf.body).toMatchObject({ type: "missing_required_field", field_name: "leaf_type" });
      });
    });
  });

  describe("scopes and tenancy", () => {
    it("needs custom_object scopes: read for count and list, write or all for create", async () => {
      for (const scope of ["custom_object:read", "custom_object:write", "custom_object:all"]) {
        const token = await server.token([scope]);
        expect(
          (await server.call("GET", "/custom-objects.count?leaf_type=campaign", { token })).body.count,
        ).toBe(4);
        expect(
          (await server.call("POST", "/custom-objects.list", { token, body: { leaf_type: "campaign" } }))
            .status,
        ).toBe(200);
      }
      const reader = await server.token(["custom_object:read"]);
      const refused = await server.call("POST", "/custom-objects.create", {
        token: reader,
        body: { leaf_type: "x" },
      });
      expect(refused.status).toBe(403);
      const none = await server.token(["vista:read"]);
      expect(
        (await server.call("GET", "/custom-objects.count?leaf_type=campaign", { token: none })).status,
      ).toBe(403);
      expect(
        (await server.call("GET", "/custom-objects.list?leaf_type=campaign", { token: none })).status,
      ).toBe(403);
      for (const scope of ["custom_object:write", "custom_object:all"]) {
        const res = await server.call("POST", "/custom-objects.create", {
          token: await server.token([scope]),
          body: { leaf_type: "scoped" },
        });
        expect(res.status).toBe(201);
      }
    });

    it("counts only the caller's organization", async () => {
      const other = await server.otherOrg();
      const res = await server.call("GET", "/custom-objects.count?leaf_type=campaign", {
        token: other.token,
      });
      expect(res.body.count).toBe(0);
      const same = await server.call("POST", "/custom-objects.create", {
        token: other.token,
        body: { leaf_type: "campaign", unique_key: "K1" },
      });
      expect(same.status).toBe(201);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
