// Records the work group's suites build on, made through their HTTP create operations; users and tags, which
// have none, are written through the store.
import { expect } from "vitest";
import { FAMILIES } from "../src/operations/support/references.js";
import type { DevUser } from "../src/store/types.js";
import { createTag } from "./fixtures.js";
import type { TestServer } from "./harness.js";

let users = 0;

export async function createUser(server: TestServer, name: string): Promise<DevUser> {
  users += 1;
  return server.store.createDevUser(server.org, { email: `user${users}@example.com`, full_name: name });
}

export async function tag(server: TestServer, name: string) {
  return createTag(server.store, server.actor, name);
}

export async function artifact(server: TestServer, name: string) {
  const body = await ok(server, "/artifacts.prepare", { file_name: name, file_type: "text/plain" });
  const record = await server.store.getRecord(server.org.id, ["artifact"], body.id);
  return { id: body.id as string, display_id: record?.display_id as string };
}

export async function vista(server: TestServer, name: string, itemIds: string[], token?: string) {
  const body = await ok(
    server,
    "/vistas.create",
    { name, type: "curated", object_type: "works", items: itemIds.map((id) => ({ id })) },
    token,
  );
  return body.vista as { id: string; display_id: string };
}

/** Calls an operation that must succeed and returns the body. */
export async function ok(
  server: TestServer,
  path: string,
  body: unknown,
  token?: string,
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in each test
): Promise<any> {
  const res = await server.call("POST", path, { body, ...(token ? { token } : {}) });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

export async function createPart(
  server: TestServer,
  type: "product" | "capability" | "feature" | "enhancement",
  name: string,
  parent?: string,
  extra: Record<string, unknown> = {},
) {
  const body = await ok(server, "/parts.create", {
    type,
    name,
    owned_by: [server.admin.id],
    ...(parent ? { parent_part: [parent] } : {}),
    ...extra,
  });
  return body.part as { id: string; display_id: string; name: string; type: string };
}

/** A product with a capability and, under it, a feature: the parts most work-item tests file their works under. */
export async function createFeature(server: TestServer) {
  const product = await createPart(server, "product", "Reports");
  const capability = await createPart(server, "capability", "Reporting", product.id);
  const feature = await createPart(server, "feature", "Report export", capability.id);
  return { product, feature };
}

export async function createWork(
  server: TestServer,
  fields: Record<string, unknown> & { applies_to_part: string },
  token?: string,
) {
  const body = await ok(
    server,
    "/works.create",
    { type: "issue", title: "A work", owned_by: [server.admin.id], ...fields },
    token,
  );
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in each test
  return body.work as any;
}

/** The built-in states, created on first use: open, in_progress, closed. */
export const STATE = { open: "STATE-1", in_progress: "STATE-2", closed: "STATE-3" } as const;

export async function createStage(
  server: TestServer,
  name: string,
  state: keyof typeof STATE = "open",
  ordinal = 10,
) {
  const body = await ok(server, "/stages.custom.create", { name, ordinal, state: STATE[state] });
  return body.custom_stage as { id: string; display_id: string; name: string };
}

/** A diagram from `{stage id: [target stage ids]}`; the first stage starts. */
export async function createDiagram(
  server: TestServer,
  leafType: string,
  edges: Array<[string, string[]]>,
  extra: Record<string, unknown> = {},
) {
  const body = await ok(server, "/stage-diagrams.create", {
    leaf_type: leafType,
    name: `${leafType} flow`,
    stages: edges.map(([stage, targets], index) => ({
      stage_id: stage,
      ...(index === 0 ? { is_start: true } : {}),
      transitions: targets.map((target) => ({ target_stage_id: target })),
    })),
    ...extra,
  });
  return body.stage_diagram as { id: string; display_id: string };
}

/** The change events recorded on a record's timeline, straight from the store (also after a delete). */
export async function changeEvents(server: TestServer, id: string) {
  const entries = await server.store.findRecords<{ event?: { type?: string } } & Record<string, unknown>>(
    server.org.id,
    FAMILIES.timeline_entry.kind,
    { filter: { op: "eq", path: "parent_id", value: id }, limit: 100 },
  );
  return entries.filter((entry) => entry.subtype === "timeline_change_event").map((entry) => entry.data);
}
