import path from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { runWorkflow } from "../engine";
import { createLocalEnvironment } from "../runs/local-environment";
import { taskRoundTripWorkflow } from "../engine/task-round-trip-workflow";
import { parseWorkflow } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { buildTraceTree } from "../trace/trace-tree";
import { demoWorkflow } from "./demo-workflow";
import { interruptedRunMessage, resumeInterruptedRuns } from "./interrupted-runs";
import { PrismaRunSink } from "./run-sink";
import { teeSink } from "./tee-sink";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import { openSqlDatabase } from "./sql/open-database";
import type { SqlDatabase } from "./sql/sql-database";
import { getRunTrace, listRuns } from "./runs";

const opened = new Map<string, SqlDatabase>();
/** The run queue's database beside the test's Prisma client (closed with the process). */
const sqlOf = (url: string): SqlDatabase => opened.get(url) ?? opened.set(url, openSqlDatabase(url)).get(url)!;

const root = path.resolve(import.meta.dirname, "..", "..");
// getRunTrace goes through the app's shared client, which opens this database too.
const database = temporaryAppDatabase();

const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, 0, ms)).toISOString();

describe("PrismaRunSink and getRunTrace", () => {
  it("round-trips a run with a task's nested node runs", async () => {
    const sink = new PrismaRunSink(database.client, { document: { version: 1, name: "Nested", nodes: [], edges: [] } });
    await sink.runStart({ runId: "nested", workflowId: null, input: { question: "how far?" }, startedAt: at(0) });
    await sink.nodeStart({ runId: "nested", nodeRunId: "agent-run", nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: { prompt: "how far?" }, startedAt: at(1) });
    // The task's sub-flow starts before its tool call's row exists: the row is written when the call returns.
    await sink.nodeStart({ runId: "nested", nodeRunId: "inner-run", nodeId: "inner", nodeType: "openai-agent", parentToolCallId: "task-call", inputs: {}, startedAt: at(3) });
    await sink.toolCall({
      id: "inner-call", runId: "nested", nodeRunId: "inner-run", tool: "convertUnits", server: "converter", caller: "inner",
      arguments: { value: 26.2, from: "mile", to: "kilometre" }, result: { result: 42.1648128 }, error: null, isError: false, tainted: true,
      startedAt: at(4), durationMs: 7, inputTokens: 10, outputTokens: 5,
    });
    await sink.nodeEnd({ runId: "nested", nodeRunId: "inner-run", status: "completed", outputs: { answer: "42.16 km" }, error: null, turns: 2, endedAt: at(12) });
    await sink.toolCall({
      id: "task-call", runId: "nested", nodeRunId: "agent-run", tool: "convert_a_distance", server: "task", caller: "agent",
      arguments: { question: "26.2 mile" }, result: "42.16 km", error: null, isError: false, tainted: false,
      startedAt: at(2), durationMs: 11, inputTokens: null, outputTokens: null,
    });
    await sink.toolCall({
      id: "failed-call", runId: "nested", nodeRunId: "agent-run", tool: "noSuchTool", server: "switchboard", caller: "agent",
      arguments: {}, result: undefined, error: "unknown tool", isError: true, tainted: false,
      startedAt: at(14), durationMs: 0.4, inputTokens: 3, outputTokens: 1,
    });
    await sink.nodeEnd({ runId: "nested", nodeRunId: "agent-run", status: "max_turns", outputs: {}, error: "stopped at maxTurns (2)", turns: 2, endedAt: at(15) });
    await sink.runEnd({ runId: "nested", status: "completed", outputs: { result: "42.16 km" }, error: null, endedAt: at(16) });

    const trace = await getRunTrace("nested");
    expect(trace?.run).toEqual({
      id: "nested", workflowId: null, workflowName: "Nested", status: "completed", input: { question: "how far?" },
      outputs: { result: "42.16 km" }, error: null, startedAt: at(0), endedAt: at(16),
    });
    expect(trace?.nodeRuns.map((row) => [row.id, row.parentToolCallId, row.status, row.turns, row.endedAt])).toEqual([
      ["agent-run", null, "max_turns", 2, at(15)],
      ["inner-run", "task-call", "completed", 2, at(12)],
    ]);
    expect(trace?.nodeRuns[1].outputs).toEqual({ answer: "42.16 km" });
    expect(trace?.toolCalls.map((row) => [row.id, row.sequence])).toEqual([
      ["task-call", 2],
      ["inner-call", 1],
      ["failed-call", 3],
    ]);
    expect(trace?.toolCalls[1]).toEqual({
      id: "inner-call", runId: "nested", nodeRunId: "inner-run", tool: "convertUnits", server: "converter", caller: "inner",
      arguments: { value: 26.2, from: "mile", to: "kilometre" }, result: { result: 42.1648128 }, error: null, isError: false, tainted: true,
      startedAt: at(4), durationMs: 7, inputTokens: 10, outputTokens: 5, sequence: 1,
    });
    expect(trace?.toolCalls[0].result).toBe("42.16 km");
    expect(trace?.toolCalls[2]).toMatchObject({ result: null, error: "unknown tool", isError: true, durationMs: 0 });

    // The page's tree: the sub-flow sits under the task call that started it.
    const rows = buildTraceTree(trace!).rows.map((row) => `${row.depth}:${row.kind === "node" ? row.nodeRun.nodeId : row.kind === "call" ? row.call.tool : row.kind}`);
    expect(rows).toEqual(["0:agent", "1:convert_a_distance", "2:inner", "3:convertUnits", "1:noSuchTool"]);

    // A live page asks only for rows written after the last one it has.
    expect((await getRunTrace("nested", { afterSequence: 2 }))?.toolCalls.map((row) => row.id)).toEqual(["failed-call"]);
    expect(await getRunTrace("no-such-run")).toBeNull();
  });

  it("writes one row per tool call the engine reports, nested task runs included", async () => {
    const document = taskRoundTripWorkflow;
    const parsed = parseWorkflow(document);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const outer = scriptedModel([{ toolCalls: [{ name: "convert_a_distance", arguments: { question: "26.2 mile in km" } }] }, { text: "about 42 km" }]);
    const inner = scriptedModel([
      { toolCalls: [{ name: "listUnits", arguments: { dimension: "length" } }] },
      { toolCalls: [{ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" } }] },
      { text: "42.1648128 km" },
    ]);
    const env = await createLocalEnvironment({ nodesDir: path.join(root, "nodes"), overrides: { models: (request) => (request.nodeId === "outer" ? outer : inner) } });
    const memory = new MemorySink();
    await database.client.run.create({ data: { id: "engine-task", document: JSON.stringify(parsed.workflow), status: "running" } });
    const outcome = await runWorkflow({ runId: "engine-task", workflowId: null, workflow: parsed.workflow, input: { question: "How far is a marathon?" }, sink: teeSink(memory, new PrismaRunSink(database.client)), env });
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "about 42 km" } });

    const trace = await getRunTrace("engine-task");
    expect(trace?.run).toMatchObject({ status: "completed", workflowName: "Task round trip", input: { question: "How far is a marathon?" } });
    // Rows equal tool calls one to one: same ids, same content, nothing extra, nothing missing.
    expect(memory.toolCalls.map((row) => row.tool)).toEqual(["listUnits", "convertUnits", "convert_a_distance"]);
    const rows = new Map(trace!.toolCalls.map((row) => [row.id, row]));
    expect(rows.size).toBe(memory.toolCalls.length);
    for (const [index, reported] of memory.toolCalls.entries()) {
      const { sequence, ...stored } = rows.get(reported.id)!;
      expect(sequence).toBe(index + 1);
      expect(stored).toEqual(JSON.parse(JSON.stringify(reported)));
    }
    // The sub-flow's node runs point at the task call that started them.
    const taskCall = memory.toolCalls.find((row) => row.tool === "convert_a_distance")!;
    expect(trace!.nodeRuns.filter((row) => row.parentToolCallId === taskCall.id).map((row) => row.nodeId).sort()).toEqual(["inner", "task", "task-end"]);
    expect(trace!.nodeRuns.every((row) => row.status === "completed")).toBe(true);
    const tree = buildTraceTree(trace!).rows.map((row) => `${row.depth}:${row.kind === "node" ? row.nodeRun.nodeId : row.kind === "call" ? row.call.tool : row.kind}`);
    expect(tree).toEqual(["0:start", "0:outer", "1:convert_a_distance", "2:task", "2:inner", "3:listUnits", "3:convertUnits", "2:task-end", "0:end"]);
  });

  it("records the shipped demo run offline, with its one convertUnits call", async () => {
    const parsed = parseWorkflow(demoWorkflow.document);
    if (!parsed.ok) throw new Error("demo");
    await database.client.workflow.create({ data: { id: "demo", name: demoWorkflow.name, document: JSON.stringify(demoWorkflow.document) } });
    const outcome = await runWorkflow({
      runId: "demo-run", workflowId: "demo", workflow: parsed.workflow, input: { question: "Convert 26.2 mile to kilometre" },
      sink: new PrismaRunSink(database.client, { document: parsed.workflow }), env: await createLocalEnvironment({ nodesDir: path.join(root, "nodes") }),
    });
    expect(outcome.status).toBe("completed");
    const trace = await getRunTrace("demo-run");
    expect(trace?.toolCalls.map((row) => [row.tool, row.server, row.caller])).toEqual([["convertUnits", "converter", "agent"]]);
    expect(trace?.toolCalls[0].result).toMatchObject({ result: 42.1648128 });
    expect(await listRuns("demo")).toEqual([expect.objectContaining({ id: "demo-run", workflowName: demoWorkflow.name, status: "completed", toolCallCount: 1 })]);
  });

  it("queues again the runs a killed server's worker held, so they resume from their journal; fails the ones no worker held", async () => {
    const sink = new PrismaRunSink(database.client, { document: { name: "Killed" } });
    await sink.runStart({ runId: "killed", workflowId: null, input: {}, startedAt: at(0) });
    await database.client.run.update({ where: { id: "killed" }, data: { workerId: "box:1:worker" } });
    await sink.runStart({ runId: "host-call", workflowId: null, input: {}, startedAt: at(0) });
    await sink.nodeStart({ runId: "host-call", nodeRunId: "host-node", nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at(1) });
    // The host's call was an MCP task: its stored task ends failed too, with the reason as its result.
    await database.client.mcpEndpointTask.create({ data: { id: "host-task", scope: "session:gone", status: "working", pollIntervalMs: 500, runId: "host-call" } });
    expect(await resumeInterruptedRuns(sqlOf(database.url))).toEqual({ queued: 1, failed: 1, leftToLiveWorkers: 0 });
    const task = await database.client.mcpEndpointTask.findUniqueOrThrow({ where: { id: "host-task" } });
    expect(task).toMatchObject({ status: "failed", statusMessage: interruptedRunMessage });
    expect(JSON.parse(task.result!)).toEqual({ content: [{ type: "text", text: interruptedRunMessage }], isError: true });
    expect((await getRunTrace("killed"))?.run).toMatchObject({ status: "queued", endedAt: null });
    const orphan = await getRunTrace("host-call");
    expect(orphan?.run).toMatchObject({ status: "failed", error: interruptedRunMessage });
    expect(orphan?.nodeRuns[0]).toMatchObject({ status: "failed", error: interruptedRunMessage });
    expect(await resumeInterruptedRuns(sqlOf(database.url))).toEqual({ queued: 0, failed: 0, leftToLiveWorkers: 0 });
  });
});
