import type { LoadedNode } from "../load-catalogue";
import type { NodeFileKey } from "../node-files";
import type { Call } from "../schemas";
import type { YamlPath } from "../source-file";

/** One list of calls in a node: api/run.yaml, or one service method's `calls`. */
export interface CallList {
  in: NodeFileKey;
  /** The path of the list itself. */
  path: YamlPath;
  /** How messages name the list, e.g. "api/run.yaml" or "method findProduct". */
  label: string;
  calls: Call[];
  /** The service method, when the list belongs to one. */
  method?: string;
}

export function callLists(node: LoadedNode): CallList[] {
  const lists: CallList[] = [];
  if (node.parts.run) lists.push({ in: "run", path: [], label: "api/run.yaml", calls: node.parts.run });
  for (const [method, definition] of Object.entries(node.parts.service ?? {})) {
    lists.push({ in: "service", path: [method, "calls"], label: `method ${method}`, calls: definition.calls, method });
  }
  return lists;
}
