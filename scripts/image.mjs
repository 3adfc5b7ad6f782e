#!/usr/bin/env node
// `pnpm image`: builds the server's container image (Containerfile) with podman and tags it
// workapi/server:<version> (packages/server/package.json) and workapi/server:latest. The base image is pulled,
// or, where no registry answers, built here once as a stand-in (./image-base.mjs); the Containerfile itself
// is then built as written, with `--pull=never`. Podman keeps the layers (the build stage's under the tag
// workapi/server:build-stage; older ones no tag keeps are pruned): a second build with nothing changed takes
// seconds. A CA bundle the host trusts besides Node's own (NODE_EXTRA_CA_CERTS) is mounted into the
// build, read-only, for machines behind a TLS-inspecting proxy. Prints the tags, the size and the times.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBase } from "./image-base.mjs";
import { podmanOk } from "./podman.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const IMAGE = "workapi/server";
/** The tag that keeps the build stage, and with it the cache of its layers. */
const BUILD_STAGE = `${IMAGE}:build-stage`;

/** The release's version: the server package's. */
export function imageVersion() {
  return JSON.parse(readFileSync(join(root, "packages/server/package.json"), "utf8")).version;
}

/** Where a CA bundle is mounted inside the build. */
const CA_INSIDE = "/run/workapi-extra-ca.pem";

/**
 * Builds the image; resolves to { tags, base, seconds, baseSeconds, bytes }. `output` receives podman's
 * build output (default: this process's stdout).
 */
export async function buildImage({
  output = process.stdout,
  log = (line) => output.write(`${line}\n`),
} = {}) {
  const started = Date.now();
  const base = await ensureBase(log);
  const baseSeconds = (Date.now() - started) / 1000;
  const version = imageVersion();
  const tags = [`${IMAGE}:${version}`, `${IMAGE}:latest`];
  // The build installs the pnpm this repository names (package.json packageManager).
  const pnpm = /^pnpm@(.+)$/.exec(
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager,
  )?.[1];
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const caArgs =
    ca && existsSync(ca)
      ? ["--volume", `${ca}:${CA_INSIDE}:ro`, "--build-arg", `NODE_EXTRA_CA_CERTS=${CA_INSIDE}`]
      : [];
  const building = Date.now();
  const build = (args) =>
    podmanOk(
      [
        "build",
        "--pull=never",
        // Docker's format keeps HEALTHCHECK (OCI's image format has no field for it).
        "--format=docker",
        "--file",
        join(root, "Containerfile"),
        ...(pnpm ? ["--build-arg", `PNPM_VERSION=${pnpm}`] : []),
        ...caArgs,
        ...args,
        root,
      ],
      { output },
    );
  // The build stage first, under a tag of its own, so that its layers stay cached after the prune below.
  await build(["--target", "build", "--tag", BUILD_STAGE]);
  await build(tags.flatMap((tag) => ["--tag", tag]));
  // Layers of earlier builds no tag keeps any more (a build after a change leaves its predecessor's behind).
  await podmanOk(["image", "prune", "--force", "--filter", "label=org.workapi.image"]);
  const seconds = (Date.now() - building) / 1000;
  const bytes = Number(await podmanOk(["image", "inspect", "--format", "{{.Size}}", tags[0]]));
  return { tags, base, baseSeconds, seconds, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    const { tags, base, baseSeconds, seconds, bytes } = await buildImage();
    const baseNote =
      base === "present"
        ? "base image already here"
        : `base image ${base === "pulled" ? "pulled" : "stand-in built"} in ${baseSeconds.toFixed(1)} s`;
    process.stdout.write(
      `\nbuilt ${tags.join(" and ")}: ${(bytes / 1e6).toFixed(1)} MB, in ${seconds.toFixed(1)} s ` +
        `(${baseNote}; ${((Date.now() - started) / 1000).toFixed(1)} s in all)\n`,
    );
  } catch (error) {
    process.stderr.write(`image: ${error.message}\n`);
    process.exit(1);
  }
}
