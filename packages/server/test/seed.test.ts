// The demo data set: after `seed`, every read operation of the contract returns something.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parentOf } from "../src/operations/support/attachments.js";
import type { Call } from "../src/seed/calls.js";
import { random } from "../src/seed/data.js";
import { seed } from "../src/seed/index.js";
import { makeWorks } from "../src/seed/works.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

describe.each(databases)("seed on %s", (database) => {
  let server: TestServer;
  let summary: Record<string, number>;
  beforeAll(async () => {
    server = await startTestServer(database);
    summary = await seed(server.store, server.org, server.admin, { works: 120 });
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  const first = async (path: string, key: string, body: Record<string, unknown> = {}) => {
    const res = await server.call("POST", path, { body });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    const items = res.body[key] as Array<{ id: string }>;
    expect(items.length, path).toBeGreaterThan(0);
    return items;
  };

  it("creates every family", () => {
    expect(summary.works).toBe(120);
    for (const family of [
      "parts",
      "tags",
      "accounts",
      "conversations",
      "articles",
      "slas",
      "vistas",
      "custom_objects",
    ]) {
      expect(summary[family], family).toBeGreaterThan(0);
    }
  });

  it("makes every read operation return something", async () => {
    const works = await first("/works.list", "works");
    expect((await server.call("POST", "/works.export", { body: { first: 500 } })).body.works).toHaveLength(
      120,
    );
    const work = works[0] as { id: string };
    expect((await server.call("POST", "/works.get", { body: { id: work.id } })).status).toBe(200);
    const parts = await first("/parts.list", "parts");
    expect((await server.call("POST", "/parts.get", { body: { id: parts[0]?.id } })).status).toBe(200);
    await first("/tags.list", "tags");
    await first("/vistas.list", "vistas");
    await first("/org-schedules.list", "org_schedules");
    await first("/slas.list", "slas");
    await first("/code-changes.list", "code_changes");
    const changes = await first("/code-changes.list", "code_changes");
    expect((await server.call("POST", "/code-changes.get", { body: { id: changes[0]?.id } })).status).toBe(
      200,
    );
    const stages = await first("/stages.custom.list", "result");
    expect((await server.call("POST", "/stages.custom.get", { body: { id: stages[0]?.id } })).status).toBe(
      200,
    );
    const diagrams = await first("/stage-diagrams.list", "result");
    expect((await server.call("POST", "/stage-diagrams.get", { body: { id: diagrams[0]?.id } })).status).toBe(
      200,
    );
    const conversations = await first("/conversations.list", "conversations");
    expect(
      (await server.call("POST", "/conversations.get", { body: { id: conversations[0]?.id } })).status,
    ).toBe(200);
    const articles = await first("/articles.list", "articles");
    expect((await server.call("POST", "/articles.get", { body: { id: articles[0]?.id } })).status).toBe(200);
    const revOrgs = await first("/rev-orgs.list", "rev_orgs");
    expect((await server.call("POST", "/rev-orgs.get", { body: { id: revOrgs[0]?.id } })).status).toBe(200);
    const accounts = await first("/accounts.list", "accounts");
    expect((await server.call("POST", "/accounts.get", { body: { id: accounts[0]?.id } })).status).toBe(200);
    await first("/surveys.list", "surveys");
    await first("/dev-users.list", "dev_users");
    await first("/custom-objects.list", "result", { leaf_type: "campaign" });
    const count = await server.call("POST", "/custom-objects.count", { body: { leaf_type: "campaign" } });
    expect(count.body.count).toBe(20);
    const timeline = await first("/timeline-entries.list", "timeline_entries", { object: work.id });
    expect(
      (await server.call("POST", "/timeline-entries.get", { body: { id: timeline[0]?.id } })).status,
    ).toBe(200);
    await first("/auth-tokens.list", "tokens");
    const mobile = await server.call("POST", "/observability.sessions.data.get", {
      body: {
        version_key: "com.example.workspace",
        session_id: "mobile-session-1",
        recording_id: "recording-1",
      },
    });
    expect(mobile.status, JSON.stringify(mobile.body)).toBe(200);
    expect(mobile.body.recording).toBe("mobile_recording");
    expect(server.app.violations).toEqual([]);
  });
});

describe.each(databases)("seeded records on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
    await seed(server.store, server.org, server.admin, { works: 40 });
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it("answers artifacts.get with a version for every seeded artifact, each attached to a work or a message but the four loose ones", async () => {
    const stored = await server.store.findRecords<{ parent?: { id?: string } }>(server.org.id, "artifact", {
      limit: 10_000,
    });
    expect(stored.length).toBeGreaterThan(10);
    for (const artifact of stored) {
      const res = await server.post("/artifacts.get", { id: artifact.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.version, artifact.display_id).toMatchObject({ version: expect.any(String) });
      expect(res.body.artifact.file.size).toBeGreaterThan(0);
      // The first four are uploaded but not attached: the docs' examples attach them.
      if (["ARTIFACT-1", "ARTIFACT-2", "ARTIFACT-3", "ARTIFACT-4"].includes(artifact.display_id)) {
        expect(parentOf(artifact), artifact.display_id).toBeUndefined();
        continue;
      }
      expect(parentOf(artifact) ?? "", artifact.display_id).toMatch(
        /:(issue|ticket|task|incident|opportunity|timeline_entry)\//,
      );
    }
    const works = (await server.post("/works.export", { first: 500 })).body.works as Array<{
      artifacts?: unknown[];
    }>;
    expect(works.filter((work) => (work.artifacts ?? []).length > 0).length).toBe(10);
    const conversations = (await server.post("/conversations.list", {})).body.conversations as Array<{
      messages?: Array<{ artifacts?: unknown[] }>;
    }>;
    const withFiles = conversations.filter((c) => (c.messages?.[0]?.artifacts ?? []).length > 0);
    expect(withFiles.length).toBe(8);
    // A file with two uploads answers its first version when asked.
    const [first] = works.flatMap((work) => (work.artifacts ?? []) as Array<{ id: string }>);
    const v1 = await server.post("/artifacts.get", { id: first?.id, version: "1" });
    expect(v1.body.version.version).toBe("1");
    expect(server.app.violations).toEqual([]);
  });

  it("fills the members of every work and part type, every vista kind and comment references", async () => {
    const works = (await server.post("/works.export", { first: 500 })).body.works as Array<
      Record<string, unknown>
    >;
    expect(new Set(works.map((work) => work.type))).toEqual(
      new Set(["issue", "ticket", "task", "incident", "opportunity"]),
    );
    for (const issue of works.filter((work) => work.type === "issue")) {
      expect(issue).toMatchObject({
        priority: expect.stringMatching(/^p[0-3]$/),
        target_start_date: expect.any(String),
        sprint: { name: "Sprint 41" },
      });
    }
    for (const ticket of works.filter((work) => work.type === "ticket")) {
      expect(ticket).toMatchObject({
        severity: expect.any(String),
        account: { id: expect.any(String) },
        rev_org: { type: "rev_org", id: expect.any(String) },
        channels: [expect.any(String)],
        group: { id: expect.stringMatching(/^support-l/) },
        needs_response: expect.any(Boolean),
        sentiment: { label: "neutral" },
      });
    }
    const parts = (await server.post("/parts.list", { limit: 100 })).body.parts as Array<
      Record<string, unknown>
    >;
    expect(new Set(parts.map((part) => part.type))).toEqual(
      new Set(["product", "capability", "feature", "enhancement"]),
    );
    for (const enhancement of parts.filter((part) => part.type === "enhancement")) {
      expect(enhancement).toMatchObject({
        target_start_date: expect.any(String),
        target_close_date: expect.any(String),
        state_v2: "open",
      });
    }
    const vistas = (await server.post("/vistas.list", {})).body.vistas as Array<Record<string, unknown>>;
    expect(new Set(vistas.map((vista) => vista.type))).toEqual(new Set(["curated", "dynamic", "grouped"]));
    for (const vista of vistas.filter((v) => v.type !== "curated")) {
      expect(vista.filter_type, String(vista.name)).toEqual(expect.any(String));
    }
    const curated = vistas.find((v) => v.type === "curated") as { items: Array<Record<string, unknown>> };
    expect(curated.items[0]).toMatchObject({ title: expect.any(String), owned_by: expect.any(Array) });
    const issue = works.find((work) => work.type === "issue") as { id: string };
    const entries = (await server.post("/timeline-entries.list", { object: issue.id })).body.timeline_entries;
    const kinds = new Set((entries as Array<{ type: string }>).map((entry) => entry.type));
    expect(kinds).toEqual(new Set(["timeline_comment", "timeline_change_event"]));
    const second = works[1] as { id: string };
    const comments = (await server.post("/timeline-entries.list", { object: second.id })).body
      .timeline_entries;
    const comment = (comments as Array<Record<string, unknown>>).find((e) => e.type === "timeline_comment");
    expect(comment).toMatchObject({
      body_type: "text",
      references: [{ id: (works[0] as { id: string }).id }],
    });
    expect(server.app.violations).toEqual([]);
  });
});

describe("seed twice", () => {
  it("loads beside the organization's own records, reusing its tags, and is a no-op the second time", async () => {
    const server = await startTestServer("sqlite");
    const own = (await server.call("POST", "/tags.create", { body: { name: "bug" } })).body.tag;
    const first = await seed(server.store, server.org, server.admin, { works: 5 });
    expect(first.works).toBe(5);
    expect(first.tags).toBe(8); // "bug" was the organization's already
    const bugs = (await server.call("GET", "/tags.list?name=bug")).body.tags;
    expect(bugs.map((tag: { id: string }) => tag.id)).toEqual([own.id]);
    const works = await server.store.countRecords(server.org.id, "work");
    expect(await seed(server.store, server.org, server.admin, { works: 5 })).toEqual({});
    expect(await server.store.countRecords(server.org.id, "work")).toBe(works);
    await server.close();
  });
});

describe("the works of the seed", () => {
  it("bring the planner's statistics up to date before the first batch and whenever the works have doubled", async () => {
    const events: string[] = [];
    let made = 0;
    // Every operation answers a made-up work: what is counted here is when statistics are updated.
    const answer = async (name: string) => {
      if (name === "works.create") made++;
      return { id: "artifact", work: { id: `work-${made}`, display_id: `ISS-${made}` } };
    };
    const call = Object.assign(answer, { upload: answer }) as unknown as Call;
    const setup = {
      userIds: ["user"],
      tagIds: ["tag"],
      severity: "severity",
      partIds: ["part"],
      stageIds: {},
      accountIds: ["account"],
      sprint: "sprint",
    };
    const works = await makeWorks(async (fn) => fn(call), { rnd: random(1), count: () => {} }, setup, {
      total: 2100,
      seed: 1,
      updateStatistics: async () => void events.push(`statistics at ${made}`),
    });
    expect(works.workIds).toHaveLength(2100);
    expect(events).toEqual([
      "statistics at 0",
      "statistics at 250",
      "statistics at 500",
      "statistics at 1000",
      "statistics at 2000",
    ]);
  });
});
