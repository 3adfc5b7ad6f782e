import type { Artifact, ArtifactVersion } from "@workapi/types";
import { fieldError, notFound, notPermitted } from "../core/errors.js";
import type { FormFile } from "../core/form-file.js";
import type { Context, Handlers } from "../core/handlers.js";
import type { StoredRecord } from "../store/types.js";
import { ARTIFACT_VERSION, parentOf, requireReadAccess } from "./support/attachments.js";
import { mustGet } from "./support/records.js";
import { FAMILIES } from "./support/references.js";

type FileRef = { name?: string; type?: string; size?: number };
type ArtifactData = Pick<Artifact, "file"> & { parent?: unknown };
/** One uploaded file: its metadata and its bytes (base64), which the API never returns. */
type VersionData = Required<Pick<ArtifactVersion, "version" | "timestamp" | "modified_by">> & {
  file: FileRef;
  content: string;
};

const UPLOAD_FIELDS = ["id", "file_name", "file_type", "file"];

function isFile(value: unknown): value is FormFile {
  return typeof value === "object" && value !== null && Buffer.isBuffer((value as FormFile).data);
}

/** The text field `name` of an upload form, checked; undefined when it was not sent. */
function textField(form: Record<string, unknown>, name: string, maxLength?: number): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw fieldError("invalid_field", name, `Send '${name}' once, as a text field of the form.`);
  }
  if (value.length === 0 || (maxLength !== undefined && value.length > maxLength)) {
    throw notPermitted(
      name,
      maxLength ? `length must be 1 to ${maxLength}` : "must not be empty",
      `'${name}' must hold ${maxLength ? `1 to ${maxLength}` : "at least 1"} characters.`,
    );
  }
  return value;
}

/** The fields of an artifacts.upload form, each checked with the typed errors of a JSON body. */
function readUploadForm(form: Record<string, unknown>) {
  for (const name of Object.keys(form)) {
    if (!UPLOAD_FIELDS.includes(name)) {
      throw fieldError(
        "invalid_field",
        name,
        `The form field '${name}' is not known; send ${UPLOAD_FIELDS.join(", ")}.`,
      );
    }
  }
  const id = textField(form, "id");
  if (id === undefined) {
    throw fieldError(
      "missing_required_field",
      "id",
      "Send the artifact's id (from artifacts.prepare) as 'id'.",
    );
  }
  const file = form.file;
  if (file === undefined) {
    throw fieldError("missing_required_field", "file", "Send the file's bytes as the file part 'file'.");
  }
  if (!isFile(file)) {
    throw fieldError(
      "invalid_field",
      "file",
      "Send 'file' once, as a file part of the form (with a filename).",
    );
  }
  return { id, file, fileName: textField(form, "file_name", 255), fileType: textField(form, "file_type") };
}

function versionRef(artifactId: string, version: string): string {
  return `${artifactId}@${version}`;
}

/** A version of an artifact by its identifier, or the latest one when none is named. */
async function findVersion(
  ctx: Context,
  artifact: StoredRecord<ArtifactData>,
  version: string | undefined,
): Promise<StoredRecord<VersionData> | undefined> {
  let wanted = version;
  if (wanted === undefined) {
    const count = await ctx.store.countRecords(ctx.org.id, ARTIFACT_VERSION.kind, {
      op: "eq",
      path: "parent_id",
      value: artifact.id,
    });
    if (count === 0) return undefined;
    wanted = String(count);
  }
  const [found] = await ctx.store.findRecords<VersionData>(ctx.org.id, ARTIFACT_VERSION.kind, {
    filter: { op: "eq", path: "external_ref", value: versionRef(artifact.id, wanted) },
    limit: 1,
  });
  return found;
}

/** x-parent-access: read access to the record the artifact is attached to, when it is attached. */
async function requireParentAccess(ctx: Context, artifact: StoredRecord<ArtifactData>): Promise<void> {
  const parentId = parentOf(artifact);
  if (!parentId) return;
  const parent = await ctx.store.getRecord<Record<string, unknown>>(ctx.org.id, [], parentId);
  if (parent) await requireReadAccess(ctx, parent);
}

export const artifacts = {
  "artifacts.prepare": async (ctx, input) => {
    // The artifact holds the name (and type) it was prepared with until a file is uploaded. The prepared
    // media type also stays in the subtype column: every upload that names none takes it.
    const record = await ctx.store.createRecord<ArtifactData>(ctx.actor, {
      ...FAMILIES.artifact,
      label: input.file_name,
      subtype: input.file_type ?? null,
      data: { file: { name: input.file_name, ...(input.file_type ? { type: input.file_type } : {}) } },
    });
    return {
      id: record.id,
      url: `${ctx.baseUrl}/artifacts.upload`,
      form_data: [
        { key: "id", value: record.id },
        { key: "file_name", value: input.file_name },
        ...(input.file_type ? [{ key: "file_type", value: input.file_type }] : []),
      ],
    };
  },

  // The body is a multipart form (http/body.ts reads it into fields and FormFile parts); its fields are checked here.
  "artifacts.upload": async (ctx, raw: unknown) => {
    const form = readUploadForm(raw as Record<string, unknown>);
    const artifact = await mustGet<ArtifactData>(ctx, [FAMILIES.artifact.kind], form.id, "Artifact");
    // Updating the artifact first locks it, so concurrent uploads of one artifact count their versions in turn.
    let file: FileRef = {};
    const updated = await ctx.store.updateRecord<ArtifactData>(
      ctx.actor,
      FAMILIES.artifact.kind,
      artifact.id,
      (current) => {
        // Left out, the name is the current one (the prepared one at first); the type is the prepared one,
        // else the one the file part declares.
        file = {
          name: form.fileName ?? current.data.file?.name ?? form.file.filename,
          type: form.fileType ?? current.subtype ?? form.file.mimetype,
          size: form.file.data.length,
        };
        return { data: { ...current.data, file }, label: file.name ?? current.label };
      },
    );
    const count = await ctx.store.countRecords(ctx.org.id, ARTIFACT_VERSION.kind, {
      op: "eq",
      path: "parent_id",
      value: artifact.id,
    });
    const version = String(count + 1);
    // The external_ref (unique per family) guards the numbering: a version number is stored once.
    await ctx.store.createRecord<VersionData>(ctx.actor, {
      ...ARTIFACT_VERSION,
      parent_id: artifact.id,
      label: version,
      external_ref: versionRef(artifact.id, version),
      data: {
        version,
        timestamp: updated.modified_date,
        modified_by: ctx.actor.user,
        file,
        content: form.file.data.toString("base64"),
      },
    });
    return { artifact: updated.data };
  },

  "artifacts.get": async (ctx, input) => {
    const artifact = await mustGet<ArtifactData>(ctx, [FAMILIES.artifact.kind], input.id, "Artifact");
    await requireParentAccess(ctx, artifact);
    const version = await findVersion(ctx, artifact, input.version);
    if (!version) {
      // Prepared but not uploaded yet: the artifact (the name and type it was prepared with), no version.
      if (input.version === undefined) return { artifact: artifact.data };
      throw notFound(`Version '${input.version}' of artifact '${input.id}'`);
    }
    const { version: name, timestamp, modified_by } = version.data;
    return { artifact: artifact.data, version: { version: name, timestamp, modified_by } };
  },

  "artifacts.list": async (ctx, input) => {
    const parent = await mustGet<Record<string, unknown>>(ctx, [], input.parent_id, "Record");
    await requireReadAccess(ctx, parent);
    const attached = await ctx.store.findRecords<ArtifactData>(ctx.org.id, FAMILIES.artifact.kind, {
      filter: {
        op: "or",
        filters: [
          { op: "eq", path: "parent_id", value: parent.id },
          { op: "eq", path: "parent", value: parent.id },
          { op: "eq", path: "parent.id", value: parent.id },
        ],
      },
      limit: 10_000,
    });
    return { artifacts: attached.map((record) => record.data) };
  },
} satisfies Partial<Handlers>;
