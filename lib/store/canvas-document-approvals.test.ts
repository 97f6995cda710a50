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
