import { describe, expect, it } from "vitest";
import { edge, fixtureNodeTypes, node, questionStart, workflowOf } from "../../testing/graph/node-types.fixture";
import { mcpServerChoice, wiredServerSources } from "./mcp-server-node";
import { createRunState } from "./run-state";
import { validateWorkflow } from "./validate";

const everything = node("everything", "mcp-server", { serverId: "everything", toolNames: ["echo", "get-sum"] });
const wired = workflowOf(
  [questionStart, node("agent", "agent"), everything, node("all", "mcp-server", { serverId: "other" })],
  [
    edge("signal", "start.question", "agent.prompt"),
    edge("service", "everything.tools", "agent.mcpService"),
    edge("service", "all.tools", "agent.mcpService"),
  ],
);

describe("MCP server nodes", () => {
  it("give the agent they are wired to one mcp source each, with the chosen tools", () => {
    expect(wiredServerSources(wired, "agent")).toEqual([
      { type: "mcp", serverId: "everything", toolNames: ["echo", "get-sum"] },
      { type: "mcp", serverId: "other" },
    ]);
    expect(wiredServerSources(wired, "start")).toEqual([]);
  });

  it("read a half-edited config leniently", () => {
    expect(mcpServerChoice({ type: "mcp-server", config: {} })).toBeUndefined();
    expect(mcpServerChoice({ type: "mcp-server", config: { serverId: "x", toolNames: [] } })).toEqual({ serverId: "x" });
    expect(mcpServerChoice({ type: "agent", config: { serverId: "x" } })).toBeUndefined();
  });

  it("are valid service providers, never steps", () => {
    expect(validateWorkflow(wired, fixtureNodeTypes).filter((problem) => problem.severity === "error")).toEqual([]);
    expect(createRunState(wired, fixtureNodeTypes).graph.order).toEqual(["start", "agent"]);
  });

  it("a node no edge touches does not run", () => {
    const workflow = workflowOf([questionStart, node("clock", "clock")]);
    expect(createRunState(workflow, fixtureNodeTypes).graph.order).toEqual(["start"]);
  });
});
