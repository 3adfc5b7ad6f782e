// Podman as the image scripts (scripts/image.mjs) and the image test run it. Podman reads its own
// configuration; WORKAPI_PODMAN_OPTIONS adds global options to every call (for instance
// `--storage-driver=vfs` where overlay mounts are refused), and CONTAINERS_CONF names a configuration file
// (.ci/containers.conf is the one CI uses: runc, cgroupfs, no rlimits). Where podman cannot run, the image
// checks skip, saying so in one line; where the environment says they are required
// (WORKAPI_REQUIRE_PODMAN=1, as .ci/run sets), a podman that cannot run fails them.
import { spawn, spawnSync } from "node:child_process";

/** The global options every podman call takes, from WORKAPI_PODMAN_OPTIONS (split on white space). */
export const podmanOptions = (process.env.WORKAPI_PODMAN_OPTIONS ?? "").split(/\s+/).filter(Boolean);

/**
 * Runs `podman <args>` and waits for it: { status, stdout, stderr }. Output goes to `output` as it comes
 * when given (a stream), and is kept either way.
 */
export function podman(args, { input, output, timeoutMs = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn("podman", [...podmanOptions, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      output?.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      output?.write(chunk);
    });
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`podman ${args.join(" ")} took longer than ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    if (input) input.pipe(child.stdin);
    else child.stdin.end();
  });
}

/** `podman <args>`, failing with podman's own words when it exits non-zero; resolves to its stdout. */
export async function podmanOk(args, options) {
  const result = await podman(args, options);
  if (result.status !== 0) {
    throw new Error(
      `podman ${args.join(" ")} exited with ${result.status}:\n${result.stderr.trim().slice(-4000)}`,
    );
  }
  return result.stdout;
}

/** Whether an image of this name is in local storage. */
export async function imageExists(name) {
  return (await podman(["image", "exists", name])).status === 0;
}

/**
 * Whether the image check `what` can run here: true when `podman info` answers; false otherwise, after
 * printing why (unless it is required, which throws).
 */
export function podmanAvailable(what) {
  const info = spawnSync("podman", [...podmanOptions, "info", "--format", "{{.Host.OCIRuntime.Name}}"], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (info.status === 0) return true;
  const why = info.error
    ? "no podman here (apt-get install podman buildah runc debootstrap)"
    : `podman info failed: ${(info.stderr ?? "").trim().split("\n")[0]}`;
  if (process.env.WORKAPI_REQUIRE_PODMAN === "1") {
    throw new Error(`${what} is required here (WORKAPI_REQUIRE_PODMAN=1), but ${why}`);
  }
  console.warn(`skipping ${what}: ${why}`);
  return false;
}
