import { checkConnection, type Connection } from "./connection-check";
import type { NodeTypes } from "./node-type-info";
import { loopsWithoutExit } from "./signal-loops";
import { createValidationContext, leavesConditionalOutput } from "./validation-context";
import type { EdgeKind, Workflow, WorkflowEdge } from "./workflow";

export type ConnectVerdict = { ok: true; kind: EdgeKind; warning?: string } | { ok: false; reason: string };

/** The id a proposed edge has while it is checked; never stored. */
const proposedEdgeId = "\u0000proposed";

/**
 * Whether the canvas may draw this connection, by the same rules as
 * validateWorkflow applied to one edge: the handles exist and make an edge
 * kind (the connection's, when it names one), signal types fit, the same
 * handles are not joined twice, and a signal edge closes no loop that
 * nothing can stop. A refusal says why, for the author to read.
 *
 * @example
 * canConnect(workflow, nodeTypes, { source: "a", sourceHandle: "mcpService", target: "b", targetHandle: "mcpService" })
 * // { ok: false, reason: "A service edge joins a tool provider to an agent; both ends here consume tools." }
 */
export function canConnect(workflow: Workflow, nodeTypes: NodeTypes, connection: Connection): ConnectVerdict {
  const context = createValidationContext(workflow, nodeTypes);
  const verdict = checkConnection(context.nodesById, nodeTypes, connection);
  if (!verdict.ok) return { ok: false, reason: verdict.reason };
  const edge: WorkflowEdge = {
    id: proposedEdgeId,
    kind: verdict.kind,
    source: connection.source,
    sourceHandle: connection.sourceHandle ?? "",
    target: connection.target,
    targetHandle: connection.targetHandle ?? "",
  };
  const twin = workflow.edges.find((other) => sameHandles(other, edge));
  if (twin) return { ok: false, reason: `These two handles are already joined by edge "${twin.id}".` };
  if (edge.kind === "signal") {
    const withEdge = { ...workflow, edges: [...workflow.edges, edge] };
    const loop = loopsWithoutExit(withEdge, (candidate) => leavesConditionalOutput(context, candidate)).find((found) => found.edgeIds.includes(proposedEdgeId));
    if (loop) {
      return {
        ok: false,
        reason: `This edge would close a loop through ${loop.nodeIds.map((id) => `"${id}"`).join(", ")} that nothing can stop: every output on it fires on every run. Loop back from a conditional output instead.`,
      };
    }
  }
  return verdict.warning ? { ok: true, kind: verdict.kind, warning: verdict.warning.message } : { ok: true, kind: verdict.kind };
}

function sameHandles(a: WorkflowEdge, b: WorkflowEdge): boolean {
  return a.kind === b.kind && a.source === b.source && a.sourceHandle === b.sourceHandle && a.target === b.target && a.targetHandle === b.targetHandle;
}
