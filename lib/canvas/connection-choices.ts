import { lookupNodeType, type NodeHandle, nodeHandles, type NodeTypes, type Workflow } from "../graph";
import { handleId, isSourceRole } from "./handle-ids";
import { proposeConnection } from "./propose-connection";

/** A handle of another node that one of this node's handles may be joined to now. */
export interface ConnectionChoice {
  /** The other node and its handle (a canvas handle id). */
  nodeId: string;
  handle: string;
  /** E.g. `end: input "result" (any)`. */
  label: string;
  /** What joining them would warn about, if anything. */
  warning?: string;
}

/** One handle of the node, with every far end it can be joined to. */
export interface HandleChoices {
  handle: string;
  label: string;
  choices: ConnectionChoice[];
}

/**
 * Every connection the node could make now, handle by handle, by the same
 * rules as a drawn edge (proposeConnection): the inspector's "Connect"
 * form offers these, so wiring needs neither a pointer nor a zoom at which
 * the handles are big enough to aim at. Handles with no possible far end
 * are left out.
 */
export function connectionChoices(workflow: Workflow, nodeTypes: NodeTypes, nodeId: string): HandleChoices[] {
  const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
  const info = node && lookupNodeType(nodeTypes, node.type);
  if (!node || !info) return [];
  const others = workflow.nodes.flatMap((other) => {
    const otherInfo = other.id === nodeId ? undefined : lookupNodeType(nodeTypes, other.type);
    return otherInfo ? [{ id: other.id, handles: nodeHandles(other, otherInfo) }] : [];
  });
  return nodeHandles(node, info).flatMap((own): HandleChoices[] => {
    const ownId = handleId(own.role, own.name);
    const choices = others.flatMap((other) =>
      other.handles
        .filter((far) => isSourceRole(far.role) !== isSourceRole(own.role))
        .flatMap((far): ConnectionChoice[] => {
          const farId = handleId(far.role, far.name);
          const verdict = proposeConnection(workflow, nodeTypes, { source: nodeId, sourceHandle: ownId, target: other.id, targetHandle: farId });
          if (!verdict.ok) return [];
          const choice: ConnectionChoice = { nodeId: other.id, handle: farId, label: `${other.id}: ${handleWords(far)}` };
          return [verdict.warning ? { ...choice, warning: verdict.warning } : choice];
        }),
    );
    return choices.length > 0 ? [{ handle: ownId, label: handleWords(own), choices }] : [];
  });
}

/** E.g. `output "answer" (string)`, `tool socket "mcpService"`: how the form names a handle. */
export function handleWords(handle: NodeHandle): string {
  switch (handle.role) {
    case "input":
    case "output":
      return `${handle.role} "${handle.name}" (${handle.port?.type ?? "any"})`;
    case "provider":
      return `tool provider "${handle.name}"`;
    case "consumer":
      return `tool socket "${handle.name}"`;
    case "task":
      return "task handle";
  }
}
