// A generated request as it goes on the wire (query string, JSON or form body, auth header), sent with fetch,
// and printed back as a curl line a person can paste to reproduce a failure.
import type { Answer, Operation } from "./contract.js";

export interface WireRequest {
  method: "GET" | "POST";
  /** Path and query string. */
  target: string;
  headers: Record<string, string>;
  /** A JSON text, or form fields for an upload. */
  body?: string | Array<[string, string]>;
}

/** Percent-encodes like encodeURIComponent, but writes a lone surrogate as its WTF-8 bytes instead of throwing. */
export function encodeComponent(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

function queryText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function listItem(value: unknown): string {
  const text = queryText(value);
  // A comma inside an item (and an empty item) is protected by quotes, as the server's list reader expects.
  return text.includes(",") || text === "" ? `"${text}"` : text;
}

/** The query string of a GET operation for the parameters in `input` (arrays as comma lists, per the contract). */
export function queryString(operation: Operation, input: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.map(listItem).join(",") : queryText(value);
    parts.push(`${encodeComponent(name)}=${encodeComponent(text)}`);
  }
  return parts.length ? `${operation.path}?${parts.join("&")}` : operation.path;
}

/** The request for `input`: on the query for GET, JSON (or form fields for an upload) for POST. */
export function wireRequest(operation: Operation, input: unknown, authorization: string | null): WireRequest {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (operation.method === "GET") {
    return { method: "GET", target: queryString(operation, input as Record<string, unknown>), headers };
  }
  if (operation.form && input && typeof input === "object" && !Array.isArray(input)) {
    const fields = Object.entries(input).map(
      ([name, value]) =>
        [name, typeof value === "string" ? value : JSON.stringify(value)] as [string, string],
    );
    return { method: "POST", target: operation.path, headers, body: fields };
  }
  headers["content-type"] = "application/json";
  return { method: "POST", target: operation.path, headers, body: JSON.stringify(input) };
}

export async function send(baseUrl: string, request: WireRequest): Promise<Answer> {
  let body: string | FormData | undefined;
  if (typeof request.body === "string") body = request.body;
  else if (request.body) {
    const form = new FormData();
    for (const [name, value] of request.body) form.append(name, new Blob([value]), name);
    body = form;
  }
  const response = await fetch(`${baseUrl}${request.target}`, {
    method: request.method,
    headers: request.headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text,
    body: parsed,
  };
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `curl ...` reproducing the request against `baseUrl`; long bodies are summarised with a node one-liner. */
export function curlLine(baseUrl: string, request: WireRequest, secrets: string[] = []): string {
  const url = `${baseUrl}${request.target}`;
  const long = url.length > 2_000;
  const parts = ["curl", "-sS", "-X", request.method, shellQuote(long ? `${url.slice(0, 400)}...` : url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = secrets.reduce((text, secret) => text.replaceAll(secret, "$TOKEN"), value);
    parts.push("-H", `"${name}: ${shown.replaceAll('"', '\\"')}"`);
  }
  if (typeof request.body === "string") {
    if (request.body.length > 2_000) {
      parts.push(
        "--data-binary",
        "@body.json",
        `# body.json: ${request.body.length} bytes, starting ${request.body.slice(0, 200)}`,
      );
    } else {
      parts.push("--data-binary", shellQuote(request.body));
    }
  } else if (request.body) {
    for (const [name, value] of request.body) parts.push("-F", shellQuote(`${name}=${value.slice(0, 200)}`));
  }
  if (long) parts.push(`# the URL has ${url.length} characters; shortened here`);
  return parts.join(" ");
}
