// A request's body. JSON is the only body most operations take: its text is decoded here (strictly, as UTF-8)
// and parsed by the executor where the operation runs (../core/input.ts: an empty body is `{}`, malformed JSON
// a parse_error); multipart/form-data is accepted for the operations whose contract body is a form
// (file uploads), whose route reads the parts with readForm. Anything else is invalid_content_type. A JSON
// body may come gzip-, deflate- or br-encoded; another Content-Encoding is a 415.
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import multipart from "@fastify/multipart";
import type { FastifyError, FastifyRequest, RequestPayload } from "fastify";
import { ApiError, apiError } from "../core/errors.js";
import { shared } from "./plugin.js";

/** UTF-8 decoding that refuses malformed bytes instead of replacing them with U+FFFD (a BOM is kept, as JSON.parse refuses it). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export const bodyParsing = shared<{ bodyLimit: number }>(async (fastify, { bodyLimit }) => {
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise each time.
  fastify.addHook("preParsing", (request, _reply, payload, done) => {
    let body: RequestPayload;
    try {
      body = decoded(request, payload);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, body);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      return done(
        apiError(
          "parse_error",
          "The body is not valid UTF-8; send JSON encoded as UTF-8 (no byte is replaced or dropped).",
        ),
        undefined,
      );
    }
    // The text as sent: the executor parses it where the operation runs (../core/input.ts).
    done(null, text);
  });
  // The multipart plugin's parser only marks the request; the route reads the parts (readForm).
  await fastify.register(multipart, {
    limits: { fileSize: bodyLimit, fieldSize: bodyLimit, fields: 20, files: 5, parts: 25 },
  });
  fastify.addContentTypeParser("*", (request, payload, done) => {
    // Accept a body-less request without a content type; refuse anything else that is not JSON.
    let size = 0;
    payload.on("data", (chunk: Buffer) => {
      size += chunk.length;
    });
    payload.on("end", () => {
      if (size === 0) return done(null, "");
      done(
        apiError(
          "invalid_content_type",
          `Bodies must be JSON; got '${request.headers["content-type"] ?? "no content type"}'. Send Content-Type: application/json.`,
        ),
        undefined,
      );
    });
    payload.on("error", (error) => done(error, undefined));
  });
});

/** The decoders of the content codings a JSON body may be sent in (node:zlib's streams). */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  "x-gzip": () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/**
 * A body sent with Content-Encoding, decoded (the body limit then counts its decoded bytes); an encoding
 * this server cannot decode is a 415. A form is read from the connection itself, so it takes no encoding.
 */
function decoded(request: FastifyRequest, payload: RequestPayload): RequestPayload {
  const encoding = request.headers["content-encoding"];
  if (encoding === undefined) return payload; // most requests: nothing to split
  const codings = String(encoding)
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return payload;
  const unsupported = codings.find((coding) => !DECODERS[coding]);
  if (unsupported || request.isMultipart() || codings.length > 1) {
    throw apiError(
      "invalid_content_type",
      `Content-Encoding '${request.headers["content-encoding"]}' is not accepted${request.isMultipart() ? " on a form" : ""}; send the body as is, or one JSON body in gzip, deflate or br.`,
    ).withStatus(415);
  }
  const decoder = (DECODERS[codings[0] as string] as () => Transform)();
  // Fastify compares the bytes received with Content-Length through this property of a replaced stream.
  const counted = decoder as Transform & { receivedEncodedLength: number };
  counted.receivedEncodedLength = 0;
  payload.on("data", (chunk: Buffer) => {
    counted.receivedEncodedLength += chunk.length;
  });
  payload.on("error", (error) => decoder.destroy(error));
  decoder.on("error", (error: Error & { statusCode?: number }) => {
    // Registered before the parser's own listener: the parser then answers a client's 400, not a failure.
    error.statusCode = 400;
    error.message = `The body does not decode as ${codings[0]}: ${error.message}.`;
    payload.unpipe(decoder);
  });
  payload.pipe(decoder);
  return counted;
}

/**
 * Reads a multipart/form-data body into an object: each text field as a string, each file part as a FormFile
 * (a name sent twice becomes an array). Files and fields are bounded by the body limit (413).
 */
export async function readForm(request: FastifyRequest, bodyLimit: number): Promise<Record<string, unknown>> {
  const form: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    const existing = form[name];
    form[name] = existing === undefined ? value : [existing, value].flat();
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        add(part.fieldname, {
          filename: part.filename,
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        });
      } else {
        if (part.valueTruncated) throw tooLarge(bodyLimit);
        add(part.fieldname, typeof part.value === "string" ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (error) {
    const code = (error as FastifyError).code;
    if (error instanceof ApiError || (typeof code === "string" && code.startsWith("FST_"))) throw error;
    throw apiError(
      "bad_request",
      `The multipart/form-data body could not be read: ${(error as Error).message}.`,
    );
  }
  return form;
}

/** The 413 of a body over the limit, JSON or form. */
export function tooLarge(bodyLimit: number): ApiError {
  return apiError(
    "request_entity_too_large",
    `Bodies of at most ${bodyLimit} bytes are accepted; send less.`,
    { max_bytes: bodyLimit },
  );
}
