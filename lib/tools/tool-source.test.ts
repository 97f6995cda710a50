import { describe, expect, it } from "vitest";
import { z } from "zod";
import { workflowNode } from "../graph";
import { defineTool } from "./define-tool";
import { ToolDefinitionError } from "./tool-definition-error";
import { normalizeToolSource, normalizeToolSources, type ToolSource, toolSourceInput } from "./tool-source";

const lookupOrder = defineTool({ name: "lookup_order", description: "Fetch an order by id", parameters: z.object({ orderId: z.string() }), execute: () => "ok" });

describe("tool source sugar", () => {
  const table: Array<[string, unknown, ToolSource]> = [
    ["a built-in's bare name", "save_to_memory", { type: "builtin", name: "save_to_memory" }],
    ["another built-in's bare name", "get_current_time", { type: "builtin", name: "get_current_time" }],
    ["any other bare name", "lookup_order", { type: "custom", name: "lookup_order" }],
    ["a defineTool() value", lookupOrder, { type: "custom", name: "lookup_order" }],
    ["{ mcp, tools }", { mcp: "web-search", tools: ["search"] }, { type: "mcp", serverId: "web-search", toolNames: ["search"] }],
    ["{ mcp } alone: all the server's tools", { mcp: "web-search" }, { type: "mcp", serverId: "web-search" }],
    ["a structured builtin", { type: "builtin", name: "read_memory" }, { type: "builtin", name: "read_memory" }],
    ["a structured custom", { type: "custom", name: "fetch-page" }, { type: "custom", name: "fetch-page" }],
    ["a structured mcp, camelCase", { type: "mcp", serverId: "web-search", toolNames: ["search"] }, { type: "mcp", serverId: "web-search", toolNames: ["search"] }],
    ["a structured mcp, snake_case", { type: "mcp", server_id: "web-search", tool_names: ["search"] }, { type: "mcp", serverId: "web-search", toolNames: ["search"] }],
    ["a structured mcp without tool names", { type: "mcp", server_id: "twitter-search" }, { type: "mcp", serverId: "twitter-search" }],
  ];

  it.each(table)("normalizes %s", (_form, input, expected) => {
    expect(normalizeToolSource(input)).toEqual(expected);
    expect(toolSourceInput.parse(input)).toEqual(expected);
  });

  it("normalizes a list in order and drops exact repeats", () => {
    expect(normalizeToolSources(["save_to_memory", lookupOrder, "lookup_order", { mcp: "web-search", tools: ["search"] }, { type: "mcp", server_id: "web-search", tool_names: ["search"] }])).toEqual([
      { type: "builtin", name: "save_to_memory" },
      { type: "custom", name: "lookup_order" },
      { type: "mcp", serverId: "web-search", toolNames: ["search"] },
    ]);
  });

  const refused: Array<[string, unknown, string]> = [
    ["a name with a space", "look up", "tools.0: \"look up\" is not a tool name"],
    ["an empty name", "", "tools.0"],
    ["a number", 42, "tools.0: a tool source is a name"],
    ["an unknown type", { type: "plugin", name: "x" }, "tools.0"],
    ["an mcp sugar with an empty tool list", { mcp: "web-search", tools: [] }, "tools.0: tools: list at least one tool"],
    ["an mcp sugar with a bad server id", { mcp: "../etc" }, "tools.0: mcp: a server id uses letters"],
    ["an mcp source carrying a transport", { type: "mcp", serverId: "x", url: "http://evil" }, "tools.0"],
  ];

  it.each(refused)("refuses %s, naming the field", (_case, input, message) => {
    let error: unknown;
    try {
      normalizeToolSources([input]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error).toMatchObject({ code: "invalid-tool-source", place: { field: "tools.0" } });
    expect((error as Error).message).toContain(message);
  });

  it("refuses a list that is not one", () => {
    expect(() => normalizeToolSources("save_to_memory")).toThrow(/tools must be a list/);
  });

  it("the workflow document stores only the structured form", () => {
    const node = { id: "a", type: "researcher", position: { x: 0, y: 0 } };
    expect(workflowNode.parse({ ...node, tools: [{ type: "mcp", serverId: "web-search" }, { type: "builtin", name: "save_to_memory" }] }).tools).toHaveLength(2);
    expect(workflowNode.safeParse({ ...node, tools: ["save_to_memory"] }).success).toBe(false);
    expect(workflowNode.safeParse({ ...node, tools: [{ mcp: "web-search" }] }).success).toBe(false);
    expect(workflowNode.safeParse({ ...node, tools: [{ type: "mcp", server_id: "web-search" }] }).success).toBe(false);
    expect(workflowNode.parse(node).tools).toBeUndefined();
  });
});
