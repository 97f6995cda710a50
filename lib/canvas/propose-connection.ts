import { canConnect, type EdgeKind, type NodeTypes, type Workflow } from "../graph";
import { isSourceRole, parseHandleId } from "./handle-ids";

/** A connection as React Flow reports it: from the handle the drag started on to the one it ended on. */
export interface DrawnConnection {
  source: string;
  sourceHandle: string | null;
  target: string;
  targetHandle: string | null;
}

export type ProposedEdge =
  | { ok: true; edge: { kind: EdgeKind; source: string; sourceHandle: string; target: string; targetHandle: string }; warning?: string }
  | { ok: false; reason: string };

/**
 * Checks a drawn connection by the workflow's rules (canConnect). A drag may
 * start at either end: one that starts on an input or an agent's tool socket
 * and ends on an output or a provider is read the right way round, as
 * n8n and Flowise do. Any other pair is checked as drawn, so the refusal
 * names what is wrong with it ("both ends here consume tools").
 */
export function proposeConnection(workflow: Workflow, nodeTypes: NodeTypes, drawn: DrawnConnection): ProposedEdge {
  const from = parseHandleId(drawn.sourceHandle);
  const to = parseHandleId(drawn.targetHandle);
  if (!from || !to) return { ok: false, reason: "Connect two handles: the dots and sockets on the nodes' edges." };
  const reversed = !isSourceRole(from.role) && isSourceRole(to.role);
  const connection = reversed
    ? { source: drawn.target, sourceHandle: to.name, target: drawn.source, targetHandle: from.name }
    : { source: drawn.source, sourceHandle: from.name, target: drawn.target, targetHandle: to.name };
  const verdict = canConnect(workflow, nodeTypes, connection);
  if (!verdict.ok) return { ok: false, reason: verdict.reason };
  const edge = { kind: verdict.kind, ...connection };
  return verdict.warning ? { ok: true, edge, warning: verdict.warning } : { ok: true, edge };
}
