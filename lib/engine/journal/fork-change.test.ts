import { describe, expect, it } from "vitest";
import type { Workflow } from "../../graph";
import { describeForkChange, readForkChange, stepNode } from "../../run-model/fork-change";
import { changedNodes, replayedNodesChanged } from "./fork-document";

describe("fork changes", () => {
  it("finds the node of a step key, and whether it is inside a task's sub-flow", () => {
    expect(stepNode("agent#1/t3/c0")).toEqual({ nodeId: "agent", nested: false });
    expect(stepNode("merge#2/step")).toEqual({ nodeId: "merge", nested: false });
    expect(stepNode("0b6f3c1e-1111-5222-8333-444455556666/researcher#1/t1")).toEqual({ nodeId: "researcher", nested: true });
    expect(stepNode("context/abc")).toBeNull();
  });

  it("says what a fork changed, and reads the stored column defensively", () => {
    expect(describeForkChange({ kind: "model", nodeId: "agent", from: "gpt-4o-mini", model: "gpt-4o" })).toBe("with model gpt-4o for agent (was gpt-4o-mini)");
    expect(describeForkChange({ kind: "prompt", nodeId: "agent", prompt: "x".repeat(100) })).toBe(`with a different system prompt for agent: “${"x".repeat(79)}…”`);
    expect(describeForkChange({ kind: "document", source: "workflow", changedNodes: ["writer"] })).toBe("with the workflow's current saved version (changed: writer)");
    expect(describeForkChange(null)).toBe("as recorded or with an edited value");
    expect(readForkChange('{"kind":"result"}')).toEqual({ kind: "result" });
    expect(readForkChange("{oops")).toBeNull();
    expect(readForkChange(null)).toBeNull();
  });
});

describe("a document fork's check of replayed steps", () => {
  const document = (taskAgentPrompt: string, extraEdge = false): Workflow => ({
    version: 1,
    name: "Desk",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: {} },
      { id: "outer", type: "offline-agent", position: { x: 1, y: 0 }, config: {} },
      { id: "ask", type: "task-start", position: { x: 0, y: 1 }, config: {} },
      { id: "inner", type: "offline-agent", position: { x: 1, y: 1 }, config: { systemPrompt: taskAgentPrompt } },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "outer", targetHandle: "prompt" },
      { id: "e2", kind: "signal", source: "ask", sourceHandle: "question", target: "inner", targetHandle: "prompt" },
      ...(extraEdge ? [{ id: "e3", kind: "signal" as const, source: "start", sourceHandle: "question", target: "inner", targetHandle: "context" }] : []),
    ],
  }) as unknown as Workflow;

  it("counts a node as changed when its edges change, not only its settings", () => {
    expect(changedNodes(document("a"), document("a"))).toEqual([]);
    expect(changedNodes(document("a"), document("b"))).toEqual(["inner"]);
    expect(changedNodes(document("a"), document("a", true))).toEqual(["inner", "start"]);
  });

  it("refuses to replay a step of a changed node inside a task's sub-flow", () => {
    const call = "0b6f3c1e-1111-5222-8333-444455556666";
    const replayed = ["outer#1/t1", `${call}/inner#1/t1`, `${call}/inner#1/t1/c0`];
    expect(replayedNodesChanged(document("a"), document("b"), replayed, `${call}/inner#1/t2`)?.message).toContain("inner (changed; 2 steps recorded");
    expect(replayedNodesChanged(document("a"), document("a"), replayed, `${call}/inner#1/t2`)).toBeNull();
  });
});
