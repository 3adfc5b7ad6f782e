// surveys.create / list through real HTTP: the survey bounds, the custom-schema rule, list filters and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("surveys on %s", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("surveys", () => {
    const field = { name: "score", field_type: "int", is_required: true, ui: { display_name: "Score" } };

    describe("surveys.create", () => {
      it("creates a survey with its texts and schemas", async () => {
        const body = {
          name: "After-support survey",
          title: "How did we do?",
          description: "Asked when a conversation closes.",
          header: "Your opinion counts",
          introductory_text: "Two questions.",
          response_text: "Thank you!",
          schema: [field],
          schema_with_metadata: [
            { field, question: "How likely are you to recommend us?", metadata: { scale: 10 } },
          ],
        };
        const res = await server.post("/surveys.create", body);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.survey).toMatchObject({ ...body, object_version: 1 });
        expect(res.body.survey.display_id).toMatch(/^SURVEY-\d+$/);
      });

      it.each([
        [{ name: "" }, "name"],
        [{ name: "n".repeat(101) }, "name"],
        [{ name: "ok", description: "d".repeat(1001) }, "description"],
        [{ name: "ok", header: "h".repeat(1001) }, "header"],
        [{ name: "ok", introductory_text: "i".repeat(1001) }, "introductory_text"],
        [{ name: "ok", response_text: "r".repeat(1001) }, "response_text"],
        [{ name: "ok", title: "t".repeat(1001) }, "title"],
      ])("refuses %# beyond the bounds, naming %s", async (body, name) => {
        const res = await server.post("/surveys.create", body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: name });
      });

      it("accepts the bounds themselves", async () => {
        const res = await server.post("/surveys.create", {
          name: "n".repeat(100),
          description: "d".repeat(1000),
          title: "t".repeat(1000),
        });
        expect(res.status).toBe(201);
      });

      it("refuses custom fields without their schema", async () => {
        const res = await server.post("/surveys.create", {
          name: "Custom",
          custom_fields: { tnt__team: "emea" },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          type: "customization_validation_error",
          field_name: "custom_fields.tnt__team",
        });
        const ok = await server.post("/surveys.create", {
          name: "Custom ok",
          custom_fields: { tnt__team: "emea" },
          custom_schema_spec: { tenant_fragment: true },
        });
        expect(ok.status).toBe(201);
        expect(ok.body.survey).toMatchObject({
          custom_fields: { tnt__team: "emea" },
          custom_schema_fragments: ["tenant_fragment:survey"],
        });
      });
    });

    describe("surveys.list", () => {
      it("lists surveys by name and creator", async () => {
        const user = await server.store.createDevUser(server.org, { email: "q@example.com", full_name: "Q" });
        await server.post(
          "/surveys.create",
          { name: "By Q" },
          await server.token(["survey:write"], { user }),
        );
        const byName = await server.call("GET", "/surveys.list?name=By Q");
        expect(byName.body.surveys.map((s: { name: string }) => s.name)).toEqual(["By Q"]);
        const byCreator = await server.post("/surveys.list", { created_by: [user.display_id] });
        expect(byCreator.body.surveys.map((s: { name: string }) => s.name)).toEqual(["By Q"]);
        const sorted = await server.post("/surveys.list", { sort_by: ["name:desc"], limit: 1 });
        expect(sorted.body.surveys[0].name).toBe("n".repeat(100));
        expect(sorted.body.next_cursor).toEqual(expect.any(String));
      });
    });

    it("needs the survey scopes", async () => {
      for (const scope of ["survey:write", "survey:all"]) {
        expect(
          (await server.post("/surveys.create", { name: scope }, await server.token([scope]))).status,
        ).toBe(201);
      }
      const readOnly = await server.token(["survey:read"]);
      expect((await server.post("/surveys.create", { name: "no" }, readOnly)).status).toBe(403);
      expect((await server.post("/surveys.list", {}, readOnly)).status).toBe(200);
      expect((await server.post("/surveys.list", {}, await server.token(["tag:read"]))).status).toBe(403);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
