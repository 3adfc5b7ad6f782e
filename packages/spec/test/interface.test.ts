// Holds the bundled contract against the interface document (shared/seeds): every operation of its endpoint
// table, with the methods the interface and the facts sheet give, and every field of every record and shared
// shape it lists. The lists below are data copied by hand from the document; a missing operation or field
// in spec/ fails here.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../index.js";

const spec = loadSpec();

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

/** Resolves local refs and merges allOf members, so the properties of a record can be listed. */
function properties(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return properties(spec.components.schemas?.[name] as Schema | undefined);
  }
  const own = { ...(schema.properties ?? {}) };
  for (const part of schema.allOf ?? []) Object.assign(own, properties(part));
  return own;
}

function schema(name: string): Schema {
  const found = spec.components.schemas?.[name] as Schema | undefined;
  if (!found) throw new Error(`components.schemas.${name} is missing`);
  return found;
}

/** Follows a dotted path of properties (array items are entered transparently). */
function at(name: string, path: string[]): Schema {
  let current: Schema = schema(name);
  for (const key of path) {
    let props = properties(current);
    if (!props[key] && current.items) props = properties(current.items);
    const next = props[key];
    if (!next) throw new Error(`${name}.${path.join(".")}: no property ${key}`);
    current = next.items && !next.properties && !next.allOf && !next.$ref ? next.items : next;
  }
  return current;
}

const interfaceOperations: Array<[method: string, path: string]> = [
  ["get", "/auth-tokens.list"],
  ["post", "/vistas.list"],
  ["post", "/org-schedules.list"],
  ["post", "/works.export"],
  ["get", "/works.export"],
  ["post", "/works.delete"],
  ["get", "/slas.list"],
  ["post", "/slas.update"],
  ["post", "/artifacts.get"],
  ["post", "/code-changes.get"],
  ["get", "/code-changes.get"],
  ["post", "/parts.delete"],
  ["post", "/parts.create"],
  ["post", "/parts.get"],
  ["post", "/surveys.create"],
  ["post", "/observability.sessions.data.get"],
  ["post", "/org-schedule-fragments.create"],
  ["get", "/stages.custom.get"],
  ["get", "/custom-objects.count"],
  ["get", "/tags.list"],
  ["post", "/stage-diagrams.update"],
  ["post", "/conversations.create"],
  ["get", "/timeline-entries.get"],
  ["post", "/rev-orgs.create"],
  ["get", "/articles.get"],
];

const base = [
  "created_by",
  "created_date",
  "display_id",
  "id",
  "modified_by",
  "modified_date",
  "object_version",
];

const recordFields: Record<string, string[]> = {
  UserSummary: ["type", "display_id", "id", "display_name", "display_picture", "email", "full_name", "state"],
  FileRef: ["type", "name", "size"],
  ArtifactSummary: ["display_id", "id", "file"],
  SyncUnit: [
    "display_id",
    "id",
    "external_sync_unit_name",
    "external_system_id",
    "external_system_name",
    "external_system_type",
    "is_archived",
    "name",
    "sync_run",
    "sync_type",
  ],
  SyncMetadataShort: ["external_reference", "last_sync_in", "origin_system"],
  SyncMetadata: [
    "external_record_id",
    "external_record_type",
    "external_reference",
    "last_sync_in",
    "last_sync_out",
    "origin_system",
  ],
  TagWithValue: ["tag", "value"],
  StageInfo: ["name", "notes", "ordinal", "stage", "state"],
  EnumValue: ["color", "id", "label", "ordinal", "value"],
  OrgScheduleSummary: ["display_id", "id", "name", "status", "timezone", "valid_until", "version_number"],
  PartSummary: ["type", "display_id", "id", "name", "owned_by", "sync_metadata"],
  FieldDescriptor: [
    "field_type",
    "description",
    "is_derived",
    "is_filterable",
    "is_immutable",
    "is_pii",
    "is_required",
    "mfz",
    "name",
    "oasis",
    "origin",
    "default_value",
    "ui",
  ],
  SlaSummary: [
    "closest_to_breach_metric",
    "org_schedule",
    "remaining_time",
    "sla_tracker",
    "stage",
    "target_time",
  ],
  SlaTracker: [
    ...base,
    "applies_to_id",
    "applies_to_type",
    "metric_target_summaries",
    "removed_sla_metric_history",
    "sla",
    "sla_policy_id",
    "stage",
    "status",
  ],
  AuthToken: [
    ...base,
    "client_id",
    "expires_at",
    "issued_at",
    "requested_token_type",
    "scopes",
    "status",
    "subject",
    "token_hint",
  ],
  Vista: [...base, "type", "is_default", "name", "shared_with", "items"],
  OrgSchedule: [
    ...base,
    "default_weekly_org_schedule",
    "min_valid_days",
    "name",
    "org_schedule_fragments",
    "status",
    "timezone",
    "valid_until",
    "weekly_org_schedules",
  ],
  OrgScheduleFragment: [
    ...base.filter((field) => field !== "object_version"),
    "from",
    "intervals",
    "name",
    "region_codes",
    "status",
    "to",
  ],
  Work: [
    ...base,
    "type",
    "actual_close_date",
    "actual_start_date",
    "target_close_date",
    "target_start_date",
    "applies_to_part",
    "artifacts",
    "body",
    "custom_fields",
    "custom_schema_fragments",
    "external_ref",
    "owned_by",
    "reported_by",
    "stage",
    "state_display_name",
    "stock_schema_fragment",
    "subtype",
    "sync_metadata",
    "tags",
    "title",
    "developed_with",
    "display_id_alias",
    "estimated_effort",
    "last_code_activity",
    "priority",
    "priority_v2",
    "sla_summary",
    "sla_tracker",
    "space",
    "sprint",
  ],
  Sla: [
    ...base,
    "account_filter",
    "compensation",
    "description",
    "evaluation_period",
    "name",
    "policies",
    "sla_type",
    "status",
  ],
  Artifact: [...base, "file"],
  ArtifactVersion: ["modified_by", "timestamp", "version"],
  CodeChange: [
    ...base,
    "branch",
    "closed_date",
    "commit_id",
    "description",
    "external_identifier",
    "filtered_loc",
    "total_loc",
    "repo_url",
    "source",
    "target_branch",
    "title",
  ],
  Survey: [
    ...base,
    "description",
    "header",
    "introductory_text",
    "name",
    "response_text",
    "title",
    "schema",
    "schema_with_metadata",
  ],
  MobileSessionRecording: [
    "recording",
    "app_launch",
    "available_ram",
    "total_ram",
    "created_at",
    "device_metadata",
    "observability_sessions_log_data",
    "recording_events_timeline",
    "recording_id",
    "rev_org_id",
    "rev_user_id",
    "session_id",
    "user_attributes",
    "video_playback_data",
  ],
  CustomStage: [...base, "name", "ordinal", "state", "sync_metadata"],
  StageDiagram: [
    ...base,
    "is_custom_leaf_type",
    "is_default",
    "leaf_type",
    "name",
    "stages",
    "sync_metadata",
  ],
  Tag: [...base, "allowed_values", "description", "name", "style_new", "sync_metadata"],
  Conversation: [
    ...base,
    "account",
    "actual_close_date",
    "ai_resolution_status",
    "applies_to_parts",
    "channels",
    "custom_fields",
    "custom_schema_fragments",
    "description",
    "group",
    "is_frozen",
    "last_external_message_date",
    "members",
    "messages",
    "metadata",
    "owned_by",
    "sentiment",
    "sentiment_modified_date",
    "sentiment_summary",
    "sla_summary",
    "sla_tracker",
    "source_channel",
    "source_channel_v2",
    "stage",
    "stock_schema_fragment",
    "subtype",
    "sync_metadata",
    "tags",
    "title",
  ],
  TimelineEntry: [
    ...base,
    "type",
    "external_ref",
    "labels",
    "object",
    "object_display_id",
    "object_type",
    "panels",
    "reactions",
    "sync_metadata",
    "thread",
    "visibility",
    "event",
  ],
  RevOrg: [
    ...base,
    "display_name",
    "account",
    "artifacts",
    "custom_fields",
    "custom_schema_fragments",
    "description",
    "domain",
    "external_ref",
    "primary_rev_org",
    "stock_schema_fragment",
    "subtype",
    "tags",
  ],
  Article: [
    ...base,
    "applies_to_parts",
    "article_type",
    "authored_by",
    "description",
    "extracted_content",
    "num_downvotes",
    "num_upvotes",
    "owned_by",
    "parent",
    "rank",
    "resource",
    "scope",
    "status",
    "sync_metadata",
    "tags",
    "title",
  ],
  // Records of the companion operations (beyond the interface document), as the facts sheet gives them.
  DevUser: [...base, "display_name", "email", "full_name", "state", "display_picture"],
  Account: [
    ...base,
    "display_name",
    "description",
    "domains",
    "external_refs",
    "owned_by",
    "tier",
    "websites",
  ],
  CustomObject: [
    ...base,
    "leaf_type",
    "title",
    "unique_key",
    "custom_fields",
    "custom_schema_fragments",
    "stage",
  ],
};

/** Nested objects whose members the interface spells out: [schema, path, fields]. */
const nestedFields: Array<[string, string[], string[]]> = [
  ["UserSummary", ["display_picture"], ["display_id", "id", "file"]],
  ["SyncUnit", ["sync_run"], ["mode", "progress", "reserved_rate_limit_percentage"]],
  ["SyncMetadata", ["last_sync_in"], ["status", "sync_date", "sync_unit"]],
  ["SyncMetadata", ["last_sync_out"], ["status", "sync_date", "sync_unit"]],
  ["TagWithValue", ["tag"], ["display_id", "id", "name", "style_new", "sync_metadata"]],
  ["StageInfo", ["state"], ["display_id", "id", "is_final", "name", "sync_metadata"]],
  [
    "FieldDescriptor",
    ["ui"],
    [
      "card_view",
      "client_overrides",
      "create_view",
      "detail_view",
      "filter_view",
      "list_view",
      "summary_view",
      "decimal_places",
      "display_name",
      "group_name",
      "is_active_in_detail_view",
      "is_bulk_action_enabled",
      "is_currency_field",
      "is_groupable",
      "is_hidden",
      "is_hidden_during_create",
      "is_read_only",
      "is_required",
      "is_shown_in_summary",
      "is_sortable",
      "order",
      "placeholder",
      "search_query",
      "tooltip",
      "unit",
      "use_shorthand_notation",
    ],
  ],
  [
    "FieldDescriptor",
    ["ui", "client_overrides"],
    [
      "client_name",
      "decimal_places",
      "display_name",
      "is_groupable",
      "is_hidden",
      "is_required",
      "order",
      "placeholder",
      "search_query",
      "tooltip",
      "use_shorthand_notation",
      "view_overrides",
    ],
  ],
  ["FieldDescriptor", ["ui", "client_overrides", "view_overrides"], ["view_name", "display_name", "order"]],
  [
    "SlaTracker",
    ["metric_target_summaries"],
    [
      "breached_at",
      "completed_at",
      "completed_in",
      "completed_in_seconds",
      "in_policy",
      "is_out_of_schedule",
      "metric_definition",
      "next_schedule_transition",
      "org_schedule",
      "org_schedule_version",
      "remaining_time",
      "stage",
      "status",
      "target_time",
      "warning_target_time",
    ],
  ],
  ["SlaTracker", ["removed_sla_metric_history"], ["metric_definition", "removed_at", "removed_by"]],
  ["SlaTracker", ["sla"], ["display_id", "id", "name", "sla_type", "status"]],
  ["Vista", ["shared_with"], ["member", "role"]],
  ["Vista", ["items"], ["type", "display_id", "id", "display_name"]],
  ["Work", ["sprint"], ["type", "end_date", "id", "name", "start_date", "state"]],
  ["Work", ["sla_tracker"], ["display_id", "id", "applies_to_type"]],
  ["CodeChange", ["total_loc"], ["file_count", "lines_added", "lines_deleted", "lines_modified"]],
  ["Survey", ["schema_with_metadata"], ["field", "metadata", "question"]],
  ["MobileSessionRecording", ["app_launch"], ["launch_time_ms", "launch_type"]],
  [
    "MobileSessionRecording",
    ["device_metadata"],
    [
      "app_version",
      "manufacturer",
      "model",
      "network_type",
      "os_version",
      "plug_sdk_version",
      "screen_height",
      "screen_width",
      "sdk_version",
    ],
  ],
  [
    "MobileSessionRecording",
    ["recording_events_timeline"],
    [
      "coordinates",
      "custom_tag",
      "event_name",
      "event_properties",
      "event_type",
      "exception_class_name",
      "exception_tag",
      "input_type",
      "name",
      "non_responsive",
      "object_name",
      "request_properties",
      "response_properties",
      "screen",
      "timestamp_offset_ms",
    ],
  ],
  [
    "MobileSessionRecording",
    ["video_playback_data"],
    ["end_frame", "frame_image_map", "frames", "presigned_url", "start_frame"],
  ],
  ["StageDiagram", ["stages"], ["is_deprecated", "is_start", "stage", "transitions"]],
  ["StageDiagram", ["stages", "transitions"], ["target_stage"]],
  ["Conversation", ["group"], ["display_id", "id", "member_type", "name", "parents", "sync_metadata"]],
  ["TimelineEntry", ["event"], ["created", "deleted", "linked", "updated"]],
  ["TimelineEntry", ["event", "updated"], ["field_deltas", "object_type"]],
  [
    "TimelineEntry",
    ["event", "updated", "field_deltas"],
    ["field_descriptor", "name", "new_value", "old_value"],
  ],
  [
    "TimelineEntry",
    ["event", "linked", "link"],
    ["display_id", "id", "link_type", "source", "sync_metadata", "target"],
  ],
  ["TimelineEntry", ["reactions"], ["emoji", "reacted", "total_users"]],
  ["RevOrg", ["primary_rev_org"], ["type", "display_id", "id", "display_name"]],
  ["Article", ["parent"], ["display_id", "id", "sync_metadata", "title"]],
  ["Article", ["resource"], ["artifacts", "url"]],
];

describe("the contract covers the interface document", () => {
  it.each(interfaceOperations)("has %s %s", (method, path) => {
    const item = spec.paths[path] as Record<string, unknown> | undefined;
    expect(item, `path ${path}`).toBeDefined();
    expect(item?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it("gives every read its twin method and every path one interface name", () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      const operations = Object.values(item) as Array<{ "x-interface-name"?: string; "x-safe"?: boolean }>;
      const names = new Set(operations.map((operation) => operation["x-interface-name"]));
      expect([...names], path).toEqual([path.slice(1)]);
      if (operations.some((operation) => operation["x-safe"])) {
        expect(Object.keys(item).sort(), `${path} is a read`).toEqual(["get", "post"]);
      }
    }
  });

  it.each(Object.entries(recordFields))("%s has every field the interface lists", (name, fields) => {
    const own = Object.keys(properties(schema(name)));
    expect(fields.filter((field) => !own.includes(field))).toEqual([]);
  });

  it.each(nestedFields)("%s.%s has every field the interface lists", (name, path, fields) => {
    const own = Object.keys(properties(at(name, path)));
    expect(fields.filter((field) => !own.includes(field))).toEqual([]);
  });
});
