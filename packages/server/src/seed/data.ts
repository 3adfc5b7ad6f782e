// The ingredients of the demo data: a seeded random generator, titles, dates relative to today, and the
// recorded app sessions the observability operations read.
/** A small, fast, seeded random generator (mulberry32). */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    some: <T>(items: readonly T[], max: number): T[] => {
      const count = Math.floor(next() * (max + 1));
      return [...new Set(Array.from({ length: count }, () => items[Math.floor(next() * items.length)] as T))];
    },
  };
}

export const TITLES = [
  "Login fails after password reset",
  "Export to CSV drops the last row",
  "Dashboard loads slowly for large teams",
  "Add SSO for enterprise customers",
  "Mobile app crashes on rotate",
  "Billing page shows the wrong currency",
  "Search ignores accented characters",
  "Webhook retries flood the queue",
  "Dark mode contrast is too low",
  "Invite emails land in spam",
  "Timezone shifts due dates by a day",
  "API returns 500 on empty filter",
];

export function days(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString();
}

/** A recorded mobile app session, as the observability SDK would upload it. */
export function mobileSession(i: number) {
  return {
    recording: "mobile_recording" as const,
    version_key: "com.example.workspace",
    session_id: `mobile-session-${i + 1}`,
    recording_id: `recording-${i + 1}`,
    created_at: days(-i),
    rev_org_id: "REV-1",
    rev_user_id: `REVU-${i + 1}`,
    available_ram: 1_800_000_000,
    total_ram: 4_000_000_000,
    app_launch: { launch_time_ms: 850 + i * 40, launch_type: i === 0 ? "cold" : "warm" },
    device_metadata: {
      app_version: "3.4.1",
      manufacturer: "Pixel",
      model: "Pixel 8",
      network_type: "wifi",
      os_version: "Android 15",
      sdk_version: "2.1.0",
      plug_sdk_version: "2.1.0",
      screen_height: 2400,
      screen_width: 1080,
    },
    observability_sessions_log_data: {
      is_anr: false,
      is_crash: i === 2,
      value: i === 2 ? "NullPointerException in ExportActivity" : "",
    },
    recording_events_timeline: [
      {
        name: "app_start",
        event_type: "plug",
        event_name: "app_start",
        timestamp_offset_ms: 0,
        screen: "Home",
      },
      {
        name: "tap",
        event_type: "plug",
        event_name: "tap",
        timestamp_offset_ms: 2300,
        screen: "Home",
        coordinates: [{ x: 120, y: 640 }],
      },
    ],
    user_attributes: { plan: "growth" },
    video_playback_data: [
      {
        start_frame: "0",
        end_frame: "1",
        frames: ["frame-0.jpg", "frame-1.jpg"],
        frame_image_map: { "0": "frame-0.jpg", "1": "frame-1.jpg" },
      },
    ],
  };
}

/** A recorded browser session (one tab). */
export function webSession(i: number) {
  return {
    recording: "web_recording" as const,
    version_key: "app.example.com",
    session_id: `web-session-${i + 1}`,
    tab_id: `tab-${i + 1}`,
    created_at: days(-i),
    rev_org_id: "REV-2",
    rev_user_id: `REVU-${i + 10}`,
    device_metadata: {
      browser: "Firefox",
      browser_version: "133.0",
      os: "Linux",
      screen_height: 1080,
      screen_width: 1920,
      user_agent: "Mozilla/5.0",
    },
    recording_events_timeline: [
      {
        name: "page_view",
        event_type: "plug",
        event_name: "page_view",
        timestamp_offset_ms: 0,
        screen: "/dashboard",
      },
    ],
    user_attributes: { plan: "enterprise" },
    replay_data: [{ timestamp_offset_ms: 0, data: { type: "full_snapshot" } }],
  };
}
