import type { DevUser as ApiDevUser } from "@workapi/types";
import type { Handlers } from "../core/handlers.js";
import { pageInMemory } from "../store/cursors.js";
import type { DevUser } from "../store/types.js";
import { sortKeys } from "./support/records.js";

/** A user of the organization as the DevUser schema shows it (the store's user carries no change history). */
function devUser(user: DevUser): ApiDevUser {
  return {
    id: user.id,
    display_id: user.display_id,
    created_date: user.created_date,
    display_name: user.display_name,
    email: user.email,
    full_name: user.full_name,
    state: user.state,
  };
}

const FIELDS: Record<string, (user: DevUser) => string> = {
  created_date: (user) => user.created_date,
  display_name: (user) => user.display_name,
  email: (user) => user.email,
  full_name: (user) => user.full_name,
};

export const devUsers = {
  "dev-users.self": async (ctx) => ({ dev_user: devUser(ctx.user) }),

  // sort_by: created_date, display_name, email, full_name.
  "dev-users.list": async (ctx, input) => {
    const emails = input.email?.map((email) => email.toLowerCase());
    const users = (await ctx.store.listDevUsers(ctx.org.id)).filter(
      (user) =>
        (!emails?.length || emails.includes(user.email.toLowerCase())) &&
        (!input.state?.length || input.state.includes(user.state)),
    );
    const sort = sortKeys(
      input.sort_by,
      Object.fromEntries(Object.keys(FIELDS).map((name) => [name, { path: name }])),
    );
    const { items, ...cursors } = pageInMemory(users, (user, path) => FIELDS[path]?.(user) ?? "", {
      list: "dev_user",
      scope: [emails ?? [], input.state ?? []],
      ...(sort ? { sort } : {}),
      ...(input.cursor ? { cursor: input.cursor } : {}),
      mode: input.mode ?? "after",
      limit: input.limit ?? 50,
    });
    return { dev_users: items.map(devUser), ...cursors };
  },
} satisfies Partial<Handlers>;
