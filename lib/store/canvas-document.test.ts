import { describe, expect, it } from "vitest";
import type { WorkflowNode } from "../graph";
import { toCanvasNode, toWorkflowNode } from "./canvas-document";

describe("canvas document", () => {
  it("carries a node's label, config and tool override through the canvas and back", () => {
    const node: WorkflowNode = {
      id: "agent",
      type: "openai-agent",
      position: { x: 10, y: 20 },
      config: { model: "llama3" },
      label: "Researcher",
      tools: [{ type: "builtin", name: "get_current_time" }, { type: "mcp", serverId: "web-search", toolNames: ["search"] }],
    };
    expect(toWorkflowNode(toCanvasNode(node, (type) => type))).toEqual(node);
  });

  it("writes no tools key for a node without an override", () => {
    const node: WorkflowNode = { id: "end", type: "end", position: { x: 0, y: 0 }, config: {} };
    expect(toWorkflowNode(toCanvasNode(node, (type) => type))).toEqual(node);
  });
});
