// Compatibility with the platform the service stands in for: each of the interface's operations is called the
// way the platform's clients and contract write requests (the platform's field names, GET query arrays
// comma-separated, nested filters dotted, the platform's method where it publishes only one) against a seeded
// server. Every answer is checked three ways: its decoded body, the contract (validated here explicitly, as
// well as by the server in-process), and the shape the platform's clients decode (its required members,
// discriminators and union members, from the platform facts sheet).
//
// This file: customers, conversations, surveys, configuration and content.
import { describe, expect, it } from "vitest";
import { databases } from "../harness.js";
import { type Json, platformSession, query } from "./session.js";

describe.each(databases)(
  "the platform's requests on %s: customers, conversations, surveys, configuration, content",
  (database) => {
    const s = platformSession(database);
    const { call, ok } = s;

    describe("customers and conversations", () => {
      it("POST /rev-orgs.create answers primary_rev_org as a Rev organization of the account", async () => {
        const accounts = (await ok("POST", "/accounts.list", {})).accounts as Json[];
        const account = accounts[0] as Json;
        const main = ((await ok("POST", "/rev-orgs.list", {})).rev_orgs as Json[]).find(
          (r) => (r.account as Json).id === account.id,
        ) as Json;
        const body = await ok(
          "POST",
          "/rev-orgs.create",
          {
            account: account.id,
            display_name: "Branch office",
            environment: "staging",
            tier: "growth",
            external_ref: "branch-1",
          },
          201,
        );
        expect(body.rev_org).toMatchObject({
          display_name: "Branch office",
          external_ref: "branch-1",
          primary_rev_org: { type: "rev_org", id: main.id, display_id: main.display_id },
        });
        const twice = await call("POST", "/rev-orgs.create", {
          account: account.id,
          display_name: "Branch office again",
          external_ref: "branch-1",
        });
        expect(twice.status).toBe(409);
        expect(twice.body.type).toBe("conflict");
      });

      it("POST /rev-orgs.update changes the fields sent, merges custom_fields and keeps external_ref unique", async () => {
        const accounts = (await ok("POST", "/accounts.list", {})).accounts as Json[];
        const account = accounts[1] as Json;
        const created = (
          await ok(
            "POST",
            "/rev-orgs.create",
            {
              account: account.id,
              display_name: "Regional office",
              domain: "regional.example.org",
              custom_fields: { tnt__region: "emea", tnt__seats: 10 },
              custom_schema_fragments: ["tenant_fragment:rev_org"],
            },
            201,
          )
        ).rev_org as Json;
        const body = await ok("POST", "/rev-orgs.update", {
          id: created.id,
          display_name: "Regional office EMEA",
          custom_fields: { tnt__seats: 12 },
        });
        expect(body.rev_org).toMatchObject({
          id: created.id,
          display_name: "Regional office EMEA",
          domain: "regional.example.org",
          custom_fields: { tnt__region: "emea", tnt__seats: 12 },
        });
        const read = await ok("GET", `/rev-orgs.get?${query({ id: String(created.id) })}`);
        expect(read.rev_org).toEqual(body.rev_org);

        await ok("POST", "/rev-orgs.update", { id: created.id, external_ref: "regional-1" });
        const other = (
          await ok("POST", "/rev-orgs.create", { account: account.id, display_name: "Other office" }, 201)
        ).rev_org as Json;
        const taken = await call("POST", "/rev-orgs.update", { id: other.id, external_ref: "regional-1" });
        expect(taken.status).toBe(409);
        expect(taken.body).toMatchObject({ type: "conflict" });
        const unchanged = await ok("POST", "/rev-orgs.get", { id: other.id });
        expect((unchanged.rev_org as Json).external_ref).toBeUndefined();

        const missing = await call("POST", "/rev-orgs.update", { id: "REV-99999", tier: "gold" });
        expect(missing.status).toBe(404);
        expect(missing.body).toMatchObject({ type: "not_found" });
        const empty = await call("POST", "/rev-orgs.update", { id: created.id, display_name: "" });
        expect(empty.status).toBe(400);
      });

      it("GET /rev-orgs.list filters by account and GET /rev-orgs.get answers an account's default", async () => {
        const accounts = (await ok("POST", "/accounts.list", {})).accounts as Json[];
        const [first, second] = accounts as [Json, Json];
        const byGet = (await ok("GET", `/rev-orgs.list?${query({ account: [String(first.id)] })}`))
          .rev_orgs as Json[];
        expect(byGet.length).toBeGreaterThan(0);
        for (const revOrg of byGet) expect((revOrg.account as Json).id).toBe(first.id);
        const both = (await ok("POST", "/rev-orgs.list", { account: [first.id, second.id] }))
          .rev_orgs as Json[];
        expect(new Set(both.map((r) => (r.account as Json).id))).toEqual(new Set([first.id, second.id]));

        const main = byGet.toSorted((a, b) =>
          String(a.created_date).localeCompare(String(b.created_date)),
        )[0];
        const byAccount = await ok("GET", `/rev-orgs.get?${query({ account: String(first.id) })}`);
        expect((byAccount.rev_org as Json).id).toBe(main?.id);
        expect((byAccount.rev_org as Json).primary_rev_org).toMatchObject({ id: main?.id });
        const byDisplayId = await ok("POST", "/rev-orgs.get", { account: first.display_id });
        expect((byDisplayId.rev_org as Json).id).toBe(main?.id);

        const neither = await call("GET", "/rev-orgs.get");
        expect(neither.status).toBe(400);
        expect(neither.body).toMatchObject({ type: "missing_required_field", field_name: "id" });
        const unknown = await call("GET", `/rev-orgs.get?${query({ account: "ACC-99999" })}`);
        expect(unknown.status).toBe(404);
      });

      it("POST /conversations.create stores source_channel_v2 and the custom schema's apps and subtype", async () => {
        const stage = "triage";
        const body = await ok(
          "POST",
          "/conversations.create",
          {
            type: "support",
            title: "Refund request",
            source_channel: "email",
            source_channel_v2: "channel-7",
            custom_schema_spec: { apps: ["billing"], subtype: "refund" },
            members: [s.server.admin.id],
            messages: [{ body: `About ${s.works[0]?.display_id}.` }],
            stage: { name: stage },
            is_spam: false,
          },
          201,
        );
        const conversation = body.conversation as Json;
        expect(conversation).toMatchObject({
          source_channel_v2: { id: "channel-7" },
          subtype: "refund",
          custom_schema_fragments: [
            "custom_type_fragment:conversation:refund",
            "app_fragment:conversation:billing",
          ],
          members: [{ id: s.server.admin.id }],
          stage: { name: stage },
        });
        const [message] = conversation.messages as Json[];
        expect(message).toMatchObject({
          type: "timeline_comment",
          object: conversation.id,
          object_display_id: conversation.display_id,
          body_type: "text",
          references: [{ id: s.works[0]?.id, display_id: s.works[0]?.display_id, type: s.works[0]?.type }],
        });
      });

      it("GET /timeline-entries.get answers comments with body_type and references", async () => {
        const entries = (await ok("POST", "/timeline-entries.list", { object: s.works[1]?.id }))
          .timeline_entries as Json[];
        const comment = entries.find((entry) => entry.type === "timeline_comment") as Json;
        const body = await ok("GET", `/timeline-entries.get?${query({ id: String(comment.id) })}`);
        expect(body.timeline_entry).toMatchObject({
          type: "timeline_comment",
          id: comment.id,
          object: s.works[1]?.id,
          object_display_id: s.works[1]?.display_id,
          body_type: "text",
          references: [{ id: s.works[0]?.id, title: s.works[0]?.title }],
        });
      });
    });

    describe("surveys", () => {
      it("POST /surveys.create takes the platform's field descriptors and answers each with a field_type", async () => {
        const body = await ok(
          "POST",
          "/surveys.create",
          {
            name: "Release feedback",
            title: "How was the release?",
            schema: [
              {
                name: "score",
                is_required: true,
                is_overridable: false,
                is_sensitive: false,
                is_system: false,
                uenum_values: [
                  { id: 1, label: "Bad", ordinal: 1 },
                  { id: 2, label: "Good", ordinal: 2, tooltip: "It worked", is_deprecated: false },
                ],
              },
              { name: "hours", validation: { gte: 0, lte: 80 } },
              { name: "notes", validation: { max_len: 200, disabled: false } },
              { name: "links", validation: { max_items: 3, max_len: 100 } },
              { name: "anything" },
            ],
            schema_with_metadata: [
              {
                field: { field_type: "enum", name: "channel", allowed_values: ["email", "chat"] },
                question: "Where did you hear of it?",
                metadata: {},
              },
            ],
          },
          201,
        );
        const survey = body.survey as { schema: Json[]; schema_with_metadata: Json[] };
        expect(survey.schema.map((field) => [field.name, field.field_type, field.base_type])).toEqual([
          ["score", "uenum", undefined],
          ["hours", "int", undefined],
          ["notes", "text", undefined],
          ["links", "array", "text"],
          ["anything", "text", undefined],
        ]);
        expect(survey.schema[0]?.allowed_values).toEqual([
          { id: 1, label: "Bad", ordinal: 1 },
          { id: 2, label: "Good", ordinal: 2, tooltip: "It worked", is_deprecated: false },
        ]);
        expect(survey.schema_with_metadata[0]?.field).toMatchObject({
          field_type: "enum",
          allowed_values: ["email", "chat"],
        });
      });
    });

    describe("configuration", () => {
      it("GET /slas.list filters by comma-separated applies_to and status", async () => {
        const body = await ok(
          "GET",
          `/slas.list?${query({ applies_to: ["ticket", "conversation"], status: ["draft", "published"] })}`,
        );
        const slas = body.slas as Json[];
        expect(slas.map((sla) => sla.name).sort()).toEqual(["Premium support", "Standard support"]);
        for (const sla of slas)
          expect(sla).toMatchObject({
            id: expect.any(String),
            name: expect.any(String),
            status: expect.any(String),
          });
      });

      it("POST /slas.update stores issue_selector and ticket_source_channel", async () => {
        const { sla } = (
          await s.server.call("POST", "/slas.create", {
            body: { name: "Bug fixing", applies_to: ["issue", "ticket"] },
          })
        ).body;
        const part = ((await ok("POST", "/parts.list", { type: ["feature"] })).parts as Json[])[0] as Json;
        const policies = [
          {
            name: "Critical bugs",
            selector: {
              applies_to: "issue",
              priority: ["p0"],
              issue_selector: {
                owners: [s.server.admin.id],
                parts: [part.id],
                stage_name: ["triage"],
                subtype: ["defect"],
              },
            },
            metrics: [{ metric: "resolution_time", target: 480, performance: 95 }],
          },
          {
            name: "Mail tickets",
            selector: { applies_to: "ticket", severity: ["high"], ticket_source_channel: ["email"] },
            metrics: [{ metric: "first_response", target: 60 }],
          },
        ];
        const body = await ok("POST", "/slas.update", { id: sla.id, policies }, 201);
        expect((body.sla as Json).policies).toEqual(policies);
        const unknownOwner = await call("POST", "/slas.update", {
          id: sla.id,
          policies: [
            { ...policies[0], selector: { applies_to: "issue", issue_selector: { owners: ["DEVU-999"] } } },
          ],
        });
        expect(unknownOwner.status).toBe(400);
        expect(unknownOwner.body).toMatchObject({
          type: "invalid_id",
          field_name: "policies.0.selector.issue_selector.owners.0",
        });
      });

      it("POST /stage-diagrams.update stores each transition's ui", async () => {
        const diagrams = (await ok("POST", "/stage-diagrams.list", {})).result as Json[];
        const diagram = diagrams[0] as {
          id: string;
          stages: Array<{
            stage: { id: string };
            transitions: Array<{ target_stage: { id: string }; ui?: Json }>;
          }>;
        };
        // The seed hides the transitions that reopen closed work.
        expect(
          diagram.stages.flatMap((s) => s.transitions).filter((t) => t.ui?.is_hidden === true),
        ).toHaveLength(2);
        const [first, second] = diagram.stages;
        const body = await ok("POST", "/stage-diagrams.update", {
          id: diagram.id,
          stages: [
            {
              stage_id: first?.stage.id,
              is_start: true,
              transitions: [{ target_stage_id: second?.stage.id, ui: { is_hidden: true } }],
            },
            { stage_id: second?.stage.id, transitions: [{ target_stage_id: first?.stage.id }] },
          ],
        });
        const stages = (body.stage_diagram as typeof diagram).stages;
        expect(stages[0]?.transitions).toEqual([
          { target_stage: expect.objectContaining({ id: second?.stage.id }), ui: { is_hidden: true } },
        ]);
        expect(stages[1]?.transitions[0]).not.toHaveProperty("ui");
      });

      it("POST /org-schedules.list and /org-schedule-fragments.create answer with id and status", async () => {
        const list = await ok("POST", "/org-schedules.list", { status: ["draft"] });
        expect((list.org_schedules as Json[]).length).toBe(2);
        for (const schedule of list.org_schedules as Json[])
          expect(schedule).toMatchObject({ id: expect.any(String), status: "draft" });
        const body = await ok(
          "POST",
          "/org-schedule-fragments.create",
          {
            name: "Holidays 2028",
            from: "2028-01-01T00:00:00Z",
            to: "2029-01-01T00:00:00Z",
            region_codes: ["DE"],
            intervals: [{ name: "New Year's Day", from: "2028-01-01T00:00:00Z", is_excluded: true }],
          },
          201,
        );
        expect(body.org_schedule_fragment).toMatchObject({
          id: expect.any(String),
          status: "draft",
          region_codes: ["DE"],
        });
      });

      it("GET /stages.custom.get, /tags.list and /custom-objects.count answer the seeded records", async () => {
        const stages = (await ok("POST", "/stages.custom.list", {})).result as Json[];
        const stage = await ok("GET", `/stages.custom.get?${query({ id: String(stages[0]?.id) })}`);
        expect(stage.custom_stage).toMatchObject({
          id: stages[0]?.id,
          name: stages[0]?.name,
          state: { id: expect.any(String) },
        });
        const tags = await ok(
          "GET",
          `/tags.list?${query({ name: ["bug", "security"], mode: "after", limit: 10 })}`,
        );
        expect((tags.tags as Json[]).map((tag) => tag.name).sort()).toEqual(["bug", "security"]);
        const count = await ok("GET", `/custom-objects.count?${query({ leaf_type: "campaign" })}`);
        expect(count).toEqual({ count: 20 });
      });

      it("custom-objects.count and .list take the platform's filter: flat in a body, quoted or plain commas in a query", async () => {
        const all = (await ok("POST", "/custom-objects.list", { leaf_type: "campaign", limit: 100 }))
          .result as Json[];
        const high = all.filter((o) => (o.custom_fields as Json).tnt__priority === "high").length;
        const rich = all.filter((o) => Number((o.custom_fields as Json).tnt__budget) > 50000).length;
        expect(high).toBeGreaterThan(0);
        const flat = ["eq", "$custom_fields.tnt__priority", "high"];
        const counted = async (path: string, body?: unknown) =>
          (await ok(body === undefined ? "GET" : "POST", path, body)).count;

        expect(await counted("/custom-objects.count", { leaf_type: "campaign", filters: flat })).toBe(high);
        expect(await counted("/custom-objects.count", { leaf_type: "campaign", filters: [flat] })).toBe(high);
        const nested = ["and", flat, ["gt", "$custom_fields.tnt__budget", 50000]];
        const both = all.filter(
          (o) =>
            (o.custom_fields as Json).tnt__priority === "high" &&
            Number((o.custom_fields as Json).tnt__budget) > 50000,
        ).length;
        expect(await counted("/custom-objects.count", { leaf_type: "campaign", filters: nested })).toBe(both);

        // The SDK's form: each item JSON-quoted, joined by commas, as one value.
        const quoted = flat.map((item) => JSON.stringify(item)).join(",");
        const q = (extra: string) => `leaf_type=campaign&${extra}`;
        expect(await counted(`/custom-objects.count?${q(`filters=${encodeURIComponent(quoted)}`)}`)).toBe(
          high,
        );
        expect(
          await counted(`/custom-objects.count?${q(`filters=${encodeURIComponent(flat.join(","))}`)}`),
        ).toBe(high);
        expect(
          await counted(
            `/custom-objects.count?${q(flat.map((t) => `filters=${encodeURIComponent(t)}`).join("&"))}`,
          ),
        ).toBe(high);
        expect(
          await counted(
            `/custom-objects.count?${q(`filters=${encodeURIComponent("gt,$custom_fields.tnt__budget,50000")}`)}`,
          ),
        ).toBe(rich);
        expect(
          await counted(
            `/custom-objects.count?${q(`filters=${encodeURIComponent(JSON.stringify(nested))}`)}`,
          ),
        ).toBe(both);

        const listed = (
          await ok("GET", `/custom-objects.list?${q(`filter=${encodeURIComponent(quoted)}&limit=100`)}`)
        ).result as Json[];
        expect(listed.length).toBe(high);
        const plain = (
          await ok(
            "GET",
            `/custom-objects.list?${q(`filter=${encodeURIComponent(flat.join(","))}&limit=100`)}`,
          )
        ).result as Json[];
        expect(plain.map((o) => o.id)).toEqual(listed.map((o) => o.id));

        const mixed = await call(
          "GET",
          `/custom-objects.count?${q(`filters=eq&filters=${encodeURIComponent(JSON.stringify(flat))}`)}`,
        );
        expect(mixed.status).toBe(400);
        expect(mixed.body).toMatchObject({ type: "invalid_field", field_name: "filters" });
        const badOperator = await call("GET", `/custom-objects.count?${q("filters=equals,$title,x")}`);
        expect(badOperator.status).toBe(400);
        expect(badOperator.body).toMatchObject({ type: "invalid_field", field_name: "filters" });
      });

      it("GET /auth-tokens.list answers the caller's tokens", async () => {
        const body = await ok("GET", "/auth-tokens.list");
        expect((body.tokens as Json[]).length).toBeGreaterThan(0);
        for (const token of body.tokens as Json[])
          expect(token).toMatchObject({ id: expect.any(String), status: "active" });
      });
    });

    describe("content", () => {
      it("GET /articles.get answers an article with its owners", async () => {
        const articles = (await ok("POST", "/articles.list", {})).articles as Json[];
        const body = await ok("GET", `/articles.get?${query({ id: String(articles[0]?.id) })}`);
        expect(body.article).toMatchObject({ id: articles[0]?.id, owned_by: [expect.any(Object)] });
      });

      it("GET and POST /code-changes.get answer a code change", async () => {
        const changes = (await ok("POST", "/code-changes.list", {})).code_changes as Json[];
        const byGet = await ok("GET", `/code-changes.get?${query({ id: String(changes[0]?.id) })}`);
        const byPost = await ok("POST", "/code-changes.get", { id: changes[0]?.id });
        expect(byGet).toEqual(byPost);
        expect(byGet.code_change).toMatchObject({ id: changes[0]?.id, source: "github" });
      });

      it("POST /observability.sessions.data.get answers a recorded session", async () => {
        const body = await ok("POST", "/observability.sessions.data.get", {
          version_key: "app.example.com",
          session_id: "web-session-1",
          tab_id: "tab-1",
        });
        expect(body.recording).toBe("web_recording");
      });
    });

    it("answered only what the contract describes (checked here and by the server)", () => {
      s.expectAnswered([
        "rev-orgs.update",
        "rev-orgs.get",
        "rev-orgs.list",
        "custom-objects.list",
        "auth-tokens.list",
        "org-schedules.list",
        "slas.list",
        "slas.update",
        "code-changes.get",
        "surveys.create",
        "org-schedule-fragments.create",
        "stages.custom.get",
        "custom-objects.count",
        "tags.list",
        "stage-diagrams.update",
        "conversations.create",
        "timeline-entries.get",
        "rev-orgs.create",
        "articles.get",
        "observability.sessions.data.get",
      ]);
    });
  },
);
