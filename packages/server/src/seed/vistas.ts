// Vistas: the active sprint issues are planned in, and the views made once the works exist.
import type { Builder } from "./context.js";

/** The active sprint board; returns its id. */
export async function makeSprint({ call, count }: Builder): Promise<string> {
  const { vista: sprint } = await call("vistas.create", {
    name: "Sprint 41",
    type: "grouped",
    flavor: "sprint_board",
    object_type: "works",
    state: "active",
  });
  count("vistas");
  return sprint.id;
}

/** A curated list, two dynamic views and the planned sprint, over the works made. */
export async function makeVistas({ call, count }: Builder, workIds: string[]): Promise<void> {
  await call("vistas.create", {
    name: "My open issues",
    type: "curated",
    object_type: "works",
    items: workIds.slice(0, 10).map((id) => ({ id })),
  });
  await call("vistas.create", {
    name: "Support inbox",
    type: "dynamic",
    flavor: "support_inbox",
    object_type: "conversations",
    filter: { stage: { name: ["triage"] } },
  });
  await call("vistas.create", {
    name: "Urgent tickets",
    type: "dynamic",
    object_type: "works",
    filter: { type: ["ticket"], ticket: { severity: ["blocker", "high"] } },
  });
  await call("vistas.create", {
    name: "Sprint 42",
    type: "grouped",
    flavor: "sprint_board",
    object_type: "works",
    state: "planned",
    items: workIds.slice(10, 20).map((id) => ({ id })),
  });
  count("vistas", 4);
}
