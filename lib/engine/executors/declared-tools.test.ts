import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../tools/define-tool";
import { chainDocument, runWithToolLayers, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => (nodes = await writeToolLayerNodes()));
afterAll(() => nodes.remove());

/** The tool names the agent's model was offered on its first turn. */
async function offered(agent: Parameters<typeof chainDocument>[0][number], wireConverter = false) {
  const document = chainDocument([agent]);
  if (wireConverter) {
    document.nodes?.push({ id: "converter", type: "unit-converter", position: { x: 200, y: 200 }, config: {} });
    document.edges?.push({ id: "tools", kind: "service", source: "converter", sourceHandle: "mcpService", target: agent.id, targetHandle: "mcpService" });
  }
  const run = await runWithToolLayers({ document, nodesDir: nodes.nodesDir, scripts: { [agent.id]: [{ text: "done" }] } });
  expect(run.outcome.status).toBe("completed");
  return run.models.get(agent.id)?.requests[0].tools;
}

describe("an agent's declared tools", () => {
  it("come from the type's config default, written as sugar: a built-in and one tool of an MCP server", async () => {
    expect(await offered({ id: "researcher", type: "researcher" })).toEqual(["get_current_time", "search"]);
  });

  it("are replaced by the node-level override", async () => {
    expect(await offered({ id: "researcher", type: "researcher", tools: [{ type: "builtin", name: "save_to_memory" }, { type: "mcp", serverId: "web-search", toolNames: ["fetch_page"] }] })).toEqual([
      "save_to_memory",
      "fetch_page",
    ]);
  });

  it("are none when the override is an empty list", async () => {
    expect(await offered({ id: "researcher", type: "researcher", tools: [] })).toEqual([]);
  });

  it("follow the node's own config value over the type's default when there is no override", async () => {
    expect(await offered({ id: "researcher", type: "researcher", config: { tools: ["read_memory"] } })).toEqual(["read_memory"]);
  });

  it("sit beside the tools wired on the canvas, which an override does not touch", async () => {
    const tools = await offered({ id: "researcher", type: "researcher", tools: [{ type: "builtin", name: "get_current_time" }] }, true);
    expect(tools).toEqual(expect.arrayContaining(["convertUnits", "get_current_time"]));
    expect(tools).not.toContain("search");
  });

  it("include the chosen tools of an MCP server node wired on the canvas, which reach the registry server and write its trace row", async () => {
    const document = chainDocument([{ id: "clerk", type: "plain-agent", tools: [] }]);
    document.nodes?.push({ id: "search-server", type: "mcp-server", position: { x: 200, y: 200 }, config: { serverId: "web-search", toolNames: ["search"] } });
    document.edges?.push({ id: "server-tools", kind: "service", source: "search-server", sourceHandle: "tools", target: "clerk", targetHandle: "mcpService" });
    const run = await runWithToolLayers({
      document,
      nodesDir: nodes.nodesDir,
      scripts: { clerk: [{ toolCalls: [{ name: "search", arguments: { query: "mcp" } }] }, { text: "done" }] },
    });
    expect(run.outcome.status).toBe("completed");
    expect(run.models.get("clerk")?.requests[0].tools).toEqual(["search"]);
    expect(run.sink.toolCalls.map((row) => [row.tool, row.server, row.caller])).toEqual([["search", "web-search", "clerk"]]);
  });

  it("refuse the run before any model is called when a wired MCP server node names no registered server", async () => {
    const document = chainDocument([{ id: "clerk", type: "plain-agent", tools: [] }]);
    document.nodes?.push({ id: "gone", type: "mcp-server", position: { x: 200, y: 200 }, config: { serverId: "deleted-server" } });
    document.edges?.push({ id: "server-tools", kind: "service", source: "gone", sourceHandle: "tools", target: "clerk", targetHandle: "mcpService" });
    const run = await runWithToolLayers({ document, nodesDir: nodes.nodesDir, scripts: { clerk: [{ text: "done" }] } });
    expect(run.outcome.status).toBe("failed");
    expect(run.outcome.error).toContain("MCP server 'deleted-server' is not in the registry");
    expect(run.models.get("clerk")?.requests ?? []).toEqual([]);
  });

  it("call a registered custom tool: arguments parsed, one trace row on server custom, the result back to the model", async () => {
    const lookupOrder = defineTool({
      name: "lookup_order",
      description: "Fetch an order by id",
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => ({ orderId, status: "shipped" }),
    });
    const run = await runWithToolLayers({
      document: chainDocument([{ id: "clerk", type: "plain-agent", tools: [{ type: "custom", name: "lookup_order" }] }]),
      nodesDir: nodes.nodesDir,
      customTools: [lookupOrder],
      scripts: {
        clerk: [
          { toolCalls: [{ name: "lookup_order", arguments: { orderId: 1234 } }] },
          { toolCalls: [{ name: "lookup_order", arguments: { orderId: "1234" } }] },
          (request) => ({ text: `Order: ${request.results[0].output}` }),
        ],
      },
    });
    expect(run.outcome).toMatchObject({ status: "completed", outputs: { result: 'Order: {"orderId":"1234","status":"shipped"}' } });
    expect(run.models.get("clerk")?.requests[1].results[0]).toMatchObject({ isError: true, output: expect.stringMatching(/^Invalid arguments for lookup_order: orderId: /) });
    expect(run.sink.toolCalls.map((row) => [row.tool, row.server, row.caller, row.isError, row.tainted])).toEqual([
      ["lookup_order", "custom", "clerk", true, false],
      ["lookup_order", "custom", "clerk", false, false],
    ]);
    expect(run.sink.toolCalls[1]).toMatchObject({ nodeRunId: run.nodeRunOf("clerk"), result: { orderId: "1234", status: "shipped" } });
  });
});
