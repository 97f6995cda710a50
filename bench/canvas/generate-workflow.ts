import type { Workflow, WorkflowEdge, WorkflowNode } from "../../lib/graph";

/**
 * A large workflow of real node types, for the canvas bench: HTTP Request
 * steps chained by signals, agents fed by them and wired to unit converters
 * over service edges, laid out on a grid. Exactly `nodeCount` nodes and
 * `edgeCount` edges (as many as fit, forward only, so no loop).
 */
export function generateWorkflow(nodeCount: number, edgeCount: number): Workflow {
  const columns = Math.ceil(Math.sqrt(nodeCount * 1.6));
  const kinds = ["http-request", "http-request", "http-request", "unit-converter", "offline-agent"] as const;
  const nodes: WorkflowNode[] = Array.from({ length: nodeCount }, (_, index) => ({
    id: `n${index}`,
    type: kinds[index % kinds.length],
    position: { x: (index % columns) * 300, y: Math.floor(index / columns) * 200 },
    config: kinds[index % kinds.length] === "http-request" ? { baseUrl: "https://api.example.com", method: "GET" } : {},
  }));
  const edges: WorkflowEdge[] = [];
  const add = (edge: Omit<WorkflowEdge, "id">) => {
    if (edges.length < edgeCount) edges.push({ ...edge, id: `e${edges.length}` });
  };
  const http = nodes.filter((node) => node.type === "http-request");
  for (let index = 1; index < http.length; index++) add({ kind: "signal", source: http[index - 1].id, sourceHandle: "response", target: http[index].id, targetHandle: "body" });
  for (const [index, node] of nodes.entries()) {
    if (node.type !== "offline-agent") continue;
    add({ kind: "service", source: nodes[index - 1].id, sourceHandle: "mcpService", target: node.id, targetHandle: "mcpService" });
    const next = nodes.slice(index + 1).find((candidate) => candidate.type === "http-request");
    if (next) add({ kind: "signal", source: node.id, sourceHandle: "answer", target: next.id, targetHandle: "path" });
  }
  for (let step = 7; edges.length < edgeCount && step < http.length; step += 5) {
    for (let index = 0; index + step < http.length && edges.length < edgeCount; index++) {
      add({ kind: "signal", source: http[index].id, sourceHandle: "response", target: http[index + step].id, targetHandle: "query" });
    }
  }
  return { version: 1, name: `Bench: ${nodeCount} nodes, ${edgeCount} edges`, nodes, edges };
}
