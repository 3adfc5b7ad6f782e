import type { CodeChange } from "@workapi/types";
import { mustGet } from "./common.js";
import type { Handlers } from "./types.js";

export const codeChanges = {
  "code-changes.get": async (ctx, input) => {
    const record = await mustGet<CodeChange>(ctx, ["code_change"], input.id, "Code change");
    return { code_change: record.data };
  },
} satisfies Partial<Handlers>;
