import { describe, expect, it } from "vitest";
import { lastSequence, mergeTrace } from "./merge-trace";
import type { NodeRunRecord, RunTrace, ToolCallRecord } from "./run-trace";
import { buildTraceRows, buildTraceTree, noFilters, type TraceRow, wholeTraceInput } from "./trace-tree";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

function nodeRun(id: string, nodeId: string, startMs: number, extra: Partial<NodeRunRecord> = {}): NodeRunRecord {
  return { id, runId: "r", nodeId, nodeType: nodeId, parentToolCallId: null, status: "completed", turns: 0, inputs: {}, outputs: {}, taintedOutputs: [], error: null, startedAt: at(startMs), endedAt: at(startMs + 10), ...extra };
}

function call(id: string, nodeRunId: string | null, tool: string, startMs: number, sequence: number, extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return { id, runId: "r", nodeRunId, tool, server: "s", caller: "agent", arguments: {}, result: null, error: null, isError: false, tainted: false, startedAt: at(startMs), durationMs: 5, inputTokens: null, outputTokens: null, sequence, ...extra };
}

/** An agent that calls a tool, then a task whose sub-flow has its own agent calling two tools (one fails). */
const trace: Pick<RunTrace, "nodeRuns" | "toolCalls"> = {
  nodeRuns: [
    nodeRun("n-start", "start", 0),
    nodeRun("n-agent", "agent", 1, { turns: 3 }),
    nodeRun("n-sub-start", "task-start", 20, { parentToolCallId: "c-task" }),
    nodeRun("n-sub-agent", "helper", 21, { parentToolCallId: "c-task", status: "failed", error: "boom" }),
    nodeRun("n-end", "end", 90),
  ],
  toolCalls: [
    call("c-convert", "n-agent", "convertUnits", 5, 1),
    call("c-look", "n-sub-agent", "lookUp", 22, 2),
    call("c-fail", "n-sub-agent", "convertUnits", 30, 3, { isError: true, error: "bad unit" }),
    call("c-task", "n-agent", "summarize", 19, 4),
  ],
};

const shape = (rows: TraceRow[]) =>
  rows.map((row) => `${"  ".repeat(row.depth)}${row.kind === "node" ? row.nodeRun.nodeId : row.kind === "call" ? `${row.call.tool}()` : row.kind === "detail" ? `[${row.call.tool}]` : row.kind === "pending" ? `…${row.position}` : row.kind === "pending-turn" ? `…turn ${row.index}` : row.kind === "turn" ? `turn ${row.turn.sequence}: ${row.turn.model}` : row.kind === "turn-detail" ? `[turn ${row.turn.sequence}]` : row.kind === "wait" ? `wait ${row.wait.kind}` : row.label}`);

describe("buildTraceTree", () => {
  it("nests node runs → tool calls → the sub-flow a task call started, in start order", () => {
    expect(shape(buildTraceTree(trace).rows)).toEqual([
      "start",
      "agent",
      "  convertUnits()",
      "  summarize()",
      "    task-start",
      "    helper",
      "      lookUp()",
      "      convertUnits()",
      "end",
    ]);
  });

  it("filters by tool, keeping the ancestors of what matches", () => {
    const tree = buildTraceTree(trace, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } });
    expect(shape(tree.rows)).toEqual(["agent", "  convertUnits()", "  summarize()", "    helper", "      convertUnits()"]);
    expect(tree).toMatchObject({ matchingCalls: 2, totalCalls: 4 });
  });

  it("filters to errors: failed calls and node runs that did not complete", () => {
    const tree = buildTraceTree(trace, { filters: { nodeId: "", tool: "", errorsOnly: true } });
    expect(shape(tree.rows)).toEqual(["agent", "  summarize()", "    helper", "      convertUnits()"]);
    expect(tree.matchingCalls).toBe(1);
  });

  it("filters by node: that node's runs with all their calls", () => {
    expect(shape(buildTraceTree(trace, { filters: { nodeId: "helper", tool: "", errorsOnly: false } }).rows)).toEqual([
      "agent",
      "  summarize()",
      "    helper",
      "      lookUp()",
      "      convertUnits()",
    ]);
    expect(buildTraceTree(trace, { filters: { nodeId: "end", tool: "convertUnits", errorsOnly: false } }).rows).toEqual([]);
  });

  it("puts a detail row under an expanded call and hides a collapsed node run's calls", () => {
    const rows = buildTraceTree(trace, { expandedCalls: new Set(["c-convert"]), collapsedNodeRuns: new Set(["n-sub-agent"]) }).rows;
    expect(shape(rows)).toEqual(["start", "agent", "  convertUnits()", "    [convertUnits]", "  summarize()", "    task-start", "    helper", "end"]);
    expect(rows.find((row) => row.kind === "node" && row.nodeRun.id === "n-sub-agent")).toMatchObject({ collapsed: true, callCount: 2 });
  });

  it("shows a sub-flow whose task call has not returned yet, and calls with no node run", () => {
    const running = { nodeRuns: trace.nodeRuns, toolCalls: [...trace.toolCalls.filter((row) => row.id !== "c-task"), call("c-host", null, "fromOutside", 95, 5)] };
    expect(shape(buildTraceTree(running).rows)).toEqual([
      "start",
      "agent",
      "  convertUnits()",
      "Sub-flow of a task call that has not returned yet",
      "  task-start",
      "  helper",
      "    lookUp()",
      "    convertUnits()",
      "end",
      "Calls with no node run (outside MCP hosts)",
      "  fromOutside()",
    ]);
  });

  it("keeps every row once even when the data holds a cycle", () => {
    const cyclic = { nodeRuns: [nodeRun("a", "a", 0, { parentToolCallId: "x" })], toolCalls: [call("x", "a", "t", 1, 1)] };
    expect(buildTraceTree(cyclic).rows.length).toBeLessThanOrEqual(2);
  });

  it("builds and filters the rows of 10,000 calls", () => {
    const many = { nodeRuns: [nodeRun("n", "agent", 0)], toolCalls: Array.from({ length: 10_000 }, (_, index) => call(`c${index}`, "n", `tool${index % 7}`, index, index + 1)) };
    const tree = buildTraceTree(many, { filters: { nodeId: "", tool: "tool3", errorsOnly: false } });
    expect(tree.matchingCalls).toBe(1429);
  });
});

describe("buildTraceRows over calls loaded in part", () => {
  const agent = nodeRun("n-agent", "agent", 1);
  const helper = nodeRun("n-helper", "helper", 30, { parentToolCallId: "c-task" });
  const loadedCall = (position: number) => call(`c${position}`, "n-agent", "listUnits", position, position + 1);

  it("holds a pending row for every position not loaded yet, so the list has its true size", () => {
    const loaded = new Map([[0, loadedCall(0)], [1, loadedCall(1)], [4, loadedCall(4)]]);
    const tree = buildTraceRows({ nodeRuns: [agent], groups: { "n-agent": 5 }, callsByGroup: { "n-agent": 5 }, loaded: (group, position) => (group === "n-agent" ? loaded.get(position) : undefined), anchored: [], matchingCalls: 5, totalCalls: 5 });
    expect(shape(tree.rows)).toEqual(["agent", "  listUnits()", "  listUnits()", "  …2", "  …3", "  listUnits()"]);
    expect(tree.rows[3]).toMatchObject({ kind: "pending", key: "pending:n-agent:2", group: "n-agent", position: 2 });
    expect(tree.rows[0]).toMatchObject({ callCount: 5 });
  });

  it("places a task call that only holds what matches among the filtered calls, with its sub-flow under it", () => {
    const task = call("c-task", "n-agent", "summarize", 20, 3);
    const inner = call("c-inner", "n-helper", "convertUnits", 31, 2);
    const filtered = new Map<string, ToolCallRecord[]>([["n-agent", [call("c-a", "n-agent", "convertUnits", 2, 1), call("c-b", "n-agent", "convertUnits", 40, 4)]], ["n-helper", [inner]]]);
    const tree = buildTraceRows(
      {
        nodeRuns: [agent, helper], groups: { "n-agent": 2, "n-helper": 1 }, callsByGroup: { "n-agent": 3, "n-helper": 1 },
        loaded: (group, position) => filtered.get(group)?.[position], anchored: [{ call: task, group: "n-agent", before: 1, matches: false }], matchingCalls: 3, totalCalls: 4,
      },
      { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } },
    );
    expect(shape(tree.rows)).toEqual(["agent", "  convertUnits()", "  summarize()", "    helper", "      convertUnits()", "  convertUnits()"]);
  });

  it("shows a task call that matches at its position before its page is loaded", () => {
    const task = call("c-task", "n-agent", "summarize", 20, 3);
    const tree = buildTraceRows({ nodeRuns: [agent, helper], groups: { "n-agent": 3 }, callsByGroup: { "n-agent": 3 }, loaded: () => undefined, anchored: [{ call: task, group: "n-agent", before: 2, matches: true }], matchingCalls: 3, totalCalls: 3 });
    expect(shape(tree.rows)).toEqual(["agent", "  …0", "  …1", "  summarize()", "    helper"]);
  });
});

describe("mergeTrace", () => {
  it("replaces the run and node runs, adds each new tool call once, in start order", () => {
    const base: RunTrace = {
      run: { id: "r", workflowId: null, workflowName: "w", status: "running", input: {}, outputs: {}, error: null, startedAt: at(0), endedAt: null },
      nodeRuns: [nodeRun("n-agent", "agent", 1, { status: "running" })],
      toolCalls: [call("b", "n-agent", "t", 10, 2)],
      taintRecords: [],
      readAt: at(50),
    };
    const update: RunTrace = { ...base, run: { ...base.run, status: "completed", endedAt: at(60) }, nodeRuns: [nodeRun("n-agent", "agent", 1)], toolCalls: [call("a", "n-agent", "t", 5, 3), call("b", "n-agent", "t", 10, 2)], readAt: at(70) };
    const merged = mergeTrace(base, update);
    expect(merged.run.status).toBe("completed");
    expect(merged.nodeRuns[0].status).toBe("completed");
    expect(merged.toolCalls.map((row) => row.id)).toEqual(["a", "b"]);
    expect(lastSequence(merged.toolCalls)).toBe(3);
    expect(merged.readAt).toBe(at(70));
  });

  it("adds each new taint entry once, in write order; the next poll asks after the last row of either kind", () => {
    const taint = (id: string, sequence: number): RunTrace["taintRecords"][number] => ({
      id, sequence, kind: "output", runId: "r", nodeId: "agent", nodeRunId: "n-agent", output: "answer", origins: ["a"], recordedAt: at(sequence),
    });
    const base: RunTrace = {
      run: { id: "r", workflowId: null, workflowName: "w", status: "running", input: {}, outputs: {}, error: null, startedAt: at(0), endedAt: null },
      nodeRuns: [],
      toolCalls: [call("a", "n-agent", "t", 5, 1)],
      taintRecords: [taint("t2", 2)],
      readAt: at(50),
    };
    const merged = mergeTrace(base, { ...base, toolCalls: [], taintRecords: [taint("t4", 4), taint("t2", 2), taint("t3", 3)] });
    expect(merged.taintRecords.map((record) => record.id)).toEqual(["t2", "t3", "t4"]);
    expect(lastSequence(merged.toolCalls, merged.taintRecords)).toBe(4);
  });

  it("places each model turn among its node run's calls, before the calls it asked for; an open turn shows its answer; a filter hides turns", () => {
    const turn = (sequence: number, callsBefore: number) => ({ id: `turn-${sequence}`, stepKey: `agent#1/t${sequence}`, nodeRunId: "n-agent", sequence, model: "gpt-test", text: "", startedAt: "2026-01-01T00:00:00.000Z", durationMs: 5, callsBefore });
    const withTurns = { ...trace, modelTurns: [turn(3, 2), turn(1, 0), turn(2, 1)] };
    const agentRows = (rows: TraceRow[]) => shape(rows).filter((line) => /turn|convertUnits\(\)$|summarize\(\)$|\[turn/.test(line) && line.startsWith("  ") && !line.startsWith("    "));
    expect(agentRows(buildTraceTree(withTurns).rows)).toEqual(["  turn 1: gpt-test", "  convertUnits()", "  turn 2: gpt-test", "  summarize()", "  turn 3: gpt-test"]);
    expect(shape(buildTraceTree(withTurns, { expandedTurns: new Set(["turn-2"]) }).rows)).toContain("    [turn 2]");
    expect(shape(buildTraceTree(withTurns, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } }).rows).some((line) => line.includes("turn"))).toBe(false);
  });

  it("gives a paged turn that is not loaded yet a pending row at its place, and the turn once its page is loaded", () => {
    const turn = (sequence: number, callsBefore: number) => ({ id: `turn-${sequence}`, stepKey: `agent#1/t${sequence}`, nodeRunId: "n-agent", sequence, model: "gpt-test", text: "", startedAt: "2026-01-01T00:00:00.000Z", durationMs: 5, callsBefore });
    const whole = wholeTraceInput(trace, noFilters);
    const agentRows = (rows: TraceRow[]) => shape(rows).filter((line) => /turn|convertUnits\(\)$|summarize\(\)$/.test(line) && line.startsWith("  ") && !line.startsWith("    "));
    const loadedTurns = new Map([[0, turn(1, 0)]]);
    const input = { ...whole, turnPlaces: { "n-agent": [0, 1, 2] }, loadedTurn: (group: string, index: number) => (group === "n-agent" ? loadedTurns.get(index) : undefined) };
    const first = buildTraceRows(input).rows;
    expect(agentRows(first)).toEqual(["  turn 1: gpt-test", "  convertUnits()", "  …turn 1", "  summarize()", "  …turn 2"]);
    expect(first.find((row) => row.kind === "pending-turn")).toMatchObject({ group: "n-agent", index: 1 });
    loadedTurns.set(1, turn(2, 1)).set(2, turn(3, 2));
    expect(agentRows(buildTraceRows(input).rows)).toEqual(["  turn 1: gpt-test", "  convertUnits()", "  turn 2: gpt-test", "  summarize()", "  turn 3: gpt-test"]);
    // A filter hides turns, loaded or not.
    expect(buildTraceRows(input, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } }).rows.some((row) => row.kind === "pending-turn" || row.kind === "turn")).toBe(false);
  });
});
