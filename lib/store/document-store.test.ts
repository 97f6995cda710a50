import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Workflow } from "../graph";
import { toWorkflow } from "./canvas-document";
import { createDocumentStore } from "./document-store";

const workflow: Workflow = {
  version: 1,
  name: "Test",
  nodes: [
    { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: { maxTurns: 3 } },
    { id: "converter", type: "unit-converter", position: { x: 0, y: 200 }, config: {} },
  ],
  edges: [{ id: "tools", kind: "service", source: "converter", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" }],
};
const titleOf = (type: string) => ({ "offline-agent": "Offline agent", "unit-converter": "Unit Converter" })[type] ?? type;

describe("the document store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("holds the document as React Flow nodes and gives it back unchanged", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { nodes, edges } = store.getState();
    expect(nodes[0]).toMatchObject({ id: "agent", type: "workflow", ariaLabel: "Offline agent (node agent)", data: { type: "offline-agent", config: { maxTurns: 3 } } });
    expect(edges[0]).toMatchObject({ sourceHandle: "provider:mcpService", targetHandle: "consumer:mcpService", className: "edge-service" });
    expect(toWorkflow(store.getState())).toEqual(workflow);
  });

  it("undoes and redoes a delete, edges of the deleted node included", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.removeElements(["converter"], []);
    expect(toWorkflow(store.getState()).edges).toEqual([]);
    actions.undo();
    expect(toWorkflow(store.getState())).toEqual(workflow);
    actions.redo();
    expect(store.getState().nodes.map((node) => node.id)).toEqual(["agent"]);
    expect(store.getState().future).toEqual([]);
  });

  it("makes one undo step of a burst of typing in one field, and a new one after a pause", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    for (const label of ["U", "Un", "Uni", "Unit"]) actions.updateNode("agent", { label }, "label:agent");
    expect(store.getState().past).toHaveLength(1);
    expect(store.getState().nodes[0].ariaLabel).toBe("Unit (Offline agent, node agent)");
    vi.advanceTimersByTime(2000);
    actions.updateNode("agent", { label: "Unit helper" }, "label:agent");
    expect(store.getState().past).toHaveLength(2);
    actions.undo();
    expect(store.getState().nodes[0].data.label).toBe("Unit");
    actions.undo();
    expect(store.getState().nodes[0].data.label).toBeUndefined();
  });

  it("counts a drag as one undo step, and none when nothing moved", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.beginGesture();
    for (const x of [10, 20, 30]) actions.onNodesChange([{ type: "position", id: "agent", position: { x, y: 0 }, dragging: true }]);
    actions.endGesture();
    expect(store.getState().past).toHaveLength(1);
    expect(store.getState().revision).toBe(3);
    expect(store.getState().contentRevision).toBe(0);
    actions.beginGesture();
    actions.endGesture();
    expect(store.getState().past).toHaveLength(1);
    actions.undo();
    expect(store.getState().nodes[0].position).toEqual({ x: 0, y: 0 });
  });

  it("leaves selection and sizes out of the history", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.onNodesChange([{ type: "select", id: "agent", selected: true }]);
    actions.onNodesChange([{ type: "dimensions", id: "agent", dimensions: { width: 240, height: 120 } }]);
    expect(store.getState().past).toHaveLength(0);
    expect(store.getState().revision).toBe(0);
    expect(store.getState().nodes[0].selected).toBe(true);
  });

  it("adds nodes selected, and an edge with an id made from its ends", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.select(["agent"]);
    actions.addElements([{ id: "end", type: "end", position: { x: 400, y: 0 }, config: {} }]);
    expect(store.getState().nodes.filter((node) => node.selected).map((node) => node.id)).toEqual(["end"]);
    const id = actions.addEdge({ kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" });
    expect(id).toBe("agent-answer-end-result");
    expect(actions.addEdge({ kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" })).toBe("agent-answer-end-result-2");
  });

  it("replaces the document (a restored version) as one undo step", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.replaceDocument({ version: 1, name: "Test", nodes: [], edges: [] });
    expect(store.getState().nodes).toEqual([]);
    actions.undo();
    expect(toWorkflow(store.getState())).toEqual(workflow);
  });

  it("moves many nodes at once (auto-layout) as one undo step that is not a content change", () => {
    const store = createDocumentStore(workflow, titleOf);
    const { actions } = store.getState();
    actions.moveNodes({ agent: { x: 5, y: 5 }, converter: { x: 5, y: 300 } });
    expect(store.getState().contentRevision).toBe(0);
    expect(store.getState().revision).toBe(1);
    actions.undo();
    expect(toWorkflow(store.getState())).toEqual(workflow);
  });
});
