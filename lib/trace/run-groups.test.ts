import { describe, expect, it } from "vitest";
import { groupRunsByFork } from "./run-groups";
import type { RunSummary } from "./run-trace";

const run = (id: string, startedAt: string, forkedFrom?: string): RunSummary => ({
  id,
  workflowId: "wf",
  workflowName: "orders",
  status: "completed",
  error: null,
  startedAt,
  endedAt: startedAt,
  toolCallCount: 0,
  ...(forkedFrom ? { forkedFrom: { runId: forkedFrom, at: "clerk#1/t1", change: { kind: "none" } } } : {}),
});

describe("the runs table groups forks under their parent", () => {
  it("puts each fork beneath its parent, oldest fork first, a fork of a fork one level deeper", () => {
    // Newest first, as the list is read.
    const runs = [run("f2", "2026-12-01T10:05:00Z", "p"), run("ff", "2026-12-01T10:04:00Z", "f1"), run("other", "2026-12-01T10:03:00Z"), run("f1", "2026-12-01T10:02:00Z", "p"), run("p", "2026-12-01T10:01:00Z")];
    expect(groupRunsByFork(runs).map((row) => [row.run.id, row.depth, row.parentId, row.forkCount])).toEqual([
      ["other", 0, null, 0],
      ["p", 0, null, 3],
      ["f1", 1, "p", 1],
      ["ff", 2, "f1", 0],
      ["f2", 1, "p", 0],
    ]);
  });

  it("leaves a fork whose parent is not listed at the top level, and loses no row", () => {
    const runs = [run("f", "2026-12-01T10:02:00Z", "gone"), run("a", "2026-12-01T10:01:00Z")];
    expect(groupRunsByFork(runs).map((row) => [row.run.id, row.depth])).toEqual([["f", 0], ["a", 0]]);
    expect(groupRunsByFork([])).toEqual([]);
  });
});
