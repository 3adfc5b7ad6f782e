// The organization's people, their access tokens and its tags (one of which takes a value).
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

/**
 * Two personal access tokens of the admin, for scripts. On a fresh organization, whose first token is the
 * admin's own (TOKEN-1), they are TOKEN-2 and TOKEN-3: the docs' auth-tokens.delete example revokes TOKEN-3.
 */
export async function makeTokens({ call, count }: Builder): Promise<void> {
  for (const [hint, scope] of [
    ["nightly export", "issue:read ticket:read"],
    ["status page", "incident:read"],
  ] as const) {
    await call("auth-tokens.create", {
      requested_token_type: "urn:vendor:params:oauth:token-type:pat",
      scope,
      expires_in: 31_536_000,
      token_hint: hint,
    });
    count("auth_tokens");
  }
}

/** Eight plain tags and the severity tag. */
export async function makeTags(builder: Builder): Promise<{ tagIds: string[]; severity: string }> {
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
    tagIds.push(await tagNamed(builder, name, { name, description: `Work concerning ${name}.` }));
  }
  const severity = await tagNamed(builder, "severity", {
    name: "severity",
    description: "How bad it is.",
    allowed_values: ["low", "medium", "high"],
  });
  return { tagIds, severity };
}

/** The id of the tag named `name`: the organization's own when it has one (names are unique), else a new one. */
async function tagNamed(
  { call, count }: Builder,
  name: string,
  create: { name: string; description: string; allowed_values?: string[] },
): Promise<string> {
  const { tags } = await call("tags.list", { name: [name] });
  const existing = tags.find((tag) => tag.name === name);
  if (existing) return existing.id;
  const { tag } = await call("tags.create", create);
  count("tags");
  return tag.id;
}
