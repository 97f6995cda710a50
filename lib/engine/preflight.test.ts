import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { EngineEnvironment } from "./environment";
import { chainDocument, runWithToolLayers, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";

/** A workflow's grants: web-search granted, admin-tools not. */
const grants = { grants: { servers: new Set(["web-search"]), credentials: new Map() } };

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => (nodes = await writeToolLayerNodes()));
afterAll(() => nodes.remove());

const lookupOrder = defineTool({ name: "lookup_order", description: "Fetch an order by id", parameters: z.object({ orderId: z.string() }), execute: () => "shipped" });

/** Runs the document and proves the preflight stopped it: failed, no node ran, no model was even built. */
async function expectStoppedAtStart(document: ReturnType<typeof chainDocument>, options: { customTools?: typeof lookupOrder[]; servers?: null; overrides?: Partial<EngineEnvironment> } = {}) {
  const run = await runWithToolLayers({ document, nodesDir: nodes.nodesDir, scripts: { a: [{ text: "should never run" }] }, ...options });
  expect(run.outcome.status).toBe("failed");
  expect(run.modelCalls).toEqual([]);
  expect(run.sink.nodeStarts).toEqual([]);
  expect(run.sink.toolCalls).toEqual([]);
  expect(run.sink.ends).toEqual([expect.objectContaining({ status: "failed", error: run.outcome.error })]);
  return run.outcome.error ?? "";
}

describe("the tools preflight", () => {
  it("fails the run before any model call when a custom tool has no registration", async () => {
    const error = await expectStoppedAtStart(chainDocument([{ id: "a", type: "plain-agent", tools: [{ type: "custom", name: "lookup_order" }] }]));
    expect(error).toBe("the run did not start, 1 tool problem: agent 'a': no custom tool 'lookup_order' is registered on this run (register a defineTool() named 'lookup_order')");
  });

  it("fails the run before any model call for an MCP server the registry does not have", async () => {
    const error = await expectStoppedAtStart(chainDocument([{ id: "a", type: "plain-agent", tools: [{ type: "mcp", serverId: "twitter-search" }] }]));
    expect(error).toContain("agent 'a': MCP server 'twitter-search' is not in the registry");
  });

  it("fails the run before any model call for a server the workflow was not granted, naming server and agent", async () => {
    const error = await expectStoppedAtStart(chainDocument([{ id: "a", type: "plain-agent", tools: [{ type: "mcp", serverId: "admin-tools" }] }]), { overrides: grants });
    expect(error).toContain("agent 'a': MCP server 'admin-tools' is not granted to this workflow; an editor grants it on the canvas (the server's node) or in the workflow's Grants panel");
  });

  it("lists every problem of every agent at once", async () => {
    const document = chainDocument([
      { id: "a", type: "plain-agent", tools: [{ type: "custom", name: "lookup_order" }, { type: "builtin", name: "send_email" }] },
      { id: "b", type: "plain-agent", tools: [{ type: "mcp", serverId: "web-search", toolNames: ["search", "serch"] }, { type: "mcp", serverId: "admin-tools" }] },
    ]);
    const error = await expectStoppedAtStart(document, { overrides: grants });
    expect(error).toMatch(/^the run did not start, 4 tool problems: /);
    for (const part of [
      "agent 'a': no custom tool 'lookup_order'",
      "agent 'a': there is no built-in tool 'send_email' (the built-ins: save_to_memory, read_memory, get_current_time)",
      "agent 'b': MCP server 'web-search' offers no tool named 'serch'",
      "agent 'b': MCP server 'admin-tools' is not granted to this workflow",
    ]) {
      expect(error).toContain(part);
    }
  });

  it("fails when mcp sources are declared but the run has no resolver", async () => {
    const error = await expectStoppedAtStart(chainDocument([{ id: "a", type: "plain-agent", tools: [{ type: "mcp", serverId: "web-search" }] }]), { servers: null });
    expect(error).toContain("agent 'a': MCP server 'web-search' is declared, but this run has no MCP connection manager to reach it");
  });

  it("checks the type's default tools too: researcher's web-search default needs a resolver", async () => {
    const error = await expectStoppedAtStart(chainDocument([{ id: "a", type: "researcher" }]), { servers: null });
    expect(error).toContain("agent 'a': MCP server 'web-search' is declared");
  });

  it("refuses tools on a node that is not an agent", async () => {
    const document = chainDocument([{ id: "a", type: "plain-agent" }]);
    document.nodes = document.nodes?.map((node) => (node.id === "end" ? { ...node, tools: [{ type: "builtin" as const, name: "save_to_memory" }] } : node));
    const error = await expectStoppedAtStart(document);
    expect(error).toContain("node 'end' (end) is not an agent");
  });

  it("lets the run start when every declared tool resolves", async () => {
    const run = await runWithToolLayers({
      document: chainDocument([{ id: "a", type: "plain-agent", tools: [{ type: "custom", name: "lookup_order" }, { type: "mcp", serverId: "web-search" }, { type: "builtin", name: "save_to_memory" }] }]),
      nodesDir: nodes.nodesDir,
      customTools: [lookupOrder],
      scripts: { a: [{ text: "done" }] },
    });
    expect(run.outcome).toMatchObject({ status: "completed", outputs: { result: "done" } });
    expect(run.models.get("a")?.requests[0].tools).toEqual(["lookup_order", "search", "fetch_page", "save_to_memory"]);
  });
});
