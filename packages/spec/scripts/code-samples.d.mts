/** The record ids each operation's curl sample reads, in document order (see code-samples.mjs). */
export function sampleIds(doc: unknown): Array<{
  path: string;
  method: string;
  operationId: string;
  ids: Record<string, string>;
}>;
