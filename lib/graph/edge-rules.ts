import { checkConnection } from "./connection-check";
import type { GraphProblem } from "./graph-problem";
import { nodePorts } from "./node-type-info";
import type { ValidationContext } from "./validation-context";

/** Two edges with one id. */
export function duplicateEdgeIds(context: ValidationContext): GraphProblem[] {
  const seen = new Set<string>();
  return context.workflow.edges.flatMap((edge, index) => {
    if (!seen.has(edge.id)) {
      seen.add(edge.id);
      return [];
    }
    return [{
      code: "duplicate-edge-id",
      message: `Another edge already has the id "${edge.id}"; give this one a unique id.`,
      edgeId: edge.id,
      field: `edges.${index}.id`,
      severity: "error",
    }];
  });
}

/**
 * Each edge on its own: both nodes exist (`dangling-edge`), both handles
 * exist (`unknown-handle`), the handles make the edge's kind
 * (`edge-kind-mismatch`), and a signal's port types fit
 * (`signal-type-mismatch`, or the warning `signal-type-conversion`).
 * An edge touching a node of unknown type is left to `unknown-node-type`.
 */
export function edgeProblems(context: ValidationContext): GraphProblem[] {
  return context.workflow.edges.flatMap((edge): GraphProblem[] => {
    const verdict = checkConnection(context.nodesById, context.nodeTypes, edge);
    if (verdict.ok) {
      return verdict.warning ? [{ ...verdict.warning, edgeId: edge.id, field: "targetHandle", severity: "warning" }] : [];
    }
    if (verdict.code === "unknown-node-type") return [];
    return [{ code: verdict.code, message: verdict.reason, edgeId: edge.id, field: verdict.field, severity: "error" }];
  });
}

/** The same two handles joined twice: the second edge only doubles every signal. */
export function duplicateConnections(context: ValidationContext): GraphProblem[] {
  const seen = new Map<string, string>();
  return context.workflow.edges.flatMap((edge) => {
    const key = JSON.stringify([edge.kind, edge.source, edge.sourceHandle, edge.target, edge.targetHandle]);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, edge.id);
      return [];
    }
    return [{
      code: "duplicate-connection",
      message: `Edge "${edge.id}" joins the same handles as edge "${first}"; delete one of them.`,
      edgeId: edge.id,
      severity: "warning" as const,
    }];
  });
}

/** A required input nothing feeds: the node would wait for ever. A warning, as the author may still be wiring. */
export function unconnectedRequiredInputs(context: ValidationContext): GraphProblem[] {
  const fed = new Set(context.workflow.edges.filter((edge) => edge.kind === "signal").map((edge) => `${edge.target}\u0000${edge.targetHandle}`));
  return context.workflow.nodes.flatMap((node) => {
    const info = context.typeOf(node.id);
    if (!info || context.nodesById.get(node.id) !== node) return [];
    return nodePorts(node, info)
      .inputs.filter((port) => port.required && !fed.has(`${node.id}\u0000${port.name}`))
      .map((port) => ({
        code: "required-input-unconnected",
        message: `Node "${node.id}" needs a value on its input "${port.name}" before it can run, and no edge brings one; connect an output to it.`,
        nodeId: node.id,
        field: `inputs.${port.name}`,
        severity: "warning" as const,
      }));
  });
}
