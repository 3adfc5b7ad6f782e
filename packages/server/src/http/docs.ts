// The routes beside the operations: the reference page and its icon, the contract it renders, and a health
// check (which also says whether rate limits are shared through Redis now).
//
// The page and the bundle are served as the exact bytes their packages ship. Each is read on its first request
// (start-up stays cheap), compressed with brotli or gzip when the client accepts it (once, off the event loop,
// then kept), and carries a strong ETag per representation, so a repeat request with If-None-Match is a 304.
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { negotiate } from "@fastify/accept-negotiator";
import { consolePath, DOCS_PAGE, docsPath, faviconPath } from "@workapi/docs";
import { specPath } from "@workapi/spec";
import etag from "etag";
import type { FastifyReply, FastifyRequest } from "fastify";
import fresh from "fresh";
import { shared } from "./plugin.js";

type Coding = "br" | "gzip" | "identity";

// Brotli quality 9 packs the 3 MB page to about a fifth in half a second; 11 saves another 10% for 15 times
// the time, paid by whoever asks first.
const encoders: Record<Exclude<Coding, "identity">, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
};
/** The codings offered, in the server's order of preference when the client weighs them equally. */
const CODINGS: Coding[] = ["br", "gzip", "identity"];

/** The page or the bundle may change only with a new release: caches keep it but ask before each use. */
const CACHE_CONTROL = "public, no-cache";

/** One file served in every coding, each representation computed once. */
class StaticAsset {
  #bytes?: Buffer;
  #tag?: string;
  readonly #encoded = new Map<Coding, Promise<Buffer>>();

  constructor(
    private readonly file: URL,
    readonly type: string,
  ) {}

  get bytes(): Buffer {
    this.#bytes ??= readFileSync(this.file);
    return this.#bytes;
  }

  /** A strong validator of the representation: the content's tag, told apart by coding. */
  tag(coding: Coding): string {
    this.#tag ??= etag(this.bytes);
    return coding === "identity" ? this.#tag : `${this.#tag.slice(0, -1)}-${coding}"`;
  }

  encoded(coding: Coding): Promise<Buffer> {
    if (coding === "identity") return Promise.resolve(this.bytes);
    let body = this.#encoded.get(coding);
    if (!body) {
      body = encoders[coding](this.bytes);
      this.#encoded.set(coding, body);
    }
    return body;
  }

  async send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const accepted = request.headers["accept-encoding"];
    // A header that refuses every coding we have gets the plain bytes, as HTTP lets a server do.
    const coding = ((accepted && negotiate(accepted, CODINGS)) || "identity") as Coding;
    reply.header("vary", "Accept-Encoding").header("cache-control", CACHE_CONTROL);
    reply.header("etag", this.tag(coding));
    if (fresh(request.headers, { etag: this.tag(coding) })) return reply.code(304).send();
    if (coding !== "identity") reply.header("content-encoding", coding);
    return reply.type(this.type).send(await this.encoded(coding));
  }
}

export const docs = shared(async (fastify) => {
  const consoleScript = new StaticAsset(consolePath, "text/javascript; charset=utf-8");
  const assets = {
    [DOCS_PAGE]: new StaticAsset(docsPath, "text/html; charset=utf-8"),
    // The icon the page links (inline) is the one browsers ask for on their own, an SVG, as they accept.
    "/favicon.ico": new StaticAsset(faviconPath, "image/svg+xml"),
    // The console's data and request checks, which the page loads beside itself (a relative console.js) when
    // a console first opens: at /console.js from /docs, at /docs/console.js from /docs/.
    "/console.js": consoleScript,
    "/docs/console.js": consoleScript,
    "/openapi.json": new StaticAsset(specPath, "application/json; charset=utf-8"),
    "/openapi.yaml": new StaticAsset(new URL("./openapi.yaml", specPath), "application/yaml; charset=utf-8"),
  };
  for (const [path, asset] of Object.entries(assets)) {
    fastify.get(path, (request, reply) => asset.send(request, reply));
  }
  // The root has nothing of its own: it sends a browser (or curl -L) to the reference page.
  fastify.get("/", (_request, reply) => reply.redirect(DOCS_PAGE, 302));
  // Redis is a helper: with it unreachable the server still answers (200), and says how it counts.
  fastify.get("/health", async () => ({ status: "ok", ...fastify.rateLimitState() }));
});
