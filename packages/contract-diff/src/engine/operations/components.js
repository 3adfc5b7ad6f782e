// Components no operation reaches directly: schemas removed from components.schemas, and security schemes
// added, removed or changed. Their events belong to a pseudo-operation, `(components)`.
import { isObject, key } from "../schema-view.js";

/** @param {Record<string, import("../json.js").Json>} base @param {Record<string, import("../json.js").Json>} head @param {import("../json.js").Json[]} events */
export function compareComponents(base, head, events) {
  const operation = { operationId: "(components)", method: "", path: "", webhook: false };
  const bs = isObject(base.components?.schemas) ? base.components.schemas : {};
  const hs = isObject(head.components?.schemas) ? head.components.schemas : {};
  for (const name of Object.keys(bs)) {
    if (!(name in hs))
      events.push({
        kind: "component-schema",
        change: "removed",
        name,
        operation,
        where: `components.schemas.${name}`,
        pointer: "#/components/schemas",
        side: "head",
      });
  }
  const bsec = isObject(base.components?.securitySchemes) ? base.components.securitySchemes : {};
  const hsec = isObject(head.components?.securitySchemes) ? head.components.securitySchemes : {};
  for (const name of new Set([...Object.keys(bsec), ...Object.keys(hsec)])) {
    const change = !(name in bsec)
      ? "added"
      : !(name in hsec)
        ? "removed"
        : key(bsec[name]) !== key(hsec[name])
          ? "changed"
          : undefined;
    if (change)
      events.push({
        kind: "security-scheme",
        change,
        name,
        operation,
        where: `components.securitySchemes.${name}`,
        pointer: "#/components/securitySchemes",
        side: "head",
      });
  }
}
