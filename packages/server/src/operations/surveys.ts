import type { Survey } from "@workapi/types";
import type { Handlers } from "../core/handlers.js";
import { checkCustomFields } from "./support/change-events.js";
import { withFieldType } from "./support/field-types.js";
import { refIn, valueIn } from "./support/filters.js";
import { allOf, listPage } from "./support/records.js";
import { FAMILIES } from "./support/references.js";

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
        // Every answered field has a field_type; the request's may leave it out (support/field-types.ts).
        schema: (input.schema ?? []).map(withFieldType),
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
    // Surveys stored before fields got their field_type get it here, by the same rule.
    return {
      surveys: items.map((survey) => ({ ...survey, schema: (survey.schema ?? []).map(withFieldType) })),
      ...cursors,
    };
  },
} satisfies Partial<Handlers>;
