import dagre from "@dagrejs/dagre";
import type { EdgeKind } from "../graph";

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdge {
  kind: EdgeKind;
  source: string;
  target: string;
}

export interface LayoutOptions {
  /** Space between nodes in one column, and between a node and the tools below it. */
  gap?: number;
  /** Space between columns. */
  columnGap?: number;
}

type Position = { x: number; y: number };

/**
 * Positions (top-left corners) for a tidy left-to-right layout, as n8n's
 * "tidy up" does: signal edges run left to right in columns (dagre), and a
 * service node that only offers tools sits in a row right under the first
 * agent it serves, the way Flowise and Langflow show tools plugged into an
 * agent. Task Starts keep their place at the head of their sub-flow. Nodes
 * no edge touches are not stacked in dagre's first column (where the edges
 * drawn later would cross them): they go in rows under the rest, in
 * document order, left to right, the way they will most likely be wired.
 *
 * @example autoLayout(nodes, edges)["agent"] // { x: 320, y: 40 }
 */
export function autoLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], options: LayoutOptions = {}): Record<string, Position> {
  const gap = options.gap ?? 40;
  const columnGap = options.columnGap ?? 100;
  const touched = new Set(edges.flatMap((edge) => [edge.source, edge.target]));
  const loose = nodes.filter((node) => !touched.has(node.id));
  const positions = layoutWired(nodes.filter((node) => touched.has(node.id)), edges, gap, columnGap);
  const placed = Object.entries(positions).map(([id, position]) => ({ ...position, height: nodes.find((node) => node.id === id)?.height ?? 0 }));
  const top = placed.length > 0 ? Math.max(...placed.map((box) => box.y + box.height)) + columnGap : 0;
  const left = placed.length > 0 ? Math.min(...placed.map((box) => box.x)) : 0;
  const perRow = 6;
  for (let start = 0, y = top; start < loose.length; start += perRow) {
    const row = loose.slice(start, start + perRow);
    let x = left;
    for (const node of row) {
      positions[node.id] = { x: round(x), y: round(y) };
      x += node.width + columnGap;
    }
    y += Math.max(...row.map((node) => node.height)) + gap;
  }
  return positions;
}

/** The dagre layout of the nodes some edge touches, with tool providers in rows under their agents. */
function layoutWired(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], gap: number, columnGap: number): Record<string, Position> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const inFlow = new Set<string>();
  for (const edge of edges) {
    if (edge.kind !== "signal" && edge.kind !== "task") continue;
    if (edge.kind === "signal") inFlow.add(edge.source);
    inFlow.add(edge.target);
  }
  // A provider with no signal edge belongs under its first consumer: the agent's block grows to hold it.
  const hostOf = new Map<string, string>();
  for (const edge of edges) {
    if (edge.kind !== "service" || inFlow.has(edge.source) || hostOf.has(edge.source)) continue;
    if (byId.has(edge.source) && byId.has(edge.target) && edge.source !== edge.target) hostOf.set(edge.source, edge.target);
  }
  // Only one level: a host that is itself hosted stays in the flow.
  for (const [satellite, host] of hostOf) if (hostOf.has(host)) hostOf.delete(satellite);
  const satellites = new Map<string, LayoutNode[]>();
  for (const [satellite, host] of hostOf) satellites.set(host, [...(satellites.get(host) ?? []), byId.get(satellite)!]);

  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: "LR", nodesep: gap, ranksep: columnGap, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) {
    if (hostOf.has(node.id)) continue;
    const row = satellites.get(node.id) ?? [];
    const rowWidth = row.reduce((sum, satellite) => sum + satellite.width, 0) + gap * Math.max(0, row.length - 1);
    const rowHeight = Math.max(0, ...row.map((satellite) => satellite.height));
    graph.setNode(node.id, { width: Math.max(node.width, rowWidth), height: node.height + (row.length > 0 ? gap + rowHeight : 0) });
  }
  edges.forEach((edge, index) => {
    if (edge.kind !== "signal" || edge.source === edge.target) return;
    if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target, {}, `e${index}`);
  });
  dagre.layout(graph);

  const positions: Record<string, Position> = {};
  for (const id of graph.nodes()) {
    const block = graph.node(id) as { x: number; y: number; width: number; height: number };
    const node = byId.get(id)!;
    const left = block.x - block.width / 2;
    const top = block.y - block.height / 2;
    positions[id] = { x: round(left + (block.width - node.width) / 2), y: round(top) };
    let x = left;
    for (const satellite of satellites.get(id) ?? []) {
      positions[satellite.id] = { x: round(x), y: round(top + node.height + gap) };
      x += satellite.width + gap;
    }
  }
  return positions;
}

function round(value: number): number {
  return Math.round(value);
}
