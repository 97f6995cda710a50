import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ScriptedRequest, type ScriptedTurn, scriptedModel } from "../../../testing/ai/scripted-model.fixture";
import { createLocalEnvironment } from "../../runs/local-environment";
import { runWorkflow } from "../../engine/run-workflow";
import { chainDocument, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../../graph";
import { MemorySink } from "../../trace/memory-sink";
import { InMemoryServerRegistry, type ServerEntryInput } from "../registry";
import { ConnectionManager } from "./connection-manager";
import { inProcessConnector } from "./in-process-connector";

// The manager inside real runs: the engine resolves an agent's `{ mcp }` tools through it,
// wraps each tool (one trace row per call, tainted) and disposes of it when the run ends.

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await nodes.remove();
});

const policy = () => ({ stdioDisabled: false, allowedPrivateOrigins: [] });

/** `lookup` answers; `hang` never does; `whoami` answers with the token it was started with. */
function toolsServer(): McpServer {
  const server = new McpServer({ name: "tools", version: "1.0.0" });
  server.registerTool("lookup", { description: "Look a word up.", inputSchema: { word: z.string() }, annotations: { readOnlyHint: true } }, async ({ word }) => ({ content: [{ type: "text", text: `${word}: a word` }] }));
  server.registerTool("hang", { description: "Never answers.", inputSchema: {} }, () => new Promise<never>(() => undefined));
  server.registerTool("whoami", { description: "Says which token it holds.", inputSchema: {} }, async () => ({ content: [{ type: "text", text: "token tok-live-1234 in use" }] }));
  return server;
}

type Script = Array<ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn)>;

async function runAgent(options: { entry: Partial<ServerEntryInput>; toolNames: string[]; script: Script; signal?: AbortSignal; secretValues?: Record<string, string> }) {
  const registry = new InMemoryServerRegistry({ policy });
  await registry.save({ id: "tools", name: "Tools", transport: "stdio", command: "node", args: ["tools.js"], ...options.entry } as ServerEntryInput, { secretValues: options.secretValues });
  const { connect, stats } = inProcessConnector({ tools: toolsServer });
  const manager = new ConnectionManager(registry, { connect, sleep: async () => undefined });
  const model = scriptedModel(options.script);
  const env = await createLocalEnvironment({
    nodesDir: nodes.nodesDir,
    overrides: { models: () => model, mcpTools: manager, dispose: () => manager.closeAll() },
  });
  const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "mcp", serverId: "tools", toolNames: options.toolNames }], approvals: { "*": "allow" } }]));
  if (!parsed.ok) throw new Error("the test document does not parse");
  const sink = new MemorySink();
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "go" }, sink, env, signal: options.signal });
  return { outcome, sink, stats, model, manager };
}

describe("the connection manager in a run", () => {
  it("a hanging tool is cut at its timeout, the model reads why, and the run goes on to completion", async () => {
    const run = await runAgent({
      entry: { toolTimeoutMs: 100 },
      toolNames: ["hang", "lookup"],
      script: [{ toolCalls: [{ name: "hang", arguments: {} }] }, { toolCalls: [{ name: "lookup", arguments: { word: "otter" } }] }, { text: "otter is a word" }],
    });
    expect(run.outcome).toMatchObject({ status: "completed", outputs: { result: "otter is a word" } });
    expect(run.model.requests[1].results[0]).toMatchObject({ isError: true, output: "'hang' on MCP server 'tools' timed out after 100 ms; the call was cancelled" });
    const [hang, lookup] = run.sink.toolCalls;
    expect(hang).toMatchObject({ tool: "hang", server: "tools", isError: true, error: expect.stringContaining("timed out after 100 ms"), tainted: true });
    expect(lookup).toMatchObject({ tool: "lookup", server: "tools", isError: false, result: "otter: a word", tainted: true });
    expect(run.sink.taints.filter((record) => record.kind === "tool-result")).toHaveLength(2);
    // The run's end closed the manager's session.
    expect(run.stats.closes.get("tools")).toBe(1);
  });

  it("closes the sessions of a run that failed its preflight, and of a cancelled one", async () => {
    const failed = await runAgent({ entry: {}, toolNames: ["lookup", "no_such_tool"], script: [] });
    expect(failed.outcome).toMatchObject({ status: "failed", error: expect.stringContaining("MCP server 'tools' offers no tool named 'no_such_tool'") });
    expect(failed.stats.connects.get("tools")).toBe(1);
    expect(failed.stats.closes.get("tools")).toBe(1);

    const controller = new AbortController();
    const cancelled = await runAgent({
      entry: { toolTimeoutMs: 0 },
      toolNames: ["hang"],
      signal: controller.signal,
      script: [
        () => {
          setTimeout(() => controller.abort(), 20);
          return { toolCalls: [{ name: "hang", arguments: {} }] };
        },
      ],
    });
    expect(cancelled.outcome.status).toBe("cancelled");
    expect(cancelled.stats.closes.get("tools")).toBe(1);
  });

  it("registers the server's secrets with the run: they are redacted from its trace", async () => {
    const run = await runAgent({
      entry: { secrets: ["TOKEN"], env: { TOKEN: "{{ secrets.TOKEN }}" } },
      secretValues: { TOKEN: "tok-live-1234" },
      toolNames: ["whoami"],
      script: [{ toolCalls: [{ name: "whoami", arguments: {} }] }, (request) => ({ text: request.results[0].output })],
    });
    expect(run.outcome.status).toBe("completed");
    expect(run.sink.toolCalls[0]).toMatchObject({ tool: "whoami", result: "token [redacted] in use" });
    expect(JSON.stringify(run.sink)).not.toContain("tok-live-1234");
  });
});
