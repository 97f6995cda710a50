import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "../engine/run-workflow";
import { chainDocument, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { connectEntry, testEntryConnection } from "./connect-entry";
import { ConnectionManager } from "./connection-manager/connection-manager";
import { startEraFixtureServer, startFutureOnlyServer } from "../../testing/mcp/era-servers.fixture";
import { InMemoryServerRegistry, parseServerEntry } from "./registry";

// Real v2-SDK servers on 127.0.0.1, each speaking one protocol era only, registered like any server and used by an agent.
/** The fixture origin listed, as SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS would list it. */
const listing = (url: string) => ({ stdioDisabled: false, allowedPrivateOrigins: [new URL(url).origin] });
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await nodes.remove();
});

describe("registered servers of either protocol era", () => {
  it.each(["2026-07-28", "2025-11-25"] as const)(
    "a server speaking only %s is negotiated with and used by an agent in a run",
    async (era) => {
      const fixture = await startEraFixtureServer(era);
      const policy = listing(fixture.url);
      try {
        const registry = new InMemoryServerRegistry({ policy: () => policy });
        await registry.save({ id: "shouter", name: "Shouter", transport: "http", url: fixture.url });
        const report = await testEntryConnection((await registry.resolve("shouter"))!.entry, { policy });
        expect(report).toMatchObject({ ok: true, protocolVersion: era, toolCount: 1 });

        const manager = new ConnectionManager(registry, { connect: (entry, request) => connectEntry(entry, { ...request, policy }) });
        const model = scriptedModel([{ toolCalls: [{ name: "shout", arguments: { text: "hello" } }] }, (request) => ({ text: request.results[0].output })]);
        const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => model, mcpTools: manager, dispose: () => manager.closeAll() } });
        const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "mcp", serverId: "shouter", toolNames: ["shout"] }] }]));
        if (!parsed.ok) throw new Error("the test document does not parse");
        const sink = new MemorySink();
        const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "shout hello" }, sink, env });

        expect(outcome).toMatchObject({ status: "completed", outputs: { result: expect.stringContaining(`HELLO (served at ${era}`) } });
        expect(sink.toolCalls).toEqual([expect.objectContaining({ tool: "shout", server: "shouter", isError: false, result: expect.stringContaining("HELLO") })]);
        // Every request of the run's session carried the era's revision (the 2025 one after one refused probe).
        expect(fixture.seen.at(-1)).toBe(era);
      } finally {
        await fixture.close();
      }
    },
    30_000,
  );

  it("reports a server that speaks neither era as exactly that, not as a failure to connect", async () => {
    const fixture = await startFutureOnlyServer();
    try {
      const verdict = parseServerEntry({ id: "future", name: "Future", transport: "http", url: fixture.url, timeoutMs: 5_000 });
      if (!verdict.ok) throw new Error(verdict.problem.message);
      const report = await testEntryConnection(verdict.entry, { policy: listing(fixture.url) });
      expect(report).toMatchObject({ ok: false, code: "protocol-unsupported" });
      expect(report.ok ? "" : report.error).toMatch(/^127\.0\.0\.1:\d+ speaks no MCP revision Switchboard knows \(2026-07-28, 2025-11-25/);
      expect(report.ok ? "" : report.error).not.toMatch(/failed to connect/);
    } finally {
      await fixture.close();
    }
  });
});
