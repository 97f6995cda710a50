import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Workflow } from "../graph";
import { lintNodes } from "../manifest";
import { canvasCatalogue } from "./canvas-catalogue";
import { canvasLookups, openCanvasWorkflow } from "./open-canvas";
import { analyseWorkflow } from "./workflow-analysis";

const catalogue = canvasCatalogue(await lintNodes(path.join(process.cwd(), "nodes")));

describe("openCanvasWorkflow", () => {
  const workflow: Workflow = {
    version: 1,
    name: "w",
    nodes: [{ id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: {}, tools: [{ type: "mcp", serverId: "everything" }] }],
    edges: [],
  };
  const servers = [{ id: "everything", name: "Everything", availability: "not-granted" as const, reason: "no one has granted it to this workflow yet" }];

  it("opens the declared MCP server as a node wired to the agent, and analyses what it opened", () => {
    const opened = openCanvasWorkflow(workflow, catalogue, servers);
    expect(opened.workflow.nodes.map((node) => [node.id, node.type])).toEqual([
      ["agent", "offline-agent"],
      ["everything", "mcp-server"],
    ]);
    expect(opened.workflow.edges).toHaveLength(1);
    const { entries, nodeTypes } = canvasLookups(catalogue);
    expect(opened.analysis).toEqual(analyseWorkflow(opened.workflow, nodeTypes, entries, { servers: new Map(servers.map((server) => [server.id, server])), tools: {} }));
    // The server node says why it cannot be used yet, and the agent's tool cost counts the wired server.
    expect(opened.analysis.byNode.everything.errors + opened.analysis.byNode.everything.warnings).toBeGreaterThan(0);
    expect(opened.analysis.toolCosts.agent).toBeDefined();
  });

  it("is plain JSON, so the server page can hand it to the browser", () => {
    const opened = openCanvasWorkflow(workflow, catalogue, servers);
    expect(JSON.parse(JSON.stringify(opened))).toEqual(opened);
  });
});

describe("canvasLookups", () => {
  it("names types by title (unknown ones by name) and finds an agent's tool connector", () => {
    const { titleOf, toolConnectorOf, nodeTypes } = canvasLookups(catalogue);
    expect(titleOf("start")).toBe("Start");
    expect(titleOf("no-such-type")).toBe("no-such-type");
    expect(toolConnectorOf("offline-agent")).toBe("mcpService");
    expect(toolConnectorOf("start")).toBeUndefined();
    expect(nodeTypes("offline-agent")?.hasToolExchange).toBe(true);
  });
});
