// The scope rule of lists over typed families (works, parts).
import { apiError } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";

/**
 * The types a list over a typed family (works, parts) may show. Types asked for explicitly must each be
 * allowed by the token (403 otherwise, naming none of the records). Without a `type` filter the answer
 * holds only the types the token may read; a token that may read none of them gets 403.
 */
export function readableTypes(
  ctx: Context,
  asked: readonly string[] | undefined,
  all: readonly string[],
): string[] {
  if (asked && asked.length > 0) {
    for (const type of asked) ctx.requireType(type, []);
    return [...new Set(asked)];
  }
  const allowed = all.filter((type) => ctx.allowsType(type));
  if (allowed.length === 0) {
    throw apiError(
      "forbidden",
      `This needs the read, write or all scope of at least one of: ${all.join(", ")}.`,
      { object_ids: [] },
    );
  }
  return allowed;
}
