import { describe, expect, it } from "vitest";
import { toCanvasEdge, toCanvasNode, toWorkflowEdge, toWorkflowNode } from "./canvas-document";

describe("the canvas keeps approval policies", () => {
  it("a node's approvals and an edge's approval survive the round trip through the canvas, so saving keeps them", () => {
    const node = { id: "clerk", type: "plain-agent", position: { x: 0, y: 0 }, config: {}, approvals: { send_email: "ask" as const, "*": { decide: "rules" as const, taintedWrite: "deny" as const, destructive: "ask" as const, openWorld: "allow" as const, timeoutHours: 2 } } };
    expect(toWorkflowNode(toCanvasNode(node, (type) => type))).toEqual(node);
    const edge = { id: "e1", kind: "service" as const, source: "mail", sourceHandle: "mcpService", target: "clerk", targetHandle: "mcpService", approval: "deny" as const };
    expect(toWorkflowEdge(toCanvasEdge(edge))).toEqual(edge);
  });
});

describe("setting an edge's approval policy", () => {
  it("stores it on the edge (so the exported workflow has it), shows it as the edge's badge, undoes, and removes it again", async () => {
    const { createDocumentStore } = await import("./document-store");
    const { toWorkflow } = await import("./canvas-document");
    const workflow = {
      version: 1 as const,
      name: "mail",
      nodes: [
        { id: "clerk", type: "offline-agent", position: { x: 0, y: 0 }, config: {} },
        { id: "mail", type: "unit-converter", position: { x: 0, y: 200 }, config: {} },
      ],
      edges: [{ id: "tools", kind: "service" as const, source: "mail", sourceHandle: "mcpService", target: "clerk", targetHandle: "mcpService" }],
    };
    const store = createDocumentStore(workflow, (type) => type);
    store.getState().actions.setEdgeApproval("tools", "ask");
    const [edge] = store.getState().edges;
    expect(edge.label).toBe("approval: ask");
    expect(edge.ariaLabel).toBe("Service edge from mail.mcpService to clerk.mcpService, approval policy ask");
    expect(toWorkflow(store.getState()).edges[0]).toMatchObject({ id: "tools", approval: "ask" });
    store.getState().actions.undo();
    expect(toWorkflow(store.getState()).edges[0].approval).toBeUndefined();
    store.getState().actions.redo();
    store.getState().actions.setEdgeApproval("tools", undefined);
    expect(toWorkflow(store.getState()).edges[0]).not.toHaveProperty("approval");
    expect(store.getState().edges[0].label).toBeUndefined();
  });
});
