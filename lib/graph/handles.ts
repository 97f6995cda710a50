import type { ServiceConnector } from "../manifest/browser";
import type { EdgeKind, WorkflowNode } from "./workflow";
import { nodePorts, type NodePort, type NodeTypeInfo } from "./node-type-info";

/**
 * The handles of a node on the canvas, by what they do:
 * - `output` / `input`: signal ports;
 * - `provider`: an `isService: true` connector, which offers tools;
 * - `consumer`: an `isService: false` connector, an agent's tool socket;
 * - `task`: a Task Start's bottom handle, which offers its sub-flow as a tool.
 */
export type HandleRole = "output" | "input" | "provider" | "consumer" | "task";

export interface NodeHandle {
  name: string;
  role: HandleRole;
  /** For `output` and `input`. */
  port?: NodePort;
  /** For `provider` and `consumer`. */
  connector?: ServiceConnector;
}

/** The roles each edge kind joins: from its source handle to its target handle. */
export const edgeRoles: Record<EdgeKind, { source: HandleRole; target: HandleRole }> = {
  signal: { source: "output", target: "input" },
  service: { source: "provider", target: "consumer" },
  task: { source: "task", target: "consumer" },
};

/** Every handle of a node: outputs, inputs, connectors, and a Task Start's `task`. */
export function nodeHandles(node: Pick<WorkflowNode, "config">, info: NodeTypeInfo): NodeHandle[] {
  const ports = nodePorts(node, info);
  return [
    ...ports.outputs.map((port): NodeHandle => ({ name: port.name, role: "output", port })),
    ...ports.inputs.map((port): NodeHandle => ({ name: port.name, role: "input", port })),
    ...info.serviceConnectors.map((connector): NodeHandle => ({
      name: connector.name,
      role: connector.isService ? "provider" : "consumer",
      connector,
    })),
    ...(info.taskHandle ? [{ name: info.taskHandle, role: "task" as const }] : []),
  ];
}

/** The edge kind that joins these two roles, if any does. */
export function edgeKindFor(source: HandleRole, target: HandleRole): EdgeKind | undefined {
  return (Object.keys(edgeRoles) as EdgeKind[]).find((kind) => edgeRoles[kind].source === source && edgeRoles[kind].target === target);
}

/** How a handle reads in a sentence, e.g. `the output "answer"`. */
export function describeHandle(handle: NodeHandle): string {
  const what: Record<HandleRole, string> = {
    output: "the output",
    input: "the input",
    provider: "the tool-offering connector",
    consumer: "the tool-consuming connector",
    task: "the Task Start's task handle",
  };
  return handle.role === "task" ? what.task : `${what[handle.role]} "${handle.name}"`;
}
