// The client against the real reference server (@workapi/server, built, started in-process; on SQLite, and on
// PostgreSQL when DATABASE_URL is set): the conformance suite; every operation of the contract through the
// facade on its success path, with records the client creates itself; pagination over a few hundred tags in
// both modes; typed errors and ApiError; the 429 path with retries; abort and deadline. Every server checks
// its own answers against the contract, and every suite ends by asserting none broke it.
import { ApiError, createClient, type Fetch, unwrap } from "@workapi/client";
import { loadSpec } from "@workapi/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/names.js";
import { entries, pagesOf } from "./support/answers.js";
import { describeConformance } from "./support/conformance.js";
import {
  databases,
  type ReferenceServer,
  referenceTarget,
  startReferenceServer,
} from "./support/reference-server.js";

/** The x-interface-name of every operation in the contract (GET and POST forms share one). */
function contractOperations(): string[] {
  const names = new Set<string>();
  for (const item of Object.values(loadSpec().paths)) {
    for (const operation of Object.values(item)) {
      const name = (operation as { "x-interface-name"?: unknown })["x-interface-name"];
      if (typeof name === "string") names.add(name);
    }
  }
  return [...names].sort();
}

/** Waits `ms`, or until `signal` aborts: a slow network in front of the real server. */
const slowFetch =
  (ms: number): Fetch =>
  (request, init) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      request.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    }).then(() => fetch(request, init));

/** The names of tags, in order (a tag's name is optional in the contract). */
const names = (tags: ReadonlyArray<{ name?: string }>) => tags.map((tag) => tag.name ?? "");

const YEAR = { from: "2027-01-01T00:00:00.000Z", to: "2028-01-01T00:00:00.000Z" };

for (const database of databases) {
  describeConformance(`the reference server on ${database}`, () => referenceTarget(database));

  describe(`integration with the reference server on ${database}`, () => {
    describe("every operation of the contract, through the facade", () => {
      let server: ReferenceServer;
      /** The operations that answered 2xx, by the path the facade sent to (GET for flat reads, else POST). */
      const exercised = new Set<string>();
      const recording: Fetch = async (request, init) => {
        const response = await fetch(request, init);
        if (response.ok) exercised.add(new URL(request.url).pathname.slice(1));
        return response;
      };
      let api: ReturnType<typeof client>;
      const client = (baseUrl: string, token: string) =>
        createClient({ baseUrl, token, throwOnError: true, fetch: recording });

      beforeAll(async () => {
        server = await startReferenceServer(database);
        api = client(server.url, server.token);
      });
      afterAll(() => server?.close());

      // What the steps create, for the steps after them.
      let me: string;
      const tags = {} as Record<"bug" | "severity", { id: string; name?: string }>;
      const parts = {} as Record<"product" | "capability" | "feature", { id: string }>;
      const stages = {} as Record<"triage" | "dev" | "done", { id: string }>;
      let artifact: string;
      let work: { id: string; display_id: string };
      let account: string;

      it("reads the caller and creates and lists tags", async () => {
        const { data: self } = await api.devUsers.self();
        expect(self.dev_user.display_id).toMatch(/^DEVU-\d+$/);
        expect(self.dev_user.email).toBe("admin@workapi.local");
        me = self.dev_user.id;
        const { data: users } = await api.devUsers.list({ limit: 10 });
        expect(users.dev_users.map((user) => user.id)).toContain(me);

        const { data: bug } = await api.tags.create({
          name: "bug",
          description: "Something is broken",
          style_new: { color: "#d73a4a" },
        });
        expect(bug.tag).toMatchObject({ name: "bug", description: "Something is broken" });
        expect(bug.tag.display_id).toMatch(/^TAG-\d+$/);
        const { data: severity } = await api.tags.create({
          name: "severity",
          allowed_values: ["low", "high"],
        });
        expect(severity.tag.allowed_values).toEqual(["low", "high"]);
        tags.bug = bug.tag;
        tags.severity = severity.tag;
        const { data: listed } = await api.tags.list({ name: ["bug", "severity"] });
        expect(names(listed.tags).sort()).toEqual(["bug", "severity"]);
      });

      it("builds a part tree: product > capability > feature", async () => {
        const { data: product } = await api.parts.create({ type: "product", name: "Shop", owned_by: [me] });
        expect(product.part).toMatchObject({ type: "product", name: "Shop" });
        const { data: capability } = await api.parts.create({
          type: "capability",
          name: "Checkout",
          owned_by: [me],
          parent_part: [product.part.id],
        });
        const { data: feature } = await api.parts.create({
          type: "feature",
          name: "Card payments",
          owned_by: [me],
          parent_part: [capability.part.id],
          tags: [{ id: tags.bug.id }],
        });
        parts.product = product.part;
        parts.capability = capability.part;
        parts.feature = feature.part;
        const { data: got } = await api.parts.get({ id: feature.part.id });
        expect(got.part.type).toBe("feature");
        expect(got.part.parent_part?.map((parent) => parent.id)).toEqual([capability.part.id]);
        const { data: features } = await api.parts.list({ type: ["feature", "capability"] });
        expect(features.parts.map((part) => part.name).sort()).toEqual(["Card payments", "Checkout"]);
      });

      it("creates custom stages and the default stage diagram of issues", async () => {
        // The built-in states, by display id: STATE-1 open, STATE-2 in_progress, STATE-3 closed.
        const { data: triage } = await api.stages.custom.create({
          name: "Triage",
          ordinal: 10,
          state: "STATE-1",
        });
        expect(triage.custom_stage.state).toMatchObject({ display_id: "STATE-1", name: "open" });
        const { data: dev } = await api.stages.custom.create({
          name: "Development",
          ordinal: 20,
          state: "STATE-2",
        });
        const { data: done } = await api.stages.custom.create({
          name: "Done",
          ordinal: 30,
          state: "STATE-3",
        });
        stages.triage = triage.custom_stage;
        stages.dev = dev.custom_stage;
        stages.done = done.custom_stage;
        const { data: got } = await api.stages.custom.get({ id: dev.custom_stage.id });
        expect(got.custom_stage).toEqual(dev.custom_stage);
        // A list answering { result, cursor }: its pagination follows `cursor`.
        const listed = await entries(api.stages.custom.list.all({ limit: 2 }));
        expect(listed.map((stage) => stage.name)).toEqual(
          expect.arrayContaining(["Triage", "Development", "Done"]),
        );

        const { data: diagram } = await api.stageDiagrams.create({
          leaf_type: "issue",
          name: "Issue flow",
          is_default: true,
          stages: [
            { stage_id: stages.triage.id, is_start: true, transitions: [{ target_stage_id: stages.dev.id }] },
            { stage_id: stages.dev.id, transitions: [{ target_stage_id: stages.done.id }] },
            { stage_id: stages.done.id },
          ],
        });
        expect(diagram.stage_diagram).toMatchObject({
          leaf_type: "issue",
          name: "Issue flow",
          is_default: true,
        });
        expect(diagram.stage_diagram.stages).toHaveLength(3);
        const { data: renamed } = await api.stageDiagrams.update({
          id: diagram.stage_diagram.id,
          name: "Issue flow v2",
        });
        expect(renamed.stage_diagram.name).toBe("Issue flow v2");
        const { data: got2 } = await api.stageDiagrams.get({ id: diagram.stage_diagram.display_id });
        expect(got2.stage_diagram.name).toBe("Issue flow v2");
        const { data: diagrams } = await api.stageDiagrams.list({});
        expect(diagrams.result.map((d) => d.id)).toEqual([diagram.stage_diagram.id]);
      });

      it("uploads an artifact: prepare, then a multipart upload of a Blob", async () => {
        const { data: prepared } = await api.artifacts.prepare({
          file_name: "trace.txt",
          file_type: "text/plain",
        });
        expect(prepared.url).toBe(`${server.url}/artifacts.upload`);
        expect(prepared.form_data).toContainEqual({ key: "id", value: prepared.id });
        const fields = Object.fromEntries(prepared.form_data.map(({ key, value }) => [key, value]));
        const { data: uploaded } = await api.artifacts.upload({
          ...fields,
          id: prepared.id,
          file: new Blob(["GET /checkout 500\n"], { type: "text/plain" }),
        });
        expect(uploaded.artifact.id).toBe(prepared.id);
        expect(uploaded.artifact.file).toMatchObject({ name: "trace.txt", type: "text/plain", size: 18 });
        artifact = prepared.id;
      });

      it("creates a work, moves it along the diagram, and lists and exports it", async () => {
        const { data: created } = await api.works.create({
          type: "issue",
          title: "Card payments fail on Safari",
          applies_to_part: parts.feature.id,
          owned_by: [me],
          body: "Steps: pay with a card on Safari 18.",
          tags: [{ id: tags.bug.id }, { id: tags.severity.id, value: "high" }],
          artifacts: [artifact],
        });
        expect(created.work).toMatchObject({ type: "issue", title: "Card payments fail on Safari" });
        // A new work starts in its diagram's start stage.
        expect(created.work.stage?.name).toBe("Triage");
        expect(created.work.applies_to_part?.id).toBe(parts.feature.id);
        work = created.work;

        const { data: moved } = await api.works.update({
          id: work.id,
          stage: { id: stages.dev.id },
          title: "Card payments fail on Safari 18",
        });
        expect(moved.work.stage?.name).toBe("Development");
        expect(moved.work.title).toBe("Card payments fail on Safari 18");
        const { data: got } = await api.works.get({ id: work.display_id });
        expect(got.work).toEqual(moved.work);
        const { data: listed } = await api.works.list({
          type: ["issue"],
          applies_to_part: [parts.feature.id],
        });
        expect(listed.works.map((w) => w.id)).toEqual([work.id]);
        const { data: exported } = await api.works.export({ type: ["issue"], first: 10 });
        expect(exported.works.map((w) => w.display_id)).toEqual([work.display_id]);

        // The artifact now belongs to the work.
        const { data: files } = await api.artifacts.list({ parent_id: work.id });
        expect(files.artifacts.map((file) => file.id)).toEqual([artifact]);
        const { data: file } = await api.artifacts.get({ id: artifact });
        expect(file.version?.version).toBe("1");
        expect(file.artifact.file?.name).toBe("trace.txt");
      });

      it("creates accounts, Rev organizations, conversations and articles", async () => {
        const { data: created } = await api.accounts.create({
          display_name: "Globex",
          domains: ["globex.example"],
          tier: "enterprise",
        });
        expect(created.account).toMatchObject({ display_name: "Globex", tier: "enterprise" });
        account = created.account.id;
        expect((await api.accounts.get({ id: account })).data.account.domains).toEqual(["globex.example"]);
        expect((await api.accounts.list({ display_name: ["Globex"] })).data.accounts).toHaveLength(1);

        const { data: revOrg } = await api.revOrgs.create({
          account,
          display_name: "Globex Europe",
          environment: "production",
        });
        expect(revOrg.rev_org.account?.id).toBe(account);
        expect((await api.revOrgs.get({ id: revOrg.rev_org.id })).data.rev_org.display_name).toBe(
          "Globex Europe",
        );
        expect((await api.revOrgs.list({})).data.rev_orgs.map((r) => r.id)).toEqual([revOrg.rev_org.id]);
        expect((await api.revOrgs.list({ account: [account] })).data.rev_orgs).toHaveLength(1);
        expect((await api.revOrgs.get({ account })).data.rev_org.id).toBe(revOrg.rev_org.id);
        const { data: renamed } = await api.revOrgs.update({
          id: revOrg.rev_org.id,
          display_name: "Globex EMEA",
        });
        expect(renamed.rev_org).toMatchObject({ id: revOrg.rev_org.id, display_name: "Globex EMEA" });

        const { data: conversation } = await api.conversations.create({
          type: "support",
          title: "Checkout is down",
          account,
          messages: [{ body: "Our customers cannot pay." }],
          tags: [{ id: tags.bug.id }],
        });
        expect(conversation.conversation).toMatchObject({ type: "support", title: "Checkout is down" });
        const { data: gotConversation } = await api.conversations.get({ id: conversation.conversation.id });
        expect(gotConversation.conversation.account?.id).toBe(account);
        const { data: conversations } = await api.conversations.list({ account: [account] });
        expect(conversations.conversations.map((c) => c.id)).toEqual([conversation.conversation.id]);

        const { data: article } = await api.articles.create({
          title: "Retrying a failed payment",
          owned_by: [me],
          resource: { url: "https://docs.example.com/payments/retry" },
          applies_to_parts: [parts.product.id],
          status: "published",
        });
        expect(article.article).toMatchObject({ title: "Retrying a failed payment", status: "published" });
        expect((await api.articles.get({ id: article.article.id })).data.article.title).toBe(
          "Retrying a failed payment",
        );
        const { data: articles } = await api.articles.list({ status: ["published"] });
        expect(articles.articles.map((a) => a.id)).toEqual([article.article.id]);
        expect(articles.total).toBe(1);
      });

      it("creates code changes, surveys and SLAs (updated as a draft, then published)", async () => {
        const { data: change } = await api.codeChanges.create({
          title: "Retry card authorisation",
          branch: "fix/safari-cards",
          target_branch: "main",
          repo_url: "https://git.example.com/shop",
          total_loc: { file_count: 2, lines_added: 40, lines_deleted: 3 },
        });
        expect(change.code_change.display_id).toMatch(/^CC-\d+$/);
        expect((await api.codeChanges.get({ id: change.code_change.display_id })).data.code_change).toEqual(
          change.code_change,
        );
        expect((await api.codeChanges.list({})).data.code_changes.map((c) => c.id)).toEqual([
          change.code_change.id,
        ]);

        const { data: survey } = await api.surveys.create({ name: "CSAT", title: "How did we do?" });
        expect(survey.survey).toMatchObject({ name: "CSAT", title: "How did we do?" });
        expect((await api.surveys.list({ name: ["CSAT"] })).data.surveys.map((s) => s.id)).toEqual([
          survey.survey.id,
        ]);

        const { data: sla } = await api.slas.create({
          name: "Premium support",
          applies_to: ["ticket"],
          evaluation_period: "monthly",
          account_selector: { tier: ["enterprise"] },
          policies: [
            {
              name: "Urgent",
              selector: { applies_to: "ticket" },
              metrics: [{ metric: "first_response", target: 30 }],
            },
          ],
        });
        expect(sla.sla).toMatchObject({ status: "draft", account_filter: { tier: ["enterprise"] } });
        const { data: updated } = await api.slas.update({
          id: sla.sla.id,
          description: "First answer within 30 minutes.",
        });
        expect(updated.sla.description).toBe("First answer within 30 minutes.");
        const { data: published } = await api.slas.transition({ id: sla.sla.id, status: "published" });
        expect(published.sla.status).toBe("published");
        expect((await api.slas.list({ status: ["published"] })).data.slas.map((s) => s.id)).toEqual([
          sla.sla.id,
        ]);
      });

      it("creates an org schedule fragment and a schedule that uses it", async () => {
        const { data: fragment } = await api.orgScheduleFragments.create({
          name: "Holidays 2027",
          ...YEAR,
          region_codes: ["DE"],
          intervals: [{ name: "New Year's Day", from: YEAR.from, is_excluded: true }],
        });
        expect(fragment.org_schedule_fragment).toMatchObject({ name: "Holidays 2027", status: "draft" });
        expect(fragment.org_schedule_fragment.intervals?.[0]?.to).toBe("2027-01-02T00:00:00.000Z");
        const { data: schedule } = await api.orgSchedules.create({
          name: "Support hours",
          timezone: "Europe/Berlin",
          default_weekly_org_schedule: { period_name: "Standard", intervals: [{ from: 540, to: 1020 }] },
          org_schedule_fragments: [{ id: fragment.org_schedule_fragment.id }],
        });
        expect(schedule.org_schedule).toMatchObject({ timezone: "Europe/Berlin", valid_until: YEAR.to });
        const { data: schedules } = await api.orgSchedules.list({ status: ["draft"] });
        expect(schedules.org_schedules.map((s) => s.id)).toEqual([schedule.org_schedule.id]);
      });

      it("creates vistas, custom objects and timeline entries", async () => {
        const { data: vista } = await api.vistas.create({
          name: "Payment issues",
          type: "curated",
          object_type: "works",
          items: [{ id: work.id }],
        });
        expect(vista.vista).toMatchObject({ name: "Payment issues", type: "curated" });
        expect((await api.vistas.list({ type: ["curated"] })).data.vistas.map((v) => v.id)).toEqual([
          vista.vista.id,
        ]);

        for (const [title, priority] of [
          ["Spring sale", "high"],
          ["Summer sale", "low"],
          ["Black Friday", "high"],
        ] as const) {
          const { data } = await api.customObjects.create({
            leaf_type: "campaign",
            title,
            custom_schema_spec: { tenant_fragment: true },
            custom_fields: { tnt__priority: priority },
          });
          expect(data.custom_object).toMatchObject({ leaf_type: "campaign", title });
        }
        const high = ["eq", "$custom_fields.tnt__priority", "high"];
        const { data: count } = await api.customObjects.count({ leaf_type: "campaign", filters: [high] });
        expect(count.count).toBe(2);
        const { data: objects } = await api.customObjects.list({ leaf_type: "campaign", filter: [high] });
        expect(objects.result.map((o) => o.title).sort()).toEqual(["Black Friday", "Spring sale"]);

        const { data: entry } = await api.timelineEntries.create({
          type: "timeline_comment",
          object: work.id,
          body: "Reproduced on Safari 18.1.",
          visibility: "internal",
          labels: ["repro"],
        });
        expect(entry.timeline_entry).toMatchObject({ object: work.id, body: "Reproduced on Safari 18.1." });
        const { data: got } = await api.timelineEntries.get({ id: entry.timeline_entry.id });
        expect(got.timeline_entry.id).toBe(entry.timeline_entry.id);
        const comments = await entries(api.timelineEntries.list.all({ object: work.id, limit: 2 }));
        expect(comments.map((e) => e.id)).toContain(entry.timeline_entry.id);
      });

      it("reads an observability session recording", async () => {
        // Recordings have no create operation: the server stores them the way its seed does.
        await server.storeSession({
          recording: "mobile_recording",
          version_key: "com.example.shop",
          session_id: "sess-1",
          recording_id: "rec-1",
          created_at: "2026-11-02T09:15:00.000Z",
          total_ram: 6442450944,
          video_playback_data: [{ start_frame: "0", end_frame: "1", frames: ["f0.jpg", "f1.jpg"] }],
        });
        const { data } = await api.observability.sessions.data.get({
          version_key: "com.example.shop",
          session_id: "sess-1",
          recording_id: "rec-1",
          include_replay_data: false,
        });
        expect(data.recording).toBe("mobile_recording");
        if (data.recording !== "mobile_recording") return;
        expect(data.total_ram).toBe(6442450944);
        expect(data.video_playback_data).toBeUndefined();
      });

      it("issues, lists and revokes a token", async () => {
        const { data: issued } = await api.authTokens.create({
          scope: "tag:read",
          expires_in: 3600,
          client_id: "client-tests",
        });
        expect(issued).toMatchObject({ token_type: "bearer", scope: "tag:read", expires_in: 3600 });
        const limited = client(server.url, issued.access_token);
        expect((await limited.tags.list({ name: ["bug"] })).data.tags).toHaveLength(1);
        const { data: tokens } = await api.authTokens.list({ client_id: "client-tests" });
        const [meta] = tokens.tokens;
        expect(tokens.tokens).toHaveLength(1);
        expect(meta).toMatchObject({ scopes: ["tag:read"], status: "active", subject: me });
        expect(issued.access_token.endsWith(meta?.token_hint ?? "?")).toBe(true);
        await api.authTokens.delete({ token_id: meta?.id ?? "" });
        const { error } = await limited.tags.list({}, { throwOnError: false });
        expect(error?.type).toBe("token_revoked");
      });

      it("makes, reads, lists and deletes a sandbox, with its journal", async () => {
        const { data: made } = await api.sandboxes.create({ name: "facade", ttl_seconds: 600 });
        const { id } = made.sandbox;
        const inside = client(server.url, made.sandbox.token ?? "");
        await inside.tags.list({});
        expect((await api.sandboxes.get({ id })).data.sandbox).toMatchObject({ id, name: "facade" });
        expect((await api.sandboxes.list({})).data.sandboxes.map((sandbox) => sandbox.id)).toContain(id);
        const { data: journal } = await api.sandboxes.requests.list({ id });
        expect(journal.requests.map((request) => request.operation)).toEqual(["tags.list"]);
        expect((await api.sandboxes.delete({ id })).data).toEqual({});
      });

      it("deletes a work and a part", async () => {
        expect((await api.works.delete({ id: work.id })).data).toEqual({});
        const gone = await api.works.get({ id: work.id }, { throwOnError: false });
        expect(gone.error?.type).toBe("not_found");
        expect((await api.parts.delete({ id: parts.feature.id })).data).toEqual({});
        const { data: left } = await api.parts.list({});
        expect(left.parts.map((part) => part.id).sort()).toEqual(
          [parts.capability.id, parts.product.id].sort(),
        );
      });

      it("called every operation of the contract, each answered with success", () => {
        const contract = contractOperations();
        expect(Object.keys(operations).sort()).toEqual(contract);
        expect(contract.length).toBeGreaterThanOrEqual(61);
        expect(contract.filter((name) => !exercised.has(name))).toEqual([]);
        expect([...exercised].sort()).toEqual(contract);
      });

      it("gave only answers that are valid against the contract", () => {
        expect(server.app.violations).toEqual([]);
      });
    });

    describe("pagination over a few hundred tags", () => {
      const total = 260;
      let server: ReferenceServer;
      let api: ReturnType<typeof createClient<{ baseUrl: string; token: string; throwOnError: true }>>;
      /** Every tag in the order of the list (its default sort), read one page of 1000 at a time. */
      let everything: string[];

      beforeAll(async () => {
        server = await startReferenceServer(database);
        api = createClient({ baseUrl: server.url, token: server.token, throwOnError: true });
        for (let i = 1; i <= total; i++) await api.tags.create({ name: `tag-${String(i).padStart(3, "0")}` });
        everything = names((await api.tags.list({ limit: 1000 })).data.tags);
        expect(everything).toHaveLength(total);
      }, 60_000);
      afterAll(() => server?.close());

      it("follows next_cursor to the end with .all() and .pages()", async () => {
        expect(names(await entries(api.tags.list.all({ limit: 50 })))).toEqual(everything);
        const pages = await pagesOf(api.tags.list.pages({ limit: 50 }));
        expect(pages.map((page) => page.tags.length)).toEqual([50, 50, 50, 50, 50, 10]);
        expect(pages.flatMap((page) => names(page.tags))).toEqual(everything);
        expect(pages.at(-1)?.next_cursor).toBeUndefined();
        expect(pages[1]?.prev_cursor).toEqual(expect.any(String));
      });

      it("follows prev_cursor from the end in before mode, each page in order", async () => {
        const pages = await pagesOf(api.tags.list.pages({ limit: 50 }, { mode: "before" }));
        expect(pages.map((page) => page.tags.length)).toEqual([50, 50, 50, 50, 50, 10]);
        const expected: string[][] = [];
        for (let end = total; end > 0; end -= 50) expected.push(everything.slice(Math.max(0, end - 50), end));
        expect(pages.map((page) => names(page.tags))).toEqual(expected);
        expect(pages.at(-1)?.prev_cursor).toBeUndefined();
        const backward = names(await entries(api.tags.list.all({ limit: 50 }, { mode: "before" })));
        expect(backward).toEqual(expected.flat());
        expect(new Set(backward)).toEqual(new Set(everything));
      });

      it("stops at an item limit, in both modes, and by operation name", async () => {
        const first = await entries(api.tags.list.all({ limit: 50 }, { max: 120 }));
        expect(names(first)).toEqual(everything.slice(0, 120));
        const pages = await pagesOf(api.tags.list.pages({ limit: 50 }, { mode: "before", max: 120 }));
        expect(pages.map((page) => page.tags.length)).toEqual([50, 50, 20]);
        expect(names(pages[0]?.tags ?? [])).toEqual(everything.slice(total - 50));
        expect(names(pages[2]?.tags ?? [])).toEqual(everything.slice(total - 150, total - 130));
        const named = await entries(api.paginate("tags.list", { limit: 100 }, { max: 250 }));
        expect(names(named)).toEqual(everything.slice(0, 250));
        const namedPages = await pagesOf(api.paginate("tags.list", { limit: 100 }, { pages: true }));
        expect(namedPages.map((page) => page.tags.length)).toEqual([100, 100, 60]);
      });

      it("starts from a cursor the caller got, and keeps the filters and sort", async () => {
        const { data: page } = await api.tags.list({ limit: 100 });
        const rest = await entries(api.tags.list.all({ limit: 100, cursor: page.next_cursor }));
        expect(names(rest)).toEqual(everything.slice(100));
        const descending = await entries(api.tags.list.all({ limit: 70, sort_by: ["name:desc"] }));
        expect(names(descending)).toEqual([...everything].sort().reverse());
        const some = await entries(api.tags.list.all({ limit: 1, name: ["tag-007", "tag-250", "missing"] }));
        expect(names(some).sort()).toEqual(["tag-007", "tag-250"]);
      });

      it("gave only answers that are valid against the contract", () => {
        expect(server.app.violations).toEqual([]);
      });
    });

    describe("errors", () => {
      let server: ReferenceServer;
      let api: ReturnType<typeof createClient<{ baseUrl: string; token: string }>>;

      beforeAll(async () => {
        server = await startReferenceServer(database);
        api = createClient({ baseUrl: server.url, token: server.token });
        unwrap(await api.tags.create({ name: "bug" }));
      });
      afterAll(() => server?.close());

      it("narrows an invalid_field to its field_name", async () => {
        const { data, error, response } = await api.tags.list({ cursor: "not-a-cursor" });
        expect(data).toBeUndefined();
        expect(response.status).toBe(400);
        expect(error?.type).toBe("invalid_field");
        if (error?.type === "invalid_field") expect(error.field_name).toBe("cursor");
        else expect.unreachable();

        // A malformed custom-object filter names the filter that is wrong.
        const filter = await api.customObjects.count({ leaf_type: "campaign", filters: [["eq"]] });
        expect(filter.response.status).toBe(400);
        if (filter.error?.type === "invalid_field") expect(filter.error.field_name).toBe("filters.0");
        else expect.unreachable(JSON.stringify(filter.error));
      });

      it("answers a missing record with a 404 not_found", async () => {
        const { error, response } = await api.works.get({ id: "ISS-99999" });
        expect(response.status).toBe(404);
        expect(error?.type).toBe("not_found");
        expect(error?.detail).toEqual(expect.any(String));
      });

      it("answers a duplicate tag name with a 409 conflict", async () => {
        const { error, response } = await api.tags.create({ name: "bug" });
        expect(response.status).toBe(409);
        expect(error).toMatchObject({ type: "conflict", detail: expect.stringContaining("name") });
      });

      it("answers a token without the scope with a 403 forbidden", async () => {
        const issued = unwrap(await api.authTokens.create({ scope: "tag:read" }));
        const reader = createClient({ baseUrl: server.url, token: issued.access_token });
        expect((await reader.tags.list({})).data?.tags).toHaveLength(1);
        const { error, response } = await reader.tags.create({ name: "not-allowed" });
        expect(response.status).toBe(403);
        expect(error?.type).toBe("forbidden");
        if (error?.type === "forbidden") expect(error.detail).toContain("tag:");
        const works = await reader.works.list({});
        expect(works.error?.type).toBe("forbidden");
      });

      it("answers a bad token with a 401 unauthenticated", async () => {
        const bad = createClient({ baseUrl: server.url, token: "wkp_not-a-real-token" });
        const { error, response } = await bad.tags.list({});
        expect(response.status).toBe(401);
        expect(error?.type).toBe("unauthenticated");
        const none = createClient({ baseUrl: server.url });
        expect((await none.tags.list({})).error?.type).toBe("unauthenticated");
      });

      it("throws an ApiError with status, body and request id, with throwOnError and unwrap", async () => {
        const thrown = await api.works
          .get({ id: "ISS-12345" }, { throwOnError: true })
          .catch((reason: unknown) => reason);
        expect(thrown).toBeInstanceOf(ApiError);
        if (!(thrown instanceof ApiError)) return;
        expect(thrown.status).toBe(404);
        expect(thrown.body.type).toBe("not_found");
        expect(thrown.requestId).toMatch(/^[0-9a-f-]{36}$/);
        expect(thrown.requestId).toBe(thrown.response.headers.get("x-request-id"));
        expect(thrown.message).toBe(`404 not_found: ${thrown.body.message}`);

        // The server keeps the caller's request id: a client can tie its logs to the server's.
        const conflict = await api.tags.create(
          { name: "bug" },
          { headers: { "x-request-id": "client-req-1" } },
        );
        const error = (() => {
          try {
            unwrap(conflict);
          } catch (caught) {
            return caught;
          }
        })();
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ status: 409, requestId: "client-req-1", body: { type: "conflict" } });

        const throwing = createClient({ baseUrl: server.url, token: "nope", throwOnError: true });
        await expect(throwing.tags.list()).rejects.toMatchObject({
          name: "ApiError",
          status: 401,
          body: { type: "unauthenticated" },
          requestId: expect.any(String),
        });
        // A success answer unwraps to its data, also from GET.
        const page = unwrap(await api.GET("/tags.list", { params: { query: { name: ["bug"] } } }));
        expect(names(page.tags)).toEqual(["bug"]);
      });

      it("rejects an aborted call with the signal's reason, before it is sent and while it is on the way", async () => {
        const before = new AbortController();
        before.abort(new Error("aborted before"));
        await expect(api.tags.list({}, { signal: before.signal })).rejects.toThrow("aborted before");

        const during = new AbortController();
        const slow = createClient({ baseUrl: server.url, token: server.token, fetch: slowFetch(2000) });
        const started = Date.now();
        setTimeout(() => during.abort(new Error("the user went away")), 50);
        await expect(slow.tags.list({}, { signal: during.signal })).rejects.toThrow("the user went away");
        expect(Date.now() - started).toBeLessThan(1000);
      });

      it("rejects with a TimeoutError when the deadline passes, and answers in time otherwise", async () => {
        const slow = createClient({ baseUrl: server.url, token: server.token, fetch: slowFetch(2000) });
        const started = Date.now();
        const reason = await slow.tags.list({}, { deadline: 100 }).catch((e: unknown) => e);
        expect(reason).toMatchObject({ name: "TimeoutError" });
        expect(Date.now() - started).toBeLessThan(1000);
        const { data } = await api.tags.list({}, { deadline: 5000 });
        expect(names(data?.tags ?? [])).toEqual(["bug"]);
      });

      it("gave only answers that are valid against the contract", () => {
        expect(server.app.violations).toEqual([]);
      });
    });

    describe("rate limits (2 requests per 1.5 s)", () => {
      interface Attempt {
        path: string;
        status: number;
        retryAfter: string | null;
      }
      /** A server of its own for each test (a fresh window), and a client that records every attempt. */
      async function limited() {
        const small = await startReferenceServer(database, { rateLimitMax: 2, rateLimitWindowMs: 1500 });
        const attempts: Attempt[] = [];
        const api = createClient({
          baseUrl: small.url,
          token: small.token,
          retry: { maxRetries: 2, maxDelay: 5000 },
          fetch: async (request, init) => {
            const response = await fetch(request, init);
            const { pathname } = new URL(request.url);
            attempts.push({
              path: pathname,
              status: response.status,
              retryAfter: response.headers.get("retry-after"),
            });
            return response;
          },
        });
        return {
          api,
          attempts,
          async close() {
            const violations = [...small.app.violations];
            await small.close();
            expect(violations).toEqual([]);
          },
        };
      }

      it("answers a typed 429 past the limit, and with retries waits Retry-After, then succeeds", async () => {
        const { api, attempts, close } = await limited();
        try {
          expect((await api.tags.list({}, { retry: false })).response.status).toBe(200);
          const second = await api.tags.list({}, { retry: false });
          expect(second.response.headers.get("x-ratelimit-limit")).toBe("2");
          expect(second.response.headers.get("x-ratelimit-remaining")).toBe("0");
          const { error, response } = await api.tags.list({}, { retry: false });
          expect(response.status).toBe(429);
          expect(error?.type).toBe("too_many_requests");
          if (error?.type !== "too_many_requests") return expect.unreachable();
          expect(error.retry_after).toBeGreaterThan(0);
          expect(error.retry_after).toBeLessThanOrEqual(2);
          expect(response.headers.get("retry-after")).toBe(String(error.retry_after));
          expect(attempts.map((a) => a.status)).toEqual([200, 200, 429]);

          // With retries on, the client waits the retry_after of the 429 it got, then gets its answer.
          attempts.length = 0;
          const started = Date.now();
          const retried = await api.tags.list({}, { throwOnError: true });
          const waited = Date.now() - started;
          expect(retried.data.tags).toEqual([]);
          expect(attempts.map((a) => a.status)).toEqual([429, 200]);
          expect(waited).toBeGreaterThanOrEqual(Number(attempts[0]?.retryAfter) * 1000 - 20);
        } finally {
          await close();
        }
      });

      it("never repeats a write, and answers a 429 whose wait is past the deadline at once", async () => {
        const { api, attempts, close } = await limited();
        try {
          await api.tags.list();
          await api.tags.list();
          const write = await api.tags.create({ name: "x" });
          expect(write.error?.type).toBe("too_many_requests");
          expect(attempts.filter((a) => a.path === "/tags.create")).toHaveLength(1);
          const started = Date.now();
          const read = await api.tags.list({}, { deadline: 300 });
          expect(read.error?.type).toBe("too_many_requests");
          expect(Date.now() - started).toBeLessThan(300);
          expect(attempts.map((a) => a.status)).toEqual([200, 200, 429, 429]);
        } finally {
          await close();
        }
      });

      it("aborts a call while it waits to be retried", async () => {
        const { api, attempts, close } = await limited();
        try {
          await api.tags.list();
          await api.tags.list();
          const controller = new AbortController();
          const started = Date.now();
          setTimeout(() => controller.abort(new Error("stop waiting")), 200);
          await expect(api.tags.list({}, { signal: controller.signal })).rejects.toThrow("stop waiting");
          expect(Date.now() - started).toBeLessThan(1000);
          expect(attempts.map((a) => a.status)).toEqual([200, 200, 429]);
        } finally {
          await close();
        }
      });
    });
  });
}
