import { describe, expect, it } from "vitest";
import { MemorySink } from "../../trace/memory-sink";
import { TaintRegistry } from "../../trace/taint-registry";
import type { CallMeta } from "../agent-tool";
import type { ToolBinding } from "../tool-binding";
import { createBuiltinTool, localIsoTime, RunMemory } from ".";

function bind(now = new Date("2025-01-15T12:00:00.000Z")) {
  const sink = new MemorySink();
  const taint = new TaintRegistry("run-1", { emit: (record) => sink.taintRecord(record) });
  const binding: ToolBinding = { runId: "run-1", recordCall: (row) => sink.toolCall(row), taint, memory: new RunMemory(), now: () => now };
  return { sink, taint, binding };
}

const meta = (nodeId: string, callId = "call_1"): CallMeta => ({ callId, nodeRunId: `${nodeId}-run`, callerNodeId: nodeId, usage: { inputTokens: 10, outputTokens: 5 } });

describe("built-in tools", () => {
  it("save_to_memory and read_memory share the run's memory between agents, one trace row per call on server builtin", async () => {
    const { sink, binding } = bind();
    const save = createBuiltinTool("save_to_memory", binding);
    const read = createBuiltinTool("read_memory", binding);
    expect(await save.call({ key: "plan", value: { steps: ["search", "write"] } }, meta("planner"))).toEqual({ output: "Saved under 'plan'.", isError: false });
    expect(await read.call({ key: "plan" }, meta("writer"))).toEqual({ output: JSON.stringify({ steps: ["search", "write"] }), isError: false });
    expect(await read.call({}, meta("writer"))).toMatchObject({ output: JSON.stringify({ keys: ["plan"] }), isError: false });
    expect(await read.call({ key: "missing" }, meta("writer"))).toEqual({ output: "Nothing is saved under 'missing'. Saved keys: plan.", isError: true });
    expect(sink.toolCalls.map((row) => [row.tool, row.server, row.caller, row.isError, row.tainted])).toEqual([
      ["save_to_memory", "builtin", "planner", false, false],
      ["read_memory", "builtin", "writer", false, false],
      ["read_memory", "builtin", "writer", false, false],
      ["read_memory", "builtin", "writer", true, false],
    ]);
    expect(sink.toolCalls[0]).toMatchObject({ runId: "run-1", nodeRunId: "planner-run", arguments: { key: "plan", value: { steps: ["search", "write"] } }, inputTokens: 10, outputTokens: 5 });
  });

  it("checks arguments with zod: a missing key is an error result, not a throw", async () => {
    const { sink, binding } = bind();
    const outcome = await createBuiltinTool("save_to_memory", binding).call({ value: 1 }, meta("planner"));
    expect(outcome).toMatchObject({ isError: true, output: expect.stringMatching(/^Invalid arguments for save_to_memory: key: /) });
    expect(sink.toolCalls).toHaveLength(1);
  });

  it("records a key saved by a tainted agent as tainted, and taints whoever reads it", async () => {
    const { sink, taint, binding } = bind();
    await taint.recordToolResult({ source: "mcp", server: "web-search", tool: "search", nodeId: "researcher", nodeRunId: "researcher-run", toolCallId: "row-search" });
    const save = createBuiltinTool("save_to_memory", binding);
    await save.call({ key: "findings", value: "the page said…" }, meta("researcher"));
    await save.call({ key: "plan", value: "clean" }, meta("planner"));
    expect(taint.taintedMemoryKeys()).toEqual(["findings"]);
    expect(sink.taints.filter((record) => record.kind === "memory-key")).toEqual([
      expect.objectContaining({ key: "findings", nodeId: "researcher", toolCallId: sink.toolCalls[0].id, origins: ["row-search"] }),
    ]);
    const read = createBuiltinTool("read_memory", binding);
    expect(await read.call({ key: "findings" }, meta("writer"))).toEqual({ output: "the page said…", isError: false });
    expect(sink.toolCalls.at(-1)?.tainted).toBe(true);
    expect(taint.originsOf("writer-run")).toEqual(["row-search"]);
  });

  it("get_current_time answers ISO time, in UTC or an IANA time zone", async () => {
    const { binding } = bind();
    const time = createBuiltinTool("get_current_time", binding);
    expect(JSON.parse((await time.call({}, meta("agent"))).output)).toEqual({ utc: "2025-01-15T12:00:00.000Z", timeZone: "UTC", local: "2025-01-15T12:00:00+00:00" });
    expect(JSON.parse((await time.call({ timeZone: "Asia/Kolkata" }, meta("agent"))).output)).toMatchObject({ local: "2025-01-15T17:30:00+05:30" });
    expect(await time.call({ timeZone: "Mars/Olympus" }, meta("agent"))).toMatchObject({ isError: true, output: expect.stringContaining("Unknown time zone 'Mars/Olympus'") });
  });

  it("localIsoTime follows daylight saving", () => {
    expect(localIsoTime(new Date("2025-01-15T12:00:00Z"), "America/New_York")).toBe("2025-01-15T07:00:00-05:00");
    expect(localIsoTime(new Date("2025-07-15T12:00:00Z"), "America/New_York")).toBe("2025-07-15T08:00:00-04:00");
  });
});
