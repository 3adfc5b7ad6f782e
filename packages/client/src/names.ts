// The named operations by name (`stages.custom.get`), read from the generated tree of their segments.
import { facadeSegments, operationTree } from "./generated/operations.js";
import type { PageShape } from "./paginate.js";

/** What the client knows of an operation: 0 for a write, 1 for a read, a page shape for a paginated read. */
export type OperationKind = 0 | 1 | PageShape;
type Tree = { readonly [segment: string]: Tree | OperationKind };
/**
 * A named operation: its name, its kind, and where the facade has its method: the keys of the groups it is in
 * and its own key (`stages.custom.get` at `stages`, `custom` and `get`; `org-schedules.list` at `orgSchedules`).
 */
type Named = [name: string, kind: OperationKind, groups: string[], key: string];

/** The leaves of `tree`. A page shape is told from a group of operations by its `items`, a string. */
const leaves = (tree: Tree, prefix: string, groups: string[]): Named[] =>
  Object.entries(tree).flatMap(([segment, node]) => {
    const key = facadeSegments[segment] ?? segment;
    return typeof node !== "object" || typeof node.items === "string"
      ? [[prefix + segment, node as OperationKind, groups, key]]
      : leaves(node as Tree, `${prefix}${segment}.`, [...groups, key]);
  });

/** Every named operation, in the order of their names. */
export const namedOperations: readonly Named[] = leaves(operationTree, "", []);
/** The kind of every named operation by its name; a read (x-safe) is truthy. */
export const operations: Readonly<Record<string, OperationKind>> = Object.fromEntries(namedOperations);
