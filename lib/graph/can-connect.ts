import { checkConnection, type Connection } from "./connection-check";
import type { NodeTypes } from "./node-type-info";
import { loopsWithoutExit, reaches, signalSuccessors } from "./signal-loops";
import { createValidationContext, leavesConditionalOutput, type ValidationContext } from "./validation-context";
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
  const { context, conditional, unconditionalSuccessors } = prepared(workflow, nodeTypes);
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
  // Only an unconditional edge can be on a loop with no exit; the loop is named only when the cheap reachability check finds one.
  if (edge.kind === "signal" && !conditional(edge) && reaches(unconditionalSuccessors, edge.target, edge.source)) {
    const withEdge = { ...workflow, edges: [...workflow.edges, edge] };
    const loop = loopsWithoutExit(withEdge, conditional).find((found) => found.edgeIds.includes(proposedEdgeId));
    if (loop) {
      return {
        ok: false,
        reason: `This edge would close a loop through ${loop.nodeIds.map((id) => `"${id}"`).join(", ")} that nothing can stop: every output on it fires on every run. Loop back from a conditional output instead.`,
      };
    }
  }
  return verdict.warning ? { ok: true, kind: verdict.kind, warning: verdict.warning.message } : { ok: true, kind: verdict.kind };
}

interface Prepared {
  nodeTypes: NodeTypes;
  nodeCount: number;
  edgeCount: number;
  context: ValidationContext;
  conditional: (edge: WorkflowEdge) => boolean;
  unconditionalSuccessors: ReadonlyMap<string, string[]>;
}

/**
 * What every check against one workflow shares, made once per workflow
 * object: while an edge is drawn the canvas asks canConnect for every
 * handle on the canvas against the same document.
 */
const preparedByWorkflow = new WeakMap<Workflow, Prepared>();

function prepared(workflow: Workflow, nodeTypes: NodeTypes): Prepared {
  const cached = preparedByWorkflow.get(workflow);
  // The lengths guard against a caller that pushed into the same workflow object since.
  if (cached && cached.nodeTypes === nodeTypes && cached.nodeCount === workflow.nodes.length && cached.edgeCount === workflow.edges.length) return cached;
  const context = createValidationContext(workflow, nodeTypes);
  const conditional = (edge: WorkflowEdge) => leavesConditionalOutput(context, edge);
  const made = { nodeTypes, nodeCount: workflow.nodes.length, edgeCount: workflow.edges.length, context, conditional, unconditionalSuccessors: signalSuccessors(workflow, conditional) };
  preparedByWorkflow.set(workflow, made);
  return made;
}

function sameHandles(a: WorkflowEdge, b: WorkflowEdge): boolean {
  return a.kind === b.kind && a.source === b.source && a.sourceHandle === b.sourceHandle && a.target === b.target && a.targetHandle === b.targetHandle;
}
