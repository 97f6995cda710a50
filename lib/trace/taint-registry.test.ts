import { describe, expect, it } from "vitest";
import type { TaintRecord } from "./run-events";
import { TaintRegistry } from "./taint-registry";

const at = new Date("2025-01-15T12:00:00Z");

function registry() {
  const emitted: TaintRecord[] = [];
  return { taint: new TaintRegistry("run-1", { emit: (record) => void emitted.push(record), now: () => at }), emitted };
}

const search = { source: "mcp" as const, server: "web-search", tool: "search", nodeId: "researcher", nodeRunId: "researcher-run", toolCallId: "row-1" };

describe("TaintRegistry", () => {
  it("records a tainted tool result once and taints the calling node run", async () => {
    const { taint, emitted } = registry();
    await taint.recordToolResult(search);
    await taint.recordToolResult(search);
    expect(emitted).toEqual([{ kind: "tool-result", runId: "run-1", ...search, recordedAt: at.toISOString() }]);
    expect(taint.originsOf("researcher-run")).toEqual(["row-1"]);
    expect(taint.originsOf("writer-run")).toEqual([]);
  });

  it("taints a memory key written by a tainted node run, and its readers; a clean overwrite clears it", async () => {
    const { taint, emitted } = registry();
    expect(await taint.recordMemoryWrite({ key: "notes", nodeId: "planner", nodeRunId: "planner-run", toolCallId: "row-0" })).toBe(false);
    await taint.recordToolResult(search);
    expect(await taint.recordMemoryWrite({ key: "notes", nodeId: "researcher", nodeRunId: "researcher-run", toolCallId: "row-2" })).toBe(true);
    expect(emitted.at(-1)).toEqual({ kind: "memory-key", runId: "run-1", key: "notes", nodeId: "researcher", nodeRunId: "researcher-run", toolCallId: "row-2", origins: ["row-1"], recordedAt: at.toISOString() });
    expect(taint.taintedMemoryKeys()).toEqual(["notes"]);
    expect(taint.recordMemoryRead({ key: "notes", nodeRunId: "writer-run" })).toBe(true);
    expect(taint.originsOf("writer-run")).toEqual(["row-1"]);
    await taint.recordMemoryWrite({ key: "notes", nodeId: "planner", nodeRunId: "planner-run", toolCallId: "row-3" });
    expect(taint.taintedMemoryKeys()).toEqual([]);
    expect(taint.recordMemoryRead({ key: "notes", nodeRunId: "late-run" })).toBe(false);
  });

  it("records the outputs of a tainted node run, and none of a clean one", async () => {
    const { taint, emitted } = registry();
    expect(await taint.recordOutputs({ nodeId: "planner", nodeRunId: "planner-run", outputs: ["answer"] })).toEqual([]);
    await taint.recordToolResult(search);
    expect(await taint.recordOutputs({ nodeId: "researcher", nodeRunId: "researcher-run", outputs: ["answer", "sources"] })).toEqual(["answer", "sources"]);
    expect(emitted.filter((record) => record.kind === "output").map((record) => record.kind === "output" && record.output)).toEqual(["answer", "sources"]);
    expect(taint.outputOrigins("researcher", "answer")).toEqual(["row-1"]);
    expect(taint.outputOrigins("planner", "answer")).toBeUndefined();
  });

  it("keeps the entries in order for whoever asks", async () => {
    const { taint } = registry();
    await taint.recordToolResult(search);
    await taint.recordOutputs({ nodeId: "researcher", nodeRunId: "researcher-run", outputs: ["answer"] });
    expect(taint.records().map((record) => record.kind)).toEqual(["tool-result", "output"]);
  });
});
