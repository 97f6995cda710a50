import { describe, expect, it } from "vitest";
import type { NodeRunRecord, RunTrace, TaintRecordEntry, ToolCallRecord } from "./run-trace";
import { nodeRunsAbove, taintSummary } from "./taint-summary";

const at = "2026-01-01T00:00:00.000Z";

function call(id: string, nodeRunId: string, tool: string, server = "web-search"): ToolCallRecord {
  return { id, runId: "r", nodeRunId, tool, server, caller: "agent", arguments: {}, result: null, error: null, isError: false, tainted: true, startedAt: at, durationMs: 1, inputTokens: null, outputTokens: null, sequence: 1 };
}

function nodeRun(id: string, parentToolCallId: string | null = null): NodeRunRecord {
  return { id, runId: "r", nodeId: id, nodeType: "agent", parentToolCallId, status: "completed", turns: 1, inputs: {}, outputs: {}, taintedOutputs: [], error: null, startedAt: at, endedAt: at };
}

const records: TaintRecordEntry[] = [
  { id: "t1", sequence: 2, kind: "tool-result", runId: "r", source: "mcp", server: "web-search", tool: "search", nodeId: "researcher", nodeRunId: "nr", toolCallId: "c1", recordedAt: at },
  { id: "t2", sequence: 4, kind: "memory-key", runId: "r", key: "findings", nodeId: "researcher", nodeRunId: "nr", toolCallId: "c2", origins: ["c1"], recordedAt: at },
  { id: "t3", sequence: 5, kind: "output", runId: "r", nodeId: "researcher", nodeRunId: "nr", output: "answer", origins: ["c1", "c9"], recordedAt: at },
];

describe("taintSummary", () => {
  it("lists the tool results that brought content in, and the keys and outputs it reached with their sources", () => {
    const summary = taintSummary({ taintRecords: records, toolCalls: [call("c1", "nr", "search"), call("c2", "nr", "save_to_memory", "builtin")] });
    const search = { callId: "c1", server: "web-search", tool: "search", source: "mcp", inTrace: true };
    expect(summary.entries).toEqual([search]);
    expect(summary.memoryKeys).toEqual([{ id: "t2", kind: "memory-key", label: "findings", nodeId: "researcher", nodeRunId: "nr", origins: [search] }]);
    // An origin whose row is not in the trace yet (a live page) is named by id only.
    expect(summary.outputs).toEqual([
      { id: "t3", kind: "output", label: "researcher.answer", nodeId: "researcher", nodeRunId: "nr", origins: [search, { callId: "c9", server: null, tool: null, source: null, inTrace: false }] },
    ]);
  });

  it("is empty for a clean run", () => {
    expect(taintSummary({ taintRecords: [], toolCalls: [call("c1", "nr", "convert")] })).toEqual({ entries: [], memoryKeys: [], outputs: [] });
  });
});

describe("nodeRunsAbove", () => {
  it("climbs from a call in a task's sub-flow to the node run that started the task", () => {
    const trace: Pick<RunTrace, "nodeRuns" | "toolCalls"> = {
      nodeRuns: [nodeRun("outer"), nodeRun("inner", "task-call")],
      toolCalls: [call("task-call", "outer", "research"), call("deep", "inner", "search")],
    };
    expect(nodeRunsAbove(trace, "deep")).toEqual(["inner", "outer"]);
    expect(nodeRunsAbove(trace, "task-call")).toEqual(["outer"]);
    expect(nodeRunsAbove(trace, "missing")).toEqual([]);
  });
});
