import path from "node:path";
import { describe, expect, it } from "vitest";
// The one place lib/canvas reaches into MCP: to prove it counts the definitions a service node really serves.
import { agentToolsFromClient } from "../mcp/client-tools";
import { connectInMemory } from "../mcp/in-memory-connection";
import { createServiceNodeServer } from "../mcp/service-node-server";
import { demoWorkflow } from "../db/demo-workflow";
import { parseWorkflow, type Workflow } from "../graph";
import { lintNodes } from "../manifest";
import { canvasCatalogue } from "./canvas-catalogue";
import { agentToolCosts, estimateTokens } from "./tool-cost";

const nodesDir = path.join(import.meta.dirname, "..", "..", "nodes");

async function catalogue() {
  const linted = await lintNodes(nodesDir);
  return { linted, canvas: canvasCatalogue(linted) };
}

function lookups(canvas: Awaited<ReturnType<typeof catalogue>>["canvas"]) {
  const entries = new Map(canvas.types.map((type) => [type.name, type]));
  return {
    toolsOf: (type: string, connector: string) => entries.get(type)?.tools[connector] ?? [],
    toolConnectorOf: (type: string) => (entries.get(type)?.hasToolExchange ? (entries.get(type)?.toolConnector ?? "mcpService") : undefined),
  };
}

describe("the canvas's tool cost, against the engine's", () => {
  it("counts the same tool definitions a service node serves over MCP", async () => {
    const { linted, canvas } = await catalogue();
    const manifest = linted.nodes.find((node) => node.name === "weather")!.manifest!;
    const server = createServiceNodeServer({
      nodeId: "weather",
      manifest,
      connector: "mcpService",
      config: {},
      // Listing tools runs no call: nothing here is used.
      callContext: {} as Parameters<typeof createServiceNodeServer>[0]["callContext"],
      runId: "test",
      recordCall: () => undefined,
    });
    const connection = await connectInMemory(server);
    try {
      const served = await agentToolsFromClient(connection.client, "weather");
      const fromCatalogue = canvas.types.find((type) => type.name === "weather")!.tools.mcpService;
      expect(fromCatalogue.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }))).toEqual(
        served.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema })),
      );
    } finally {
      await connection.close();
    }
  });
});

describe("agentToolCosts", () => {
  it("gives the demo's agent the unit converter's two tools, below the threshold", async () => {
    const { canvas } = await catalogue();
    const parsed = parseWorkflow(JSON.parse(JSON.stringify(demoWorkflow.document)));
    if (!parsed.ok) throw new Error("the demo does not parse");
    const costs = agentToolCosts(parsed.workflow, lookups(canvas));
    expect(Object.keys(costs)).toEqual(["agent"]);
    const tools = canvas.types.find((type) => type.name === "unit-converter")!.tools.mcpService;
    const expected = estimateTokens(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema })));
    expect(costs.agent).toMatchObject({ tools: 2, tokens: expected, discovery: false, threshold: 2000 });
    expect(costs.agent.items.map((item) => [item.name, item.from])).toEqual(tools.map((tool) => [tool.name, "converter"]));
    expect(costs.agent.items.every((item) => item.tokens > 0 && item.tokens < expected)).toBe(true);
  });

  it("says an agent with no tools costs nothing and does not start in discovery mode", async () => {
    const { canvas } = await catalogue();
    const workflow: Workflow = { version: 1, name: "w", nodes: [{ id: "a", type: "offline-agent", position: { x: 0, y: 0 }, config: {} }], edges: [] };
    expect(agentToolCosts(workflow, lookups(canvas)).a).toEqual({ tools: 0, items: [], tokens: 0, discovery: false, threshold: 2000 });
  });

  it("counts an MCP server node's chosen tools after the services and tasks, as the engine offers them", async () => {
    const { canvas } = await catalogue();
    const echo = { name: "echo", description: "Echoes back the input string", inputSchema: { type: "object", properties: { message: { type: "string" } } } };
    const sum = { name: "get-sum", description: "Returns the sum of two numbers", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } };
    const workflow: Workflow = {
      version: 1,
      name: "w",
      nodes: [
        { id: "a", type: "offline-agent", position: { x: 0, y: 0 }, config: {} },
        { id: "everything", type: "mcp-server", position: { x: 0, y: 0 }, config: { serverId: "everything", toolNames: ["echo"] } },
        { id: "converter", type: "unit-converter", position: { x: 0, y: 0 }, config: {} },
      ],
      edges: [
        { id: "e1", kind: "service", source: "everything", sourceHandle: "tools", target: "a", targetHandle: "mcpService" },
        { id: "e2", kind: "service", source: "converter", sourceHandle: "mcpService", target: "a", targetHandle: "mcpService" },
      ],
    };
    const cost = agentToolCosts(workflow, { ...lookups(canvas), serverToolsOf: (node) => [echo, sum].filter((tool) => (node.config.toolNames as string[]).includes(tool.name)) }).a;
    expect(cost.items.map((item) => [item.name, item.from])).toEqual([
      ["convertUnits", "converter"],
      ["listUnits", "converter"],
      ["echo", "everything"],
    ]);
    expect(cost.items.at(-1)).toEqual({ name: "echo", from: "everything", tokens: estimateTokens([{ name: "echo", description: echo.description, parameters: echo.inputSchema }]) });
  });

  it("switches to discovery mode once the wired definitions pass 2,000 tokens, counting Task Starts too", async () => {
    const { canvas } = await catalogue();
    const services = ["weather", "github", "unit-converter"].flatMap((type, index) =>
      Array.from({ length: 3 }, (_, copy) => ({ id: `${type}-${copy}`, type, position: { x: index * 10, y: copy * 10 }, config: {} })),
    );
    const workflow: Workflow = {
      version: 1,
      name: "big",
      nodes: [
        { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: {} },
        { id: "task", type: "task-start", position: { x: 0, y: 0 }, config: { title: "Summarize an article", description: "Summarizes.", inputs: [] } },
        ...services,
      ],
      edges: [
        ...services.map((node) => ({ id: `e-${node.id}`, kind: "service" as const, source: node.id, sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" })),
        { id: "t", kind: "task", source: "task", sourceHandle: "task", target: "agent", targetHandle: "mcpService" },
      ],
    };
    const cost = agentToolCosts(workflow, lookups(canvas)).agent;
    expect(cost.tokens).toBeGreaterThan(2000);
    expect(cost.discovery).toBe(true);
    const serviceTools = services.reduce((sum, node) => sum + canvas.types.find((type) => type.name === node.type)!.tools.mcpService.length, 0);
    expect(cost.tools).toBe(serviceTools + 1);
  });
});
