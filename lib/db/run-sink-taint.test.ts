import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { runWorkflow } from "../engine";
import { createLocalEnvironment } from "../runs/local-environment";
import { chainDocument, defaultServers, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../graph";
import { InMemoryMcpToolResolver } from "../mcp/in-memory-tool-resolver";
import { MemorySink } from "../trace/memory-sink";
import { PrismaRunSink } from "./run-sink";
import { teeSink } from "./tee-sink";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import { getRunTrace } from "./runs";

// getRunTrace goes through the app's shared client, which opens this database too.
const database = temporaryAppDatabase();
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;

beforeAll(async () => {
  nodes = await writeToolLayerNodes();
}, 60_000);

afterAll(async () => {
  await nodes.remove();
});

describe("PrismaRunSink and getRunTrace: taint", () => {
  it("round-trips the run's taint registry and each node run's tainted outputs", async () => {
    const document = chainDocument([
      { id: "researcher", type: "plain-agent", tools: [{ type: "mcp", serverId: "web-search", toolNames: ["search"] }, { type: "builtin", name: "save_to_memory" }] },
      { id: "clock", type: "plain-agent", tools: [{ type: "builtin", name: "get_current_time" }] },
    ]);
    const parsed = parseWorkflow(document);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const scripts = {
      researcher: scriptedModel([
        { toolCalls: [{ name: "search", arguments: { query: "switchboard" } }] },
        (request) => ({ toolCalls: [{ name: "save_to_memory", arguments: { key: "findings", value: request.results[0].output } }] }),
        { text: "Summary of the findings." },
      ]),
      clock: scriptedModel([{ text: "noted" }]),
    };
    const resolver = new InMemoryMcpToolResolver(defaultServers);
    const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: ({ nodeId }) => scripts[nodeId as keyof typeof scripts], mcpTools: resolver } });
    const memory = new MemorySink();
    try {
      const outcome = await runWorkflow({ runId: "tainted", workflowId: null, workflow: parsed.workflow, input: { question: "what is new?" }, sink: teeSink(memory, new PrismaRunSink(database.client, { document })), env });
      expect(outcome.status).toBe("completed");
    } finally {
      await resolver.close();
    }

    const trace = (await getRunTrace("tainted"))!;
    // Entries equal the engine's events one to one, in order, each with a row id and its place in the write order.
    expect(memory.taints.map((record) => record.kind)).toEqual(["tool-result", "memory-key", "output", "output", "output"]);
    expect(trace.taintRecords.map(({ id: _id, sequence: _sequence, ...record }) => record)).toEqual(memory.taints);
    expect(new Set(trace.taintRecords.map((record) => record.id)).size).toBe(memory.taints.length);
    const search = trace.toolCalls.find((call) => call.tool === "search")!;
    expect(trace.taintRecords[0]).toMatchObject({ kind: "tool-result", source: "mcp", server: "web-search", tool: "search", nodeId: "researcher", toolCallId: search.id });
    expect(trace.taintRecords[1]).toMatchObject({ kind: "memory-key", key: "findings", origins: [search.id] });

    // Tool calls and taint entries share one write order, so one "after n" serves a live page for both.
    const order = [...trace.toolCalls, ...trace.taintRecords].map((row) => row.sequence).sort((a, b) => a - b);
    expect(order).toEqual(order.map((_, index) => index + 1));
    const afterSearch = (await getRunTrace("tainted", { afterSequence: search.sequence }))!;
    expect(afterSearch.taintRecords.map((record) => record.id)).toEqual(trace.taintRecords.filter((record) => record.sequence > search.sequence).map((record) => record.id));

    const tainted = Object.fromEntries(trace.nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.taintedOutputs]));
    expect(tainted).toEqual({ start: [], researcher: ["answer"], clock: ["answer"], end: ["result"] });
    for (const end of memory.nodeEnds) expect(trace.nodeRuns.find((nodeRun) => nodeRun.id === end.nodeRunId)?.taintedOutputs).toEqual(end.taintedOutputs);
  });

  it("reads a node run written before taint tracking as clean, skips an entry of an unknown kind, and deletes entries with their run", async () => {
    const sink = new PrismaRunSink(database.client, { document: { name: "Old" } });
    await sink.runStart({ runId: "old", workflowId: null, input: {}, startedAt: new Date(0).toISOString() });
    await sink.nodeStart({ runId: "old", nodeRunId: "old-node", nodeId: "agent", nodeType: "plain-agent", parentToolCallId: null, inputs: {}, startedAt: new Date(1).toISOString() });
    // An engine (or fixture) from before taint tracking leaves taintedOutputs out.
    await sink.nodeEnd({ runId: "old", nodeRunId: "old-node", status: "completed", outputs: { answer: "x" }, error: null, turns: 1, endedAt: new Date(2).toISOString() });
    await sink.taintRecord({ kind: "output", runId: "old", nodeId: "agent", nodeRunId: "old-node", output: "answer", origins: ["c1"], recordedAt: new Date(3).toISOString() });
    await database.client.taintRecord.create({ data: { id: "future", runId: "old", kind: "prompt-injection-verdict", nodeId: "agent", nodeRunId: "old-node", recordedAt: new Date(4), sequence: 99 } });

    const trace = (await getRunTrace("old"))!;
    expect(trace.nodeRuns[0].taintedOutputs).toEqual([]);
    expect(trace.taintRecords).toEqual([expect.objectContaining({ kind: "output", output: "answer", origins: ["c1"], sequence: 1 })]);

    await database.client.run.delete({ where: { id: "old" } });
    expect(await database.client.taintRecord.count({ where: { runId: "old" } })).toBe(0);
  });
});
