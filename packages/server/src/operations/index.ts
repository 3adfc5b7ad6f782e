// Every operation's handler, keyed by the interface name; both methods of a read share one.
import { articles } from "./articles.js";
import { authTokens } from "./auth-tokens.js";
import { codeChanges } from "./code-changes.js";
import { tags } from "./tags.js";
import type { Handlers } from "./types.js";

export const handlers: Partial<Handlers> = {
  ...articles,
  ...authTokens,
  ...codeChanges,
  ...tags,
};
