import type { Conversation, TimelineEntry } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import { referencesIn } from "./support/atom-summaries.js";
import { type ArtifactRef, attachArtifacts, checkArtifacts } from "./support/attachments.js";
import { checkCustomFields, recordChange } from "./support/change-events.js";
import { refAny, refIn, valueIn } from "./support/filters.js";
import { allOf, mustGet, storedPage } from "./support/records.js";
import { FAMILIES, resolveRecord, resolveStage, resolveTags, resolveUsers } from "./support/references.js";

const OBJECT_TYPE = "conversation";

/** The stock values of the AI resolution status enumeration (the organization defines no others here). */
const AI_RESOLUTION_STATUSES = [
  { id: 1, label: "deflected", ordinal: 1 },
  { id: 2, label: "escalated", ordinal: 2 },
];

export const conversations = {
  "conversations.create": async (ctx, input) => {
    const fragments = checkCustomFields(input.custom_fields, input.custom_schema_spec, OBJECT_TYPE);
    const aiResolutionStatus = aiResolutionStatusOf(input.ai_resolution_status);
    const account = input.account === undefined ? undefined : await accountOf(ctx, input.account);
    // Every message's files, checked before anything is written.
    const messageArtifacts: ArtifactRef[][] = [];
    for (const [index, message] of (input.messages ?? []).entries()) {
      messageArtifacts.push(await checkArtifacts(ctx, `messages.${index}.artifacts`, message.artifacts));
    }
    // Brands, channels, groups and AI agents are not records of this server: their ids are kept as given.
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.conversation,
      label: input.title ?? "",
      subtype: input.type,
      data: {
        type: input.type,
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(account ? { account } : {}),
        ...(aiResolutionStatus ? { ai_resolution_status: aiResolutionStatus } : {}),
        ...(input.brand !== undefined ? { brand: { id: input.brand } } : {}),
        channels: (input.channels ?? []).map((id) => ({ id })),
        custom_fields: input.custom_fields ?? {},
        custom_schema_fragments: fragments,
        ...(input.group !== undefined ? { group: { id: input.group } } : {}),
        is_frozen: false,
        ...(input.is_from_source_channel !== undefined
          ? { is_from_source_channel: input.is_from_source_channel }
          : {}),
        is_spam: input.is_spam ?? false,
        members: await resolveUsers(ctx, "members", input.members),
        messages: [] as TimelineEntry[],
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        owned_by: await resolveUsers(ctx, "owned_by", input.owned_by),
        ...(input.owned_by_agent !== undefined ? { owned_by_agent: { id: input.owned_by_agent } } : {}),
        ...(input.source_channel !== undefined ? { source_channel: input.source_channel } : {}),
        // Channels are not records of this server: the configured channel is kept by the id given.
        ...(input.source_channel_v2 !== undefined
          ? { source_channel_v2: { id: input.source_channel_v2 } }
          : {}),
        ...(typeof input.custom_schema_spec?.subtype === "string"
          ? { subtype: input.custom_schema_spec.subtype }
          : {}),
        ...(input.stage ? { stage: await resolveStage(ctx, "stage", input.stage) } : {}),
        tags: await resolveTags(ctx, "tags", input.tags),
      },
    });
    await recordChange(ctx, record, OBJECT_TYPE, { created: true });
    if (!input.messages?.length) return { conversation: record.data };

    const messages = await createMessages(ctx, record, input.messages, messageArtifacts);
    const updated = await ctx.store.updateRecord<Record<string, unknown>>(
      ctx.actor,
      FAMILIES.conversation.kind,
      record.id,
      (current) => ({ data: { ...current.data, messages } }),
    );
    return { conversation: updated.data as Conversation };
  },

  "conversations.get": async (ctx, input) => {
    const record = await mustGet<Conversation>(ctx, [FAMILIES.conversation.kind], input.id, "Conversation");
    return { conversation: record.data };
  },

  // sort_by: title, created_date, modified_date, object_version.
  "conversations.list": async (ctx, input) => {
    return storedPage<"conversations", Conversation>(
      ctx,
      "conversations",
      FAMILIES.conversation.kind,
      input,
      {
        filter: allOf(
          refIn("account", input.account),
          refAny("members", input.members),
          refAny("owned_by", input.owned_by),
          valueIn("source_channel", input.source_channel),
          valueIn("stage.name", input.stage?.name),
          refAny("tags", input.tags, "tag"),
        ),
        sortable: { title: { path: "label" } },
      },
    );
  },
} satisfies Partial<Handlers>;

/** The stock AI resolution status of an id, or undefined when none is sent; an unknown id is refused. */
function aiResolutionStatusOf(id: number | undefined): (typeof AI_RESOLUTION_STATUSES)[number] | undefined {
  if (id === undefined) return undefined;
  const status = AI_RESOLUTION_STATUSES.find((value) => value.id === id);
  if (status) return status;
  throw notPermitted(
    "ai_resolution_status",
    "not a value of the enumeration",
    `AI resolution status ${id} does not exist; use ${AI_RESOLUTION_STATUSES.map((v) => `${v.id} (${v.label})`).join(" or ")}.`,
    AI_RESOLUTION_STATUSES.map((value) => String(value.id)),
  );
}

/** The account a conversation names, as the conversation shows it. */
async function accountOf(ctx: Context, id: string) {
  const record = await resolveRecord<{ display_name?: string }>(
    ctx,
    "account",
    [FAMILIES.account.kind],
    id,
    "Account",
  );
  return { id: record.id, display_id: record.display_id, display_name: record.data.display_name ?? "" };
}

/** Each initial message as a comment on the conversation's timeline, with its (already checked) files. */
async function createMessages(
  ctx: Context,
  conversation: { id: string; display_id: string },
  sent: NonNullable<Input<"conversations.create">["messages"]>,
  messageArtifacts: ArtifactRef[][],
): Promise<TimelineEntry[]> {
  const messages: TimelineEntry[] = [];
  for (const [index, message] of sent.entries()) {
    const artifacts = messageArtifacts[index] ?? [];
    const entry = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.timeline_entry,
      subtype: "timeline_comment",
      parent_id: conversation.id,
      data: {
        type: "timeline_comment",
        object: conversation.id,
        object_display_id: conversation.display_id,
        object_type: OBJECT_TYPE,
        visibility: "external" as const,
        ...(message.body !== undefined ? { body: message.body } : {}),
        body_type: "text" as const,
        references: await referencesIn(ctx, message.body),
        artifacts,
      },
    });
    await attachArtifacts(ctx, `messages.${index}.artifacts`, artifacts, entry.id);
    messages.push(entry.data);
  }
  return messages;
}
