// Recorded sessions through real HTTP: mobile (session + recording) and web (session + tab) lookups, both
// methods, include_replay_data, the typed 400 when the identifier the session needs is missing, 404s, scopes.
// Sessions have no create operation: they are stored with storeSession(), as the seed does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SessionUpload, storeSession } from "../../src/operations/observability.js";
import { StoreError } from "../../src/store/types.js";
import { databases, startTestServer, type TestServer } from "../harness.js";

const APP = "com.example.shop";
const SITE = "app.example.com";

const mobile = (session: string, recording: string, extra: Record<string, unknown> = {}): SessionUpload => ({
  recording: "mobile_recording",
  version_key: APP,
  session_id: session,
  recording_id: recording,
  rev_org_id: "REV-2",
  rev_user_id: "REVU-3",
  created_at: "2026-11-02T09:15:00.000Z",
  app_launch: { launch_time_ms: 1350, launch_type: "cold" },
  total_ram: 6442450944,
  available_ram: 1610612736,
  device_metadata: { model: "Pixel 8", os_version: "14", screen_height: 2400, screen_width: 1080 },
  observability_sessions_log_data: { is_anr: true, is_crash: false, value: "ANR in CheckoutActivity" },
  recording_events_timeline: [
    { event_name: "anr", event_type: "plug", timestamp_offset_ms: 48210, coordinates: [{ x: 1.5, y: 2 }] },
  ],
  user_attributes: { plan: "pro" },
  video_playback_data: [
    { start_frame: "0", end_frame: "1", frames: ["f0.jpg", "f1.jpg"], frame_image_map: { "0": "f0.jpg" } },
  ],
  ...extra,
});

const web = (session: string, tab: string): SessionUpload => ({
  recording: "web_recording",
  version_key: SITE,
  session_id: session,
  tab_id: tab,
  created_at: "2026-11-02T10:00:00.000Z",
  device_metadata: { browser: "Firefox", browser_version: "132.0", os: "Linux" },
  recording_events_timeline: [{ event_name: "page_view", timestamp_offset_ms: 0, screen: "/cart" }],
  replay_data: [{ timestamp_offset_ms: 0, data: { kind: "full_snapshot" } }],
});

describe.each(databases)("observability sessions on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
    await storeSession(server.store, server.actor, mobile("sess-1", "rec-1"));
    await storeSession(server.store, server.actor, mobile("sess-1", "rec-2", { total_ram: 1 }));
    await storeSession(server.store, server.actor, web("sess-9", "tab-1"));
    await storeSession(server.store, server.actor, web("sess-9", "tab-2"));
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (query: string, token?: string) =>
    server.call("GET", `/observability.sessions.data.get?${query}`, token ? { token } : {});
  const post = (body: Record<string, unknown>, token?: string) =>
    server.call("POST", "/observability.sessions.data.get", { body, ...(token ? { token } : {}) });

  describe("observability.sessions.data.get", () => {
    it("answers a mobile recording by session and recording id, replay data included by default", async () => {
      const res = await post({ version_key: APP, session_id: "sess-1", recording_id: "rec-1" });
      expect(res.status).toBe(200);
      const { version_key: _key, ...expected } = mobile("sess-1", "rec-1");
      expect(res.body).toEqual(expected);
      const other = await get(`version_key=${APP}&session_id=sess-1&recording_id=rec-2`);
      expect(other.body).toMatchObject({
        recording: "mobile_recording",
        recording_id: "rec-2",
        total_ram: 1,
      });
    });

    it("answers a web recording by session and tab id", async () => {
      const res = await get(`version_key=${SITE}&session_id=sess-9&tab_id=tab-2`);
      expect(res.status).toBe(200);
      const { version_key: _key, ...expected } = web("sess-9", "tab-2");
      expect(res.body).toEqual(expected);
      expect(res.body).not.toHaveProperty("id");
      expect(res.body).not.toHaveProperty("object_version");
    });

    it("leaves the replay data out with include_replay_data=false", async () => {
      const mobileRes = await get(
        `version_key=${APP}&session_id=sess-1&recording_id=rec-1&include_replay_data=false`,
      );
      expect(mobileRes.status).toBe(200);
      expect(mobileRes.body).not.toHaveProperty("video_playback_data");
      expect(mobileRes.body.recording_events_timeline).toHaveLength(1);
      const webRes = await post({
        version_key: SITE,
        session_id: "sess-9",
        tab_id: "tab-1",
        include_replay_data: false,
      });
      expect(webRes.body).not.toHaveProperty("replay_data");
      expect(webRes.body).toMatchObject({ recording: "web_recording", tab_id: "tab-1" });
      const explicit = await post({
        version_key: SITE,
        session_id: "sess-9",
        tab_id: "tab-1",
        include_replay_data: true,
      });
      expect(explicit.body.replay_data).toHaveLength(1);
    });

    it("needs recording_id for a mobile session and tab_id for a web one", async () => {
      const noRecording = await post({ version_key: APP, session_id: "sess-1" });
      expect(noRecording.status).toBe(400);
      expect(noRecording.body).toMatchObject({ type: "missing_required_field", field_name: "recording_id" });
      const tabForMobile = await post({ version_key: APP, session_id: "sess-1", tab_id: "tab-1" });
      expect(tabForMobile.body).toMatchObject({ type: "missing_required_field", field_name: "recording_id" });
      const noTab = await get(`version_key=${SITE}&session_id=sess-9`);
      expect(noTab.body).toMatchObject({ type: "missing_required_field", field_name: "tab_id" });
      const noSession = await post({ version_key: APP });
      expect(noSession.body).toMatchObject({ type: "missing_required_field", field_name: "session_id" });
      const noKey = await post({ session_id: "sess-1" });
      expect(noKey.body).toMatchObject({ type: "missing_required_field", field_name: "version_key" });
    });

    it("answers 404 for what does not exist, or belongs to another application or organization", async () => {
      for (const body of [
        { version_key: APP, session_id: "sess-1", recording_id: "rec-3" },
        { version_key: SITE, session_id: "sess-1", recording_id: "rec-1" },
        { version_key: APP, session_id: "sess-2", recording_id: "rec-1" },
        { version_key: SITE, session_id: "sess-9", tab_id: "tab-3" },
        { version_key: APP, session_id: "nothing" },
      ]) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(404);
        expect(res.body.type).toBe("not_found");
      }
      const other = await server.otherOrg();
      const foreign = await post(
        { version_key: APP, session_id: "sess-1", recording_id: "rec-1" },
        other.token,
      );
      expect(foreign.status).toBe(404);
    });

    it("stores a recording only once, and needs the identifiers to find it again", async () => {
      await expect(
        storeSession(server.store, server.actor, mobile("sess-1", "rec-1")),
      ).rejects.toBeInstanceOf(StoreError);
      await expect(storeSession(server.store, server.actor, web("sess-5", ""))).rejects.toThrow(/tab_id/);
    });

    it("needs observability:read, observability:write or observability:all", async () => {
      for (const scope of ["observability:read", "observability:write", "observability:all"]) {
        const res = await get(
          `version_key=${APP}&session_id=sess-1&recording_id=rec-1`,
          await server.token([scope]),
        );
        expect(res.status, scope).toBe(200);
      }
      const refused = await post(
        { version_key: APP, session_id: "sess-1", recording_id: "rec-1" },
        await server.token(["vista:read"]),
      );
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe("forbidden");
      const other = await server.otherOrg();
      await server.store.setOrgStatus(other.org.id, "deactivated");
      const deactivated = await post(
        { version_key: APP, session_id: "sess-1", recording_id: "rec-1" },
        other.token,
      );
      expect(deactivated.status).toBe(401);
      expect(deactivated.body.type).toBe("dev_org_deactivated");
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
