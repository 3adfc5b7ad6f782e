// Parts of the product hierarchy through real HTTP: create with the hierarchy rules, get, list with every
// filter and the type scopes, delete, on every database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";
import { changeEvents, createPart, createUser, ok, tag } from "../record-builders.js";

describe.each(databases)("parts on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("parts.create", () => {
    it("creates a product, and parts under it following the hierarchy", async () => {
      const res = await server.call("POST", "/parts.create", {
        body: {
          type: "product",
          name: "Billing suite",
          owned_by: [server.admin.display_id],
          description: "All of billing",
        },
      });
      expect(res.status).toBe(201);
      const product = res.body.part;
      expect(product).toMatchObject({
        type: "product",
        name: "Billing suite",
        description: "All of billing",
        parent_part: [],
        artifacts: [],
        tags: [],
        object_version: 1,
        owned_by: [{ id: server.admin.id, display_id: server.admin.display_id }],
      });
      expect(product.display_id).toMatch(/^PROD-\d+$/);
      expect(product.id).toMatch(/:product\/\d+$/);

      const capability = await createPart(server, "capability", "Invoicing", product.id);
      expect(capability.display_id).toMatch(/^CAPL-\d+$/);
      const feature = await createPart(server, "feature", "Invoice export", capability.display_id);
      expect(feature).toMatchObject({
        type: "feature",
        parent_part: [
          { type: "capability", id: capability.id, display_id: capability.display_id, name: "Invoicing" },
        ],
      });
      expect(feature.display_id).toMatch(/^FEAT-\d+$/);
      const subFeature = await createPart(server, "feature", "PDF export", feature.id);
      expect(subFeature.display_id).toMatch(/^FEAT-\d+$/);
      for (const parent of [product, capability, feature]) {
        const enhancement = await createPart(server, "enhancement", `Faster ${parent.name}`, parent.id);
        expect(enhancement.display_id).toMatch(/^ENH-\d+$/);
      }
      const events = await changeEvents(server, feature.id);
      expect(events.map((event) => event.event?.type)).toEqual(["created"]);
    });

    it("carries tags and owners", async () => {
      const owner = await createUser(server, "Grace Hopper");
      const label = await tag(server, "billing");
      const part = await createPart(server, "product", "Tagged product", undefined, {
        owned_by: [owner.display_id, server.admin.id],
        tags: [{ id: label.display_id }],
      });
      expect(part).toMatchObject({
        owned_by: [{ id: owner.id }, { id: server.admin.id }],
        tags: [{ tag: { id: label.id, name: "billing" } }],
      });
    });

    it("refuses parents that break the hierarchy, naming parent_part", async () => {
      const product = await createPart(server, "product", "Hierarchy product");
      const capability = await createPart(server, "capability", "Hierarchy capability", product.id);
      const feature = await createPart(server, "feature", "Hierarchy feature", capability.id);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ type: "product", parent_part: [product.id] }, "value_not_permitted", "parent_part"],
        [{ type: "capability", parent_part: [feature.id] }, "value_not_permitted", "parent_part"],
        [{ type: "capability", parent_part: [capability.id] }, "value_not_permitted", "parent_part"],
        [{ type: "feature", parent_part: [product.id] }, "value_not_permitted", "parent_part"],
        [{ type: "capability" }, "missing_required_field", "parent_part"],
        [{ type: "feature", parent_part: [] }, "value_not_permitted", "parent_part"],
        [
          { type: "enhancement", parent_part: [product.id, feature.id] },
          "value_not_permitted",
          "parent_part",
        ],
        [{ type: "enhancement", parent_part: ["FEAT-99999"] }, "invalid_id", "parent_part.0"],
      ];
      for (const [fields, type, field] of cases) {
        const res = await server.call("POST", "/parts.create", {
          body: { name: "Bad part", owned_by: [server.admin.id], ...fields },
        });
        expect(res.status, JSON.stringify(fields)).toBe(400);
        expect(res.body, JSON.stringify(fields)).toMatchObject({ type, field_name: field });
      }
      const wrong = await server.call("POST", "/parts.create", {
        body: { type: "capability", name: "Bad", owned_by: [server.admin.id], parent_part: [feature.id] },
      });
      expect(wrong.body.allowed_values).toEqual(["product"]);
      expect(wrong.body.reason).toContain("product");
    });

    it("refuses a parent that is not a part, and unknown users and tags", async () => {
      const product = await createPart(server, "product", "Refs product");
      const work = await ok(server, "/works.create", {
        type: "issue",
        title: "Not a part",
        applies_to_part: product.id,
        owned_by: [server.admin.id],
      });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: "enhancement", parent_part: [work.work.id] }, "parent_part.0"],
        [{ type: "product", owned_by: ["DEVU-99999"] }, "owned_by.0"],
        [{ type: "product", tags: [{ id: "TAG-99999" }] }, "tags.0.id"],
        [{ type: "product", artifacts: ["ARTIFACT-99999"] }, "artifacts.0"],
      ];
      for (const [fields, field] of cases) {
        const res = await server.call("POST", "/parts.create", {
          body: { name: "Bad refs", owned_by: [server.admin.id], ...fields },
        });
        expect(res.status, field).toBe(400);
        expect(res.body).toMatchObject({ type: "invalid_id", field_name: field });
      }
    });

    it("needs the write or all scope of the part's type", async () => {
      const product = await createPart(server, "product", "Scoped product");
      const productWriter = await server.token(["product:write"]);
      const made = await server.call("POST", "/parts.create", {
        token: productWriter,
        body: { type: "product", name: "By a writer", owned_by: [server.admin.id] },
      });
      expect(made.status).toBe(201);
      const denied = await server.call("POST", "/parts.create", {
        token: productWriter,
        body: { type: "capability", name: "Denied", owned_by: [server.admin.id], parent_part: [product.id] },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.type).toBe("forbidden");
      expect(denied.body.detail).toContain("capability:write");
      const all = await server.call("POST", "/parts.create", {
        token: await server.token(["capability:all"]),
        body: { type: "capability", name: "Allowed", owned_by: [server.admin.id], parent_part: [product.id] },
      });
      expect(all.status).toBe(201);
      const reader = await server.call("POST", "/parts.create", {
        token: await server.token(["product:read"]),
        body: { type: "product", name: "Reader", owned_by: [server.admin.id] },
      });
      expect(reader.status).toBe(403);
    });
  });

  describe("parts.get", () => {
    it("gets a part by id or display id with both methods, scoped by its type", async () => {
      const product = await createPart(server, "product", "Get product");
      const feature = await createPart(
        server,
        "feature",
        "Get feature",
        (await createPart(server, "capability", "Get capability", product.id)).id,
      );
      const byGet = await server.call("GET", `/parts.get?id=${encodeURIComponent(feature.id)}`);
      expect(byGet.status).toBe(200);
      expect(byGet.body.part).toMatchObject({ id: feature.id, name: "Get feature", type: "feature" });
      const byPost = await server.call("POST", "/parts.get", { body: { id: feature.display_id } });
      expect(byPost.body).toEqual(byGet.body);

      const missing = await server.call("POST", "/parts.get", { body: { id: "FEAT-99999" } });
      expect(missing.status).toBe(404);
      expect(missing.body.type).toBe("not_found");

      const featureReader = await server.token(["feature:read"]);
      const read = await server.call("POST", "/parts.get", {
        token: featureReader,
        body: { id: feature.id },
      });
      expect(read.status).toBe(200);
      const denied = await server.call("POST", "/parts.get", {
        token: featureReader,
        body: { id: product.id },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [product.id] });
    });

    it("does not find another organization's parts", async () => {
      const product = await createPart(server, "product", "Private product");
      const other = await server.otherOrg();
      const res = await server.call("POST", "/parts.get", { token: other.token, body: { id: product.id } });
      expect(res.status).toBe(404);
    });
  });

  describe("parts.list", () => {
    let ids: Record<string, string>;
    let owner: { id: string; display_id: string };
    let label: { id: string; display_id: string };
    let listServer: TestServer;

    beforeAll(async () => {
      // A fresh organization's known hierarchy.
      listServer = await startTestServer(database);
      owner = await createUser(listServer, "List Owner");
      label = await tag(listServer, "listed");
      const product = await createPart(listServer, "product", "Alpha");
      const capability = await createPart(listServer, "capability", "Beta", product.id, {
        owned_by: [owner.id],
      });
      const feature = await createPart(listServer, "feature", "Gamma", capability.id, {
        tags: [{ id: label.id }],
      });
      const enhancement = await createPart(listServer, "enhancement", "Delta", capability.id);
      ids = {
        product: product.id,
        capability: capability.id,
        feature: feature.id,
        enhancement: enhancement.id,
      };
    });
    afterAll(async () => {
      expect(listServer.app.violations).toEqual([]);
      await listServer.close();
    });

    const names = async (body: Record<string, unknown>, token?: string) => {
      const res = await listServer.call("POST", "/parts.list", { body, ...(token ? { token } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.parts as Array<{ name: string }>).map((part) => part.name).sort();
    };

    it("lists every part, and narrows by each filter", async () => {
      expect(await names({})).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
      expect(await names({ type: ["feature", "product"] })).toEqual(["Alpha", "Gamma"]);
      expect(await names({ name: ["Beta", "Nothing"] })).toEqual(["Beta"]);
      expect(await names({ owned_by: [owner.display_id] })).toEqual(["Beta"]);
      expect(await names({ parent_part: { parts: [ids.capability as string] } })).toEqual(["Delta", "Gamma"]);
      expect(await names({ tags: [label.id] })).toEqual(["Gamma"]);
      expect(await names({ created_by: [listServer.admin.id] })).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
      expect(await names({ created_by: ["DEVU-99999"] })).toEqual([]);
    });

    it("takes the GET form with dotted parent_part.parts", async () => {
      const res = await listServer.call(
        "GET",
        `/parts.list?parent_part.parts=${encodeURIComponent(ids.capability as string)}&type=feature`,
      );
      expect(res.status).toBe(200);
      expect(res.body.parts.map((part: { name: string }) => part.name)).toEqual(["Gamma"]);
    });

    it("sorts and pages", async () => {
      const sorted = await listServer.call("POST", "/parts.list", { body: { sort_by: ["name:desc"] } });
      expect(sorted.body.parts.map((part: { name: string }) => part.name)).toEqual([
        "Gamma",
        "Delta",
        "Beta",
        "Alpha",
      ]);
      const first = await listServer.call("POST", "/parts.list", {
        body: { limit: 3, sort_by: ["name:asc"] },
      });
      expect(first.body.parts).toHaveLength(3);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await listServer.call("POST", "/parts.list", {
        body: { limit: 3, sort_by: ["name:asc"], cursor: first.body.next_cursor },
      });
      expect(second.body.parts.map((part: { name: string }) => part.name)).toEqual(["Gamma"]);
      expect(second.body.next_cursor).toBeUndefined();
      const bad = await listServer.call("POST", "/parts.list", { body: { sort_by: ["colour:asc"] } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ type: "value_not_permitted", field_name: "sort_by.0" });
    });

    it("shows only the types the token may read, and refuses types asked for without their scope", async () => {
      const productReader = await listServer.token(["product:read"]);
      expect(await names({}, productReader)).toEqual(["Alpha"]);
      expect(await names({ type: ["product"] }, productReader)).toEqual(["Alpha"]);
      const denied = await listServer.call("POST", "/parts.list", {
        token: productReader,
        body: { type: ["feature"] },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.type).toBe("forbidden");
      const two = await listServer.token(["feature:write", "enhancement:all"]);
      expect(await names({}, two)).toEqual(["Delta", "Gamma"]);
      const none = await listServer.call("POST", "/parts.list", {
        token: await listServer.token(["issue:read"]),
        body: {},
      });
      expect(none.status).toBe(403);
    });
  });

  describe("parts.delete", () => {
    it("deletes a part, after which every read of it is 404", async () => {
      const product = await createPart(server, "product", "Doomed product");
      const capability = await createPart(server, "capability", "Doomed capability", product.id);
      const refused = await server.call("POST", "/parts.delete", { body: { id: product.id } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ type: "value_not_permitted", field_name: "id" });
      expect(refused.body.reason).toContain("1 part has");

      const gone = await server.call("POST", "/parts.delete", { body: { id: capability.display_id } });
      expect(gone.status).toBe(200);
      expect(gone.body).toEqual({});
      expect((await server.call("POST", "/parts.get", { body: { id: capability.id } })).status).toBe(404);
      expect((await server.call("POST", "/parts.delete", { body: { id: capability.id } })).status).toBe(404);
      const listed = await server.call("POST", "/parts.list", { body: { name: ["Doomed capability"] } });
      expect(listed.body.parts).toEqual([]);
      expect((await changeEvents(server, capability.id)).map((event) => event.event?.type)).toEqual([
        "created",
        "deleted",
      ]);

      expect((await server.call("POST", "/parts.delete", { body: { id: product.id } })).status).toBe(200);
      expect((await server.call("GET", `/parts.get?id=${product.display_id}`)).status).toBe(404);
    });

    it("answers 404 for an unknown part", async () => {
      const res = await server.call("POST", "/parts.delete", { body: { id: "PROD-99999" } });
      expect(res.status).toBe(404);
      expect(res.body.type).toBe("not_found");
    });

    it("needs the all scope of the part's type", async () => {
      const product = await createPart(server, "product", "Scoped delete");
      const writer = await server.call("POST", "/parts.delete", {
        token: await server.token(["product:write", "feature:all"]),
        body: { id: product.id },
      });
      expect(writer.status).toBe(403);
      expect(writer.body).toMatchObject({ type: "forbidden", object_ids: [product.id] });
      const all = await server.call("POST", "/parts.delete", {
        token: await server.token(["product:all"]),
        body: { id: product.id },
      });
      expect(all.status).toBe(200);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
