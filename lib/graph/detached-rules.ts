import { detachedNodeIds } from "./detached-nodes";
import { nodePorts } from "./node-type-info";
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

/** Start and Task Start may stand alone (see detached-nodes.ts); End and Task End are where outputs go. */
const notALoss = new Set(["start", "task-start", "end", "task-end"]);

/**
 * A node that runs (an edge reaches it) but whose outputs no signal edge
 * takes anywhere: what it produces is lost, and a run whose agents all end
 * this way completes with no result. Named with what is lost.
 */
export function outputsReachNothing(context: ValidationContext): GraphProblem[] {
  const detached = detachedNodeIds(context.workflow);
  const sending = new Set(context.workflow.edges.filter((edge) => edge.kind === "signal").map((edge) => edge.source));
  const hasEnd = context.workflow.nodes.some((node) => node.type === "end");
  return context.workflow.nodes.flatMap((node): GraphProblem[] => {
    const info = context.typeOf(node.id);
    if (!info || notALoss.has(node.type) || detached.has(node.id) || sending.has(node.id) || context.nodesById.get(node.id) !== node) return [];
    const outputs = nodePorts(node, info).outputs.map((port) => port.name);
    if (outputs.length === 0) return [];
    const what = outputs.length === 1 ? `its output "${outputs[0]}"` : `its outputs ${outputs.map((name) => `"${name}"`).join(", ")}`;
    const fix = hasEnd ? "Connect one to the End (or to a node that leads there)" : "Add an End and connect one to it";
    return [{
      code: "outputs-reach-nothing",
      message: `What "${node.id}" produces is lost: nothing takes ${what} anywhere, so the run ends without it. ${fix}.`,
      nodeId: node.id,
      severity: "warning",
    }];
  });
}
