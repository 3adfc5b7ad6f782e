// The organization's people and its tags (one of which takes a value).
import type { DevUser, Org, Store } from "../store/types.js";
import type { Builder, Count } from "./context.js";

/** The admin and four more dev users; returns their ids, the admin first. */
export async function makePeople(tx: Store, org: Org, admin: DevUser, count: Count): Promise<string[]> {
  const users = [admin];
  for (const [full, email] of [
    ["Ada Lovelace", "ada@example.com"],
    ["Grace Hopper", "grace@example.com"],
    ["Alan Turing", "alan@example.com"],
    ["Katherine Johnson", "katherine@example.com"],
  ] as const) {
    users.push(await tx.createDevUser(org, { email, full_name: full }));
    count("dev_users");
  }
  return users.map((user) => user.id);
}

/** Eight plain tags and the severity tag. */
export async function makeTags({ call, count }: Builder): Promise<{ tagIds: string[]; severity: string }> {
  const tagIds: string[] = [];
  for (const name of [
    "bug",
    "regression",
    "customer-reported",
    "security",
    "performance",
    "ux",
    "backend",
    "mobile",
  ]) {
    const { tag } = await call("tags.create", { name, description: `Work concerning ${name}.` });
    tagIds.push(tag.id);
    count("tags");
  }
  const { tag: severity } = await call("tags.create", {
    name: "severity",
    description: "How bad it is.",
    allowed_values: ["low", "medium", "high"],
  });
  count("tags");
  return { tagIds, severity: severity.id };
}
