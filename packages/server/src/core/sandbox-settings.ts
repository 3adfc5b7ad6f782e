// The settings of sandboxes (../operations/sandboxes.ts, ../http/sandboxes.ts), read from the environment,
// so that the write thread, which runs the creates on a SQLite file, reads the same ones as the server.

export interface SandboxSettings {
  /** Live sandboxes the server holds at most, in all; one more is 409 `conflict`. */
  max: number;
  /** Seconds a sandbox lives when `sandboxes.create` does not say. */
  ttlSeconds: number;
  /** The longest `Prefer: delay=<ms>` waits; a longer one waits this long. */
  maxDelayMs: number;
  /** Requests each sandbox's journal keeps (the latest). */
  journalMax: number;
  /** How often each server process deletes the sandboxes past their expiry; 0: never. */
  sweepSeconds: number;
}

const VARIABLES: Record<keyof SandboxSettings, [string, number]> = {
  max: ["WORKAPI_MAX_SANDBOXES", 100],
  ttlSeconds: ["WORKAPI_SANDBOX_TTL_SECONDS", 3600],
  maxDelayMs: ["WORKAPI_SANDBOX_MAX_DELAY_MS", 10_000],
  journalMax: ["WORKAPI_SANDBOX_JOURNAL_MAX", 1000],
  sweepSeconds: ["WORKAPI_SANDBOX_SWEEP_SECONDS", 30],
};

export function sandboxSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const settings = {} as SandboxSettings;
  for (const [key, [name, fallback]] of Object.entries(VARIABLES) as Array<
    [keyof SandboxSettings, [string, number]]
  >) {
    const raw = env[name];
    const value = raw === undefined || raw === "" ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`${name} must be a whole number ≥ 0; got '${raw}'`);
    settings[key] = value;
  }
  return settings;
}

/** The scope that lets a token make, see and delete sandboxes; a sandbox's own token never holds it. */
export const SANDBOX_ADMIN_SCOPE = "sandbox:admin";
