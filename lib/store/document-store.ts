import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from "@xyflow/react";
import { createStore, type StoreApi } from "zustand/vanilla";
import { uniqueId } from "../canvas";
import type { Workflow, WorkflowEdge, WorkflowNode } from "../graph";
import { type CanvasEdge, type CanvasNode, nodeAriaLabel, type TitleOf, toCanvasEdge, toCanvasNode, toWorkflowEdge } from "./canvas-document";
import { type History, recordEdit, type Snapshot, stepBack, stepForward } from "./history";

/**
 * The document being edited, with its undo history. Selection, run status
 * and analysis live in their own stores (see canvas-stores.ts); timers
 * (autosave, polling) live in the components that own them.
 */
export interface DocumentState extends History {
  name: string;
  description?: string;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  /** Bumped by every change that is saved (moves included): autosave follows it. */
  revision: number;
  /** Bumped by every change but a move: validation and tool costs follow it. */
  contentRevision: number;
  actions: DocumentActions;
}

export interface DocumentActions {
  /** React Flow's changes: moves, sizes and selection flags. Removals go through removeElements. */
  onNodesChange(changes: NodeChange<CanvasNode>[]): void;
  onEdgesChange(changes: EdgeChange<CanvasEdge>[]): void;
  /** Before a drag: the state undo returns to. */
  beginGesture(): void;
  /** After a drag: forgets the undo step when nothing moved. */
  endGesture(): void;
  /** Adds nodes (and edges among them), selecting only them. */
  addElements(nodes: WorkflowNode[], edges?: WorkflowEdge[]): void;
  /** Adds one edge; its id is made from its ends. Returns the id. */
  addEdge(edge: Omit<WorkflowEdge, "id">): string;
  /** Changes a node's config or label. Edits with the same `mergeKey` in quick succession are one undo step (typing). */
  updateNode(id: string, patch: { config?: Record<string, unknown>; label?: string }, mergeKey?: string): void;
  /** Sets (or, with undefined, removes) the approval policy of a service or task edge: the tools it brings. One undo step. */
  setEdgeApproval(id: string, approval: WorkflowEdge["approval"]): void;
  /** Removes nodes, edges, and every edge touching a removed node. */
  removeElements(nodeIds: Iterable<string>, edgeIds: Iterable<string>): void;
  /** Moves nodes at once (auto-layout): one undo step. */
  moveNodes(positions: Record<string, { x: number; y: number }>): void;
  /** Replaces the whole document (a restored version): one undo step. */
  replaceDocument(workflow: Workflow): void;
  /** Marks exactly these elements selected. */
  select(nodeIds: Iterable<string>, edgeIds?: Iterable<string>): void;
  undo(): void;
  redo(): void;
}

export type DocumentStore = StoreApi<DocumentState>;

/** Edits with one merge key closer together than this are one undo step. */
const mergeWindowMs = 1200;

export function createDocumentStore(workflow: Workflow, titleOf: TitleOf): DocumentStore {
  let gesture: { before: Snapshot } | null = null;
  let lastMerge: { key: string; at: number } | null = null;

  return createStore<DocumentState>()((set, get) => {
    const snapshot = (): Snapshot => ({ nodes: get().nodes, edges: get().edges });

    /** Applies an edit as one undo step (or merged into the last one). */
    const edit = (next: Partial<Pick<DocumentState, "nodes" | "edges" | "name" | "description">>, options: { mergeKey?: string; content?: boolean } = {}) => {
      const state = get();
      const now = Date.now();
      const merge = options.mergeKey !== undefined && lastMerge?.key === options.mergeKey && now - lastMerge.at < mergeWindowMs;
      lastMerge = options.mergeKey !== undefined ? { key: options.mergeKey, at: now } : null;
      const history = merge ? { past: state.past, future: [] } : recordEdit(state, snapshot());
      set({
        ...next,
        ...history,
        revision: state.revision + 1,
        contentRevision: options.content === false ? state.contentRevision : state.contentRevision + 1,
      });
    };

    const restore = (step: { history: History; state: Snapshot } | null) => {
      if (!step) return;
      lastMerge = null;
      const { revision, contentRevision } = get();
      set({ ...step.history, nodes: step.state.nodes, edges: step.state.edges, revision: revision + 1, contentRevision: contentRevision + 1 });
    };

    const actions: DocumentActions = {
      onNodesChange(changes) {
        const moved = changes.some((change) => change.type === "position" && change.position !== undefined);
        const nodes = applyNodeChanges(changes.filter((change) => change.type !== "remove" && change.type !== "add" && change.type !== "replace"), get().nodes);
        if (!moved) return set({ nodes });
        if (gesture) return set({ nodes, revision: get().revision + 1 });
        // A move outside a drag (arrow keys on a selected node): one undo step per burst of presses.
        edit({ nodes }, { mergeKey: "keyboard-move", content: false });
      },
      onEdgesChange(changes) {
        set({ edges: applyEdgeChanges(changes.filter((change) => change.type === "select"), get().edges) });
      },
      beginGesture() {
        gesture = { before: snapshot() };
      },
      endGesture() {
        if (!gesture) return;
        const { before } = gesture;
        gesture = null;
        const now = get().nodes;
        const moved = now.length !== before.nodes.length || now.some((node, index) => node.position !== before.nodes[index]?.position);
        if (moved) set({ ...recordEdit(get(), before) });
        lastMerge = null;
      },
      addElements(nodes, edges = []) {
        const added = new Set(nodes.map((node) => node.id));
        const existing = get().nodes.map((node) => (node.selected ? { ...node, selected: false } : node));
        const existingEdges = get().edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge));
        edit({
          nodes: [...existing, ...nodes.map((node) => ({ ...toCanvasNode(node, titleOf), selected: added.has(node.id) }))],
          edges: [...existingEdges, ...edges.map(toCanvasEdge)],
        });
      },
      addEdge(edge) {
        const taken = new Set(get().edges.map((candidate) => candidate.id));
        const id = uniqueId(`${edge.source}-${edge.sourceHandle}-${edge.target}-${edge.targetHandle}`, taken);
        edit({ edges: [...get().edges, toCanvasEdge({ ...edge, id })] });
        return id;
      },
      updateNode(id, patch, mergeKey) {
        const nodes = get().nodes.map((node) => {
          if (node.id !== id) return node;
          const data = { ...node.data, ...(patch.config ? { config: patch.config } : {}) };
          if (patch.label !== undefined) {
            if (patch.label === "") delete data.label;
            else data.label = patch.label;
          }
          return { ...node, data, ariaLabel: nodeAriaLabel(node.id, data, titleOf) };
        });
        edit({ nodes }, mergeKey ? { mergeKey } : {});
      },
      setEdgeApproval(id, approval) {
        const edges = get().edges.map((edge) => {
          if (edge.id !== id) return edge;
          const { approval: _previous, ...plain } = toWorkflowEdge(edge);
          return { ...toCanvasEdge(approval === undefined ? plain : { ...plain, approval }), selected: edge.selected };
        });
        edit({ edges });
      },
      removeElements(nodeIds, edgeIds) {
        const nodesGone = new Set(nodeIds);
        const edgesGone = new Set(edgeIds);
        const { nodes, edges } = get();
        const keptNodes = nodes.filter((node) => !nodesGone.has(node.id));
        const keptEdges = edges.filter((edge) => !edgesGone.has(edge.id) && !nodesGone.has(edge.source) && !nodesGone.has(edge.target));
        if (keptNodes.length === nodes.length && keptEdges.length === edges.length) return;
        edit({ nodes: keptNodes, edges: keptEdges });
      },
      moveNodes(positions) {
        const nodes = get().nodes.map((node) => (positions[node.id] ? { ...node, position: positions[node.id] } : node));
        edit({ nodes }, { content: false });
      },
      replaceDocument(next) {
        edit({
          name: next.name,
          ...(next.description !== undefined ? { description: next.description } : {}),
          nodes: next.nodes.map((node) => toCanvasNode(node, titleOf)),
          edges: next.edges.map(toCanvasEdge),
        });
      },
      select(nodeIds, edgeIds = []) {
        const chosenNodes = new Set(nodeIds);
        const chosenEdges = new Set(edgeIds);
        set({
          nodes: get().nodes.map((node) => (Boolean(node.selected) === chosenNodes.has(node.id) ? node : { ...node, selected: chosenNodes.has(node.id) })),
          edges: get().edges.map((edge) => (Boolean(edge.selected) === chosenEdges.has(edge.id) ? edge : { ...edge, selected: chosenEdges.has(edge.id) })),
        });
      },
      undo() {
        restore(stepBack(get(), snapshot()));
      },
      redo() {
        restore(stepForward(get(), snapshot()));
      },
    };

    return {
      name: workflow.name,
      ...(workflow.description !== undefined ? { description: workflow.description } : {}),
      nodes: workflow.nodes.map((node) => toCanvasNode(node, titleOf)),
      edges: workflow.edges.map(toCanvasEdge),
      past: [],
      future: [],
      revision: 0,
      contentRevision: 0,
      actions,
    };
  });
}
