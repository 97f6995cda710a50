import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "../graph";
import { copyFragment, pasteFragment, readFragment } from "./fragment";

const nodes: WorkflowNode[] = [
  { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: { maxTurns: 3 } },
  { id: "converter", type: "unit-converter", position: { x: 0, y: 200 }, config: {} },
  { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
];
const edges: WorkflowEdge[] = [
  { id: "tools", kind: "service", source: "converter", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
  { id: "out", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
];

describe("copy and paste of nodes", () => {
  it("copies the chosen nodes and only the edges between them", () => {
    const fragment = copyFragment(nodes, edges, new Set(["agent", "converter"]));
    expect(fragment.nodes.map((node) => node.id)).toEqual(["agent", "converter"]);
    expect(fragment.edges.map((edge) => edge.id)).toEqual(["tools"]);
  });

  it("round-trips through clipboard text and ignores any other text", () => {
    const fragment = copyFragment(nodes, edges, new Set(["agent"]));
    expect(readFragment(JSON.stringify(fragment))).toEqual(fragment);
    expect(readFragment("hello")).toBeNull();
    expect(readFragment(JSON.stringify({ kind: "something else", nodes: [], edges: [] }))).toBeNull();
  });

  it("pastes with free ids, moved, with its edges re-pointed", () => {
    const fragment = copyFragment(nodes, edges, new Set(["agent", "converter"]));
    const pasted = pasteFragment(fragment, { nodeIds: nodes.map((node) => node.id), edgeIds: edges.map((edge) => edge.id) }, { x: 40, y: 40 });
    expect(pasted.nodes.map((node) => node.id)).toEqual(["agent-2", "converter-2"]);
    expect(pasted.nodes[0].position).toEqual({ x: 40, y: 40 });
    expect(pasted.nodes[0].config).toEqual({ maxTurns: 3 });
    expect(pasted.edges).toEqual([{ id: "converter-2-mcpService-agent-2-mcpService", kind: "service", source: "converter-2", sourceHandle: "mcpService", target: "agent-2", targetHandle: "mcpService" }]);
    // The copy is a copy: editing it leaves the original alone.
    (pasted.nodes[0].config as { maxTurns: number }).maxTurns = 9;
    expect(nodes[0].config).toEqual({ maxTurns: 3 });
  });
});
