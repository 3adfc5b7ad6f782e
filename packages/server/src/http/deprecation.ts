// Tells callers what the contract deprecates: an operation marked `deprecated` (or a parameter so marked,
// when the request uses it) is answered with `Deprecation` (RFC 9745) and, where the contract gives an
// `x-sunset` date, `Sunset` (RFC 8594), and `Link: </docs#...>; rel="deprecation"` (RFC 9745, section 3): where
// the reference page documents the operation (a parameter's deprecation is told at its operation's part). The
// link is a relative reference, resolved against the request's URL as RFC 8288 says, so it holds behind any
// host name. The facts are read from the contract once, at start-up; a contract with nothing deprecated adds
// no hook at all.
//
// RFC 9745 defines `Deprecation` as a Structured Field Date (`@` and Unix seconds): the date the deprecation
// takes effect, in the past or the future. The contract names it with `x-deprecated-at` (an RFC 3339 date);
// without one, the header says "deprecated since" the Unix epoch, `@0`, the way RFC 9745 reads any past date:
// already deprecated. (The draft's boolean `?1` form did not survive into the RFC.)
import { DOCS_PAGE, operationAnchor } from "@workapi/docs";
import { operationsOf, readContractDate } from "@workapi/spec";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Contract } from "../core/contract.js";
import { shared } from "./plugin.js";

interface Marks {
  operationId?: string;
  tags?: string[];
  deprecated?: boolean;
  "x-deprecated-at"?: unknown;
  "x-sunset"?: unknown;
}
interface RawParameter extends Marks {
  name: string;
  in: string;
}

/** The headers a deprecated element makes, or undefined when it is not deprecated. */
export interface Notice {
  deprecation: string;
  sunset?: string;
  /** `<...>; rel="deprecation"; type="text/html"`: the operation's part of the reference page. */
  link?: string;
}
interface OperationNotices {
  operation?: Notice;
  parameters: { name: string; in: string; notice: Notice }[];
}

/** The headers of one element of the contract: RFC 9745's sf-date, RFC 8594's HTTP-date (IMF-fixdate). */
export function noticeOf(marks: Marks): Notice | undefined {
  if (marks.deprecated !== true) return undefined;
  const at = readContractDate(marks["x-deprecated-at"]);
  const sunset = readContractDate(marks["x-sunset"]);
  return {
    deprecation: `@${at ? Math.floor(at.getTime() / 1000) : 0}`,
    ...(sunset ? { sunset: sunset.toUTCString() } : {}),
  };
}

/** The `Link` to an operation's part of the reference page (RFC 9745's `deprecation` relation). */
export function linkOf(operation: Marks): string | undefined {
  if (typeof operation.operationId !== "string") return undefined;
  const anchor = operationAnchor({
    operationId: operation.operationId,
    ...(operation.tags ? { tags: operation.tags } : {}),
  });
  return `<${DOCS_PAGE}#${encodeURI(anchor)}>; rel="deprecation"; type="text/html"`;
}

/** What each operation of the contract deprecates, by `METHOD path`; operations with nothing are left out. */
export function deprecationsOf(contract: Contract): Map<string, OperationNotices> {
  const out = new Map<string, OperationNotices>();
  for (const operation of operationsOf(contract.spec)) {
    const raw = operation.operation as Marks;
    const link = linkOf(raw);
    const withLink = (notice: Notice | undefined) => (notice && link ? { ...notice, link } : notice);
    const parameters = (operation.parameters as RawParameter[]).flatMap((p) => {
      const notice = withLink(noticeOf(p));
      return notice ? [{ name: p.name, in: p.in, notice }] : [];
    });
    const own = withLink(noticeOf(raw));
    if (own || parameters.length > 0) {
      const key = `${operation.method.toUpperCase()} ${operation.path}`;
      out.set(key, { ...(own ? { operation: own } : {}), parameters });
    }
  }
  return out;
}

function uses(request: FastifyRequest, parameter: { name: string; in: string }): boolean {
  if (parameter.in === "header") return request.headers[parameter.name.toLowerCase()] !== undefined;
  if (parameter.in === "query") {
    const query = request.query as Record<string, unknown> | undefined;
    return query !== undefined && query !== null && Object.hasOwn(query, parameter.name);
  }
  return false;
}

function send(reply: FastifyReply, notice: Notice): void {
  reply.header("deprecation", notice.deprecation);
  if (notice.sunset) reply.header("sunset", notice.sunset);
  if (notice.link) reply.header("link", notice.link);
}

export const deprecation = shared<{ contract: Contract }>(async (fastify, { contract }) => {
  const notices = deprecationsOf(contract);
  if (notices.size === 0) return;
  fastify.addHook("onRequest", async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    if (!operation) return;
    const found = notices.get(`${operation.method} ${operation.path}`);
    if (!found) return;
    if (found.operation) return send(reply, found.operation);
    const used = found.parameters.find((parameter) => uses(request, parameter));
    if (used) send(reply, used.notice);
  });
});
