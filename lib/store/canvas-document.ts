import type { Edge, Node } from "@xyflow/react";
import { edgeHandleIds, parseHandleId } from "../canvas";
import { type EdgeKind, type ToolSource, type Workflow, type WorkflowEdge, type WorkflowNode, wiredPolicyLabel } from "../graph";

/**
 * The workflow document as React Flow holds it. Node and edge data stay
 * plain JSON (no functions); what React Flow adds (`selected`, `measured`,
 * `dragging`, `ariaLabel`) is view state and is dropped when the document
 * is read back (toWorkflow), as parseWorkflow would drop it anyway.
 */
export interface CanvasNodeData extends Record<string, unknown> {
  /** The node type's name (e.g. `offline-agent` or `start`). */
  type: string;
  config: Record<string, unknown>;
  label?: string;
  /** The node-level tool override (declared builtin, custom and MCP tools), carried through unchanged. */
  tools?: ToolSource[];
  /** The agent's approval policies per tool, carried through unchanged (docs/approvals.md). */
  approvals?: WorkflowNode["approvals"];
}
export type CanvasNode = Node<CanvasNodeData, "workflow">;

export interface CanvasEdgeData extends Record<string, unknown> {
  kind: EdgeKind;
  /** A service or task edge's approval policy, carried through unchanged. */
  approval?: WorkflowEdge["approval"];
}
export type CanvasEdge = Edge<CanvasEdgeData>;

/** Names a node type for people: its title, or the name when the type is unknown. */
export type TitleOf = (type: string) => string;

export function toCanvasNode(node: WorkflowNode, titleOf: TitleOf): CanvasNode {
  const data: CanvasNodeData = { type: node.type, config: node.config };
  if (node.label !== undefined) data.label = node.label;
  if (node.tools !== undefined) data.tools = node.tools;
  if (node.approvals !== undefined) data.approvals = node.approvals;
  return { id: node.id, type: "workflow", position: { ...node.position }, data, ariaLabel: nodeAriaLabel(node.id, data, titleOf) };
}

/** What a screen reader says for a node: its label (or title) and type, e.g. `Offline agent (node agent)`. */
export function nodeAriaLabel(id: string, data: CanvasNodeData, titleOf: TitleOf): string {
  const title = titleOf(data.type);
  return data.label ? `${data.label} (${title}, node ${id})` : `${title} (node ${id})`;
}

export function toCanvasEdge(edge: WorkflowEdge): CanvasEdge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...edgeHandleIds(edge),
    className: `edge-${edge.kind}${edge.approval === undefined ? "" : " has-approval"}`,
    data: { kind: edge.kind, ...(edge.approval === undefined ? {} : { approval: edge.approval }) },
    // The edge's approval policy as a badge on it (React Flow draws `label` at the edge's middle).
    ...(edge.approval === undefined ? {} : { label: `approval: ${wiredPolicyLabel(edge.approval)}` }),
    ariaLabel: `${capitalize(edge.kind)} edge from ${edge.source}.${edge.sourceHandle} to ${edge.target}.${edge.targetHandle}${edge.approval === undefined ? "" : `, approval policy ${wiredPolicyLabel(edge.approval)}`}`,
  };
}

export function toWorkflowNode(node: CanvasNode): WorkflowNode {
  const plain: WorkflowNode = { id: node.id, type: node.data.type, position: { x: node.position.x, y: node.position.y }, config: node.data.config };
  if (node.data.label !== undefined && node.data.label !== "") plain.label = node.data.label;
  if (node.data.tools !== undefined) plain.tools = node.data.tools;
  if (node.data.approvals !== undefined) plain.approvals = node.data.approvals;
  return plain;
}

export function toWorkflowEdge(edge: CanvasEdge): WorkflowEdge {
  return {
    id: edge.id,
    kind: edge.data?.kind ?? "signal",
    source: edge.source,
    sourceHandle: parseHandleId(edge.sourceHandle)?.name ?? edge.sourceHandle ?? "",
    target: edge.target,
    targetHandle: parseHandleId(edge.targetHandle)?.name ?? edge.targetHandle ?? "",
    ...(edge.data?.approval === undefined ? {} : { approval: edge.data.approval }),
  };
}

/** The serializable document of a canvas. */
export function toWorkflow(state: { name: string; description?: string; nodes: readonly CanvasNode[]; edges: readonly CanvasEdge[] }): Workflow {
  return {
    version: 1,
    name: state.name,
    ...(state.description !== undefined ? { description: state.description } : {}),
    nodes: state.nodes.map(toWorkflowNode),
    edges: state.edges.map(toWorkflowEdge),
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
