// Recorded sessions of mobile and web applications. The interface has no operation that uploads them: the
// seed and the tests store them with storeSession(), and observability.sessions.data.get reads them.
import type { ObservabilitySessionRecording } from "@workapi/types";
import { apiError, notFound } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import type { Actor, Store, StoredRecord } from "../store/types.js";
import { FAMILIES } from "./support/references.js";

type Mobile = Extract<ObservabilitySessionRecording, { recording: "mobile_recording" }>;
type Web = Extract<ObservabilitySessionRecording, { recording: "web_recording" }>;

/** A recording as uploaded: the session's data plus the identifier of the application (`version_key`). */
export type SessionUpload =
  | (Mobile & { version_key: string; session_id: string; recording_id: string })
  | (Web & { version_key: string; session_id: string; tab_id: string });

type StoredSession = SessionUpload & Record<string, unknown>;

/**
 * Stores one recording: a record of the observability_session family whose subtype is the kind of
 * recording and whose label is the session id. The external reference (application, session, recording or
 * tab) is unique, so the same recording cannot be stored twice (StoreError "conflict").
 */
export async function storeSession(
  store: Store,
  actor: Actor,
  recording: SessionUpload,
): Promise<StoredRecord<SessionUpload>> {
  const part = recording.recording === "mobile_recording" ? recording.recording_id : recording.tab_id;
  if (!recording.version_key || !recording.session_id || !part) {
    throw new Error(
      "A session needs version_key, session_id and recording_id (mobile) or tab_id (web) to be found again",
    );
  }
  return store.createRecord(actor, {
    ...FAMILIES.observability_session,
    subtype: recording.recording,
    label: recording.session_id,
    external_ref: JSON.stringify([recording.version_key, recording.session_id, part]),
    data: recording,
  });
}

/** The recording as the interface shows it: without the record's base fields and the version key. */
function present(data: StoredSession, includeReplay: boolean): ObservabilitySessionRecording {
  const {
    id: _id,
    display_id: _displayId,
    created_by: _createdBy,
    created_date: _createdDate,
    modified_by: _modifiedBy,
    modified_date: _modifiedDate,
    object_version: _version,
    version_key: _versionKey,
    ...recording
  } = data;
  if (!includeReplay) {
    // The data needed to replay the session: the video of a mobile one, the page changes of a web one.
    delete recording.video_playback_data;
    delete recording.replay_data;
  }
  return recording as ObservabilitySessionRecording;
}

const missing = (field: "recording_id" | "tab_id", kind: string) =>
  apiError(
    "missing_required_field",
    `This session is a ${kind} recording: name it by session_id and ${field}.`,
    { field_name: field },
  );

export const observability = {
  /**
   * Finds the recordings of the session (version_key + session_id), then the one named by recording_id
   * (mobile) or tab_id (web). Which of the two is required depends on what the session is: a mobile
   * session asked for without recording_id, or a web one without tab_id, is a 400 missing_required_field.
   */
  "observability.sessions.data.get": async (ctx, input) => {
    const sessions = await ctx.store.findRecords<StoredSession>(
      ctx.org.id,
      FAMILIES.observability_session.kind,
      {
        filter: {
          op: "and",
          filters: [
            { op: "eq", path: "label", value: input.session_id },
            { op: "eq", path: "version_key", value: input.version_key },
          ],
        },
        limit: 1000,
      },
    );
    const mobile = sessions.filter((session) => session.subtype === "mobile_recording");
    const web = sessions.filter((session) => session.subtype === "web_recording");
    const found =
      (input.recording_id !== undefined &&
        mobile.find((session) => session.data.recording_id === input.recording_id)) ||
      (input.tab_id !== undefined && web.find((session) => session.data.tab_id === input.tab_id)) ||
      undefined;
    if (found) return present(found.data, input.include_replay_data !== false);
    if (mobile.length > 0 && input.recording_id === undefined) throw missing("recording_id", "mobile");
    if (web.length > 0 && input.tab_id === undefined) throw missing("tab_id", "web");
    const part =
      input.recording_id !== undefined
        ? `, recording '${input.recording_id}'`
        : input.tab_id !== undefined
          ? `, tab '${input.tab_id}'`
          : "";
    throw notFound(`Session '${input.session_id}' of '${input.version_key}'${part}`);
  },
} satisfies Partial<Handlers>;
