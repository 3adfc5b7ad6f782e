// The demo data set: after `seed`, every read operation of the contract returns something.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/seed.js";
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

describe("seed twice", () => {
  it("refuses to seed an organization that already holds data, saying what to do", async () => {
    const server = await startTestServer("sqlite");
    await seed(server.store, server.org, server.admin, { works: 5 });
    await expect(seed(server.store, server.org, server.admin, { works: 5 })).rejects.toThrow(
      /already holds data.*--data-dir/,
    );
    await server.close();
  });
});
