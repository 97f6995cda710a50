import { z } from "zod";
import { workflowEdge, workflowNode, type WorkflowEdge, type WorkflowNode } from "../graph";
import { uniqueId } from "./node-ids";

/**
 * What Copy puts on the clipboard: the chosen nodes and the edges between
 * them, as plain workflow JSON with a marker, so a paste into another
 * workflow (or another tab) works and any other text is ignored.
 */
export const fragmentMarker = "switchboard/fragment";

const fragmentSchema = z.object({
  kind: z.literal(fragmentMarker),
  nodes: z.array(workflowNode),
  edges: z.array(workflowEdge),
});
export type Fragment = z.infer<typeof fragmentSchema>;

/** The nodes with these ids and every edge with both ends among them. */
export function copyFragment(nodes: readonly WorkflowNode[], edges: readonly WorkflowEdge[], nodeIds: ReadonlySet<string>): Fragment {
  return {
    kind: fragmentMarker,
    nodes: nodes.filter((node) => nodeIds.has(node.id)).map((node) => structuredClone(node)),
    edges: edges.filter((edge) => nodeIds.has(edge.source) && nodeIds.has(edge.target)).map((edge) => ({ ...edge })),
  };
}

/** Reads clipboard text as a fragment; null for anything else. */
export function readFragment(text: string): Fragment | null {
  try {
    const parsed = fragmentSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The fragment's nodes and edges with ids free in the target workflow and
 * positions moved by `offset`, as n8n pastes a copy beside the original.
 */
export function pasteFragment(
  fragment: Fragment,
  taken: { nodeIds: Iterable<string>; edgeIds: Iterable<string> },
  offset: { x: number; y: number },
): { nodes: WorkflowNode[]; edges: WorkflowEdge[] } {
  const nodeIds = new Set(taken.nodeIds);
  const edgeIds = new Set(taken.edgeIds);
  const renamed = new Map<string, string>();
  const nodes = fragment.nodes.map((node) => {
    const id = uniqueId(node.id, nodeIds);
    nodeIds.add(id);
    renamed.set(node.id, id);
    return { ...structuredClone(node), id, position: { x: node.position.x + offset.x, y: node.position.y + offset.y } };
  });
  const edges = fragment.edges.flatMap((edge) => {
    const source = renamed.get(edge.source);
    const target = renamed.get(edge.target);
    if (!source || !target) return [];
    const id = uniqueId(`${source}-${edge.sourceHandle}-${target}-${edge.targetHandle}`, edgeIds);
    edgeIds.add(id);
    return [{ ...edge, id, source, target }];
  });
  return { nodes, edges };
}
