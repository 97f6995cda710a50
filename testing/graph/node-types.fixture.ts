import { bareNodeType, type NodePort, type NodeTypeInfo, type NodeTypes } from "../../lib/graph/node-type-info";
import type { EdgeKind, Workflow, WorkflowEdge, WorkflowNode } from "../../lib/graph/workflow";

/**
 * Test double: a small, fixed catalogue of node types covering every kind of
 * port and connector, and builders for workflows over it. Used by the tests
 * of lib/graph only.
 */

const port = (name: string, type: NodePort["type"], required = false): NodePort => ({ name, type, description: "", required });

/** Every fixture type starts bare; each names its title and fills in its parts. */
const base = bareNodeType("", "A fixture node.");

const fixtureTypes: Record<string, NodeTypeInfo> = {
  agent: {
    ...base,
    title: "Agent",
    kind: "CallbackNode",
    inputs: [port("prompt", "string", true)],
    outputs: [port("answer", "string")],
    serviceConnectors: [{ name: "mcpService", description: "", serviceType: "mcp", isService: false, methods: [] }],
    hasToolExchange: true,
    configSchema: { type: "object", properties: { maxTurns: { type: "integer", minimum: 1, maximum: 20, default: 5 } }, required: [] },
  },
  converter: {
    ...base,
    title: "Converter",
    serviceConnectors: [{ name: "mcpService", description: "", serviceType: "mcp", isService: true, methods: ["convert"] }],
  },
  "converter-step": {
    ...base,
    title: "Converter with outputs",
    outputs: [port("ready", "signal")],
    serviceConnectors: [{ name: "mcpService", description: "", serviceType: "mcp", isService: true, methods: ["convert"] }],
  },
  request: {
    ...base,
    title: "Request",
    inputs: [port("trigger", "signal"), port("path", "string"), port("query", "object")],
    outputs: [port("response", "object"), port("status", "number"), port("items", "array")],
    configSchema: { type: "object", properties: { baseUrl: { type: "string" } }, required: ["baseUrl"] },
  },
  merge: {
    ...base,
    title: "Merge",
    inputs: [port("left", "string", true), port("right", "string", true), port("extra", "string")],
    outputs: [port("merged", "string")],
  },
  gate: {
    ...base,
    title: "Gate",
    inputs: [port("open", "boolean", true)],
    outputs: [port("passed", "signal")],
  },
  checker: {
    ...base,
    title: "Checker",
    inputs: [port("text", "string", true)],
    outputs: [port("done", "string"), port("retry", "string")],
    conditionalOutputs: ["done", "retry"],
  },
  echo: {
    ...base,
    title: "Echo",
    inputs: [port("text", "string")],
    outputs: [port("text", "string")],
  },
  clock: {
    ...base,
    title: "Clock",
    outputs: [port("tick", "signal")],
  },
};

/** The fixture catalogue as a lookup. */
export const fixtureNodeTypes: NodeTypes = (type) => fixtureTypes[type];

/** A node at the origin. */
export function node(id: string, type: string, config: Record<string, unknown> = {}): WorkflowNode {
  return { id, type, position: { x: 0, y: 0 }, config };
}

/** An edge; its id is derived from its ends unless given. */
export function edge(kind: EdgeKind, from: `${string}.${string}`, to: `${string}.${string}`, id?: string): WorkflowEdge {
  const [source, sourceHandle] = from.split(".");
  const [target, targetHandle] = to.split(".");
  return { id: id ?? `${from}->${to}`, kind, source, sourceHandle, target, targetHandle };
}

export function workflowOf(nodes: WorkflowNode[], edges: WorkflowEdge[] = []): Workflow {
  return { version: 1, name: "Fixture", nodes, edges };
}

/** A Start with one required string field, `question`. */
export const questionStart = node("start", "start", { inputs: [{ name: "question", type: "string", required: true }] });

/** A Task Start with a title, a description and one field, `topic`. */
export function titledTaskStart(id: string): WorkflowNode {
  return node(id, "task-start", { title: "Research a topic", description: "Finds facts about a topic and returns them.", inputs: [{ name: "topic", type: "string", required: true }] });
}
