import type { Survey } from "@workapi/types";
import { checkCustomFields } from "./changes.js";
import { allOf, listPage } from "./common.js";
import { refIn, valueIn } from "./filters.js";
import { FAMILIES } from "./refs.js";
import type { Handlers } from "./types.js";

export const surveys = {
  // The length bounds of the texts are the contract's (checked before the handler runs).
  "surveys.create": async (ctx, input) => {
    const { custom_fields, custom_schema_spec, ...fields } = input;
    const fragments = checkCustomFields(custom_fields, custom_schema_spec, "survey");
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.survey,
      label: input.name,
      data: {
        ...fields,
        schema: input.schema ?? [],
        schema_with_metadata: input.schema_with_metadata ?? [],
        ...(custom_fields !== undefined ? { custom_fields } : {}),
        ...(fragments.length > 0 ? { custom_schema_fragments: fragments } : {}),
      },
    });
    return { survey: record.data };
  },

  // sort_by: name, created_date, modified_date, object_version.
  "surveys.list": async (ctx, input) => {
    const { items, ...cursors } = await listPage<Survey>(ctx, FAMILIES.survey.kind, input, {
      filter: allOf(valueIn("label", input.name), refIn("created_by", input.created_by)),
      sortable: { name: { path: "label" } },
    });
    return { surveys: items, ...cursors };
  },
} satisfies Partial<Handlers>;
