import { detachedNodeIds } from "./detached-nodes";
import type { GraphProblem } from "./graph-problem";
import type { ValidationContext } from "./validation-context";

/** A node no edge touches: it does not run. A warning, as the author may still be wiring. */
export function detachedNodes(context: ValidationContext): GraphProblem[] {
  const detached = detachedNodeIds(context.workflow);
  return context.workflow.nodes.flatMap((node): GraphProblem[] => {
    const info = context.typeOf(node.id);
    if (!detached.has(node.id) || !info || context.nodesById.get(node.id) !== node || offersTools(context, node.id)) return [];
    return [{
      code: "node-unconnected",
      message: `Node "${node.id}" is not connected to anything, so it does not run. Connect it, or delete it.`,
      nodeId: node.id,
      severity: "warning",
    }];
  });
}

/** A node that offers tools (a service, an MCP server) that no agent is wired to: its tools reach nobody. */
export function unconnectedServices(context: ValidationContext): GraphProblem[] {
  const serving = new Set(context.workflow.edges.filter((edge) => edge.kind === "service").map((edge) => edge.source));
  return context.workflow.nodes.flatMap((node): GraphProblem[] => {
    if (serving.has(node.id) || context.nodesById.get(node.id) !== node || !offersTools(context, node.id)) return [];
    return [{
      code: "service-unconnected",
      message: `No agent uses the tools of "${node.id}". Wire its top connector to an agent's tool socket, or delete it.`,
      nodeId: node.id,
      severity: "warning",
    }];
  });
}

function offersTools(context: ValidationContext, nodeId: string): boolean {
  return context.typeOf(nodeId)?.serviceConnectors.some((connector) => connector.isService) ?? false;
}
