// Where each node of a parsed YAML (or JSON) file starts: JSON pointer (without the leading `#`) -> 1-based
// line of the node's key (its own first line for the root and for list items).
import { escapeSegment } from "../engine/schema-view.js";
import { yaml } from "./yaml.js";

/**
 * @param {unknown} root the document's contents node
 * @param {import("yaml").LineCounter} counter
 * @returns {Map<string, number>}
 */
export function lineIndex(root, counter) {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  /** @type {Map<string, number>} */
  const lines = new Map();
  const lineAt = (/** @type {number} */ offset) => counter.linePos(offset).line;
  /** @param {import("../engine/json.js").Json} node a node of the document @param {string} pointer @param {number} line */
  const visit = (node, pointer, line) => {
    lines.set(pointer, line);
    if (isMap(node)) {
      for (const item of node.items) {
        if (!isPair(item)) continue;
        /** @type {import("yaml").Pair<import("../engine/json.js").Json, import("../engine/json.js").Json>} */
        const pair = item;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const at = pair.key?.range ? lineAt(pair.key.range[0]) : line;
        visit(pair.value, `${pointer}/${escapeSegment(key)}`, at);
      }
    } else if (isSeq(node)) {
      node.items.forEach((/** @type {import("../engine/json.js").Json} */ item, index) => {
        const at = item?.range ? lineAt(item.range[0]) : line;
        visit(item, `${pointer}/${index}`, at);
      });
    }
  };
  visit(root, "", 1);
  return lines;
}
